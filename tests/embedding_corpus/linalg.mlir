// linalg.generic as xDSL 0.74 reads it: the trait inline (an #alias for it is
// a parse error there), linalg.index not checked against the loop count, and
// an indexing map that divides by zero reaching xDSL's verifier as it is.
func.func @generic(%a : memref<4xf32>, %b : memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x : f32, %y : f32):
    %i = linalg.index 0 : index
    %s = arith.addf %x, %y : f32
    linalg.yield %s : f32
  }
  func.return
}
// -----
func.func @index_beyond_loops(%a : memref<4xf32>, %b : memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x : f32, %y : f32):
    %i = linalg.index 3 : index
    linalg.yield %x : f32
  }
  func.return
}
// -----
#trait = {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
func.func @trait_alias(%a : memref<4xf32>, %b : memref<4xf32>) {
  linalg.generic #trait ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x : f32, %y : f32):
    linalg.yield %x : f32
  }
  func.return
}
// -----
func.func @map_mod_zero(%a : memref<4xf32>, %b : memref<4xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0 mod 0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>) {
  ^bb0(%x : f32, %y : f32):
    linalg.yield %x : f32
  }
  func.return
}
