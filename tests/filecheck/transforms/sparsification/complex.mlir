// RUN: xsparse-opt --split-input-file %s -p sparse-reinterpret-map,sparsification | filecheck %s

// Complex elements: the output's skipped entries are filled with the complex
// zero, and complex.sub is a subtraction for the merger (a - 0 = a, 0 - b =
// -b as complex.neg), as in MLIR's Merger (kSubC, kNegC).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#map = affine_map<(i) -> (i)>
func.func @sub(%a: tensor<?xcomplex<f64>, #SV>, %b: tensor<?xcomplex<f64>, #SV>,
               %x: tensor<?xcomplex<f64>>) -> tensor<?xcomplex<f64>> {
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xcomplex<f64>, #SV>, tensor<?xcomplex<f64>, #SV>)
      outs(%x : tensor<?xcomplex<f64>>) {
  ^bb0(%p: complex<f64>, %q: complex<f64>, %o: complex<f64>):
    %d = complex.sub %p, %q : complex<f64>
    linalg.yield %d : complex<f64>
  } -> tensor<?xcomplex<f64>>
  return %0 : tensor<?xcomplex<f64>>
}

// CHECK-LABEL: func.func @sub
// CHECK-NEXT:    %[[OUT:.*]] = bufferization.to_buffer %x : tensor<?xcomplex<f64>> to memref<?xcomplex<f64>>
// CHECK-NEXT:    %[[ZERO:.*]] = complex.constant [0.000000e+00 : f64, 0.000000e+00 : f64] : complex<f64>
// CHECK-NEXT:    linalg.fill ins(%[[ZERO]] : complex<f64>) outs(%[[OUT]] : memref<?xcomplex<f64>>)
// CHECK-NEXT:    %[[A:.*]] = sparse_tensor.values %a
// CHECK-NEXT:    %[[B:.*]] = sparse_tensor.values %b
// CHECK:         scf.while
// CHECK:           scf.if
// CHECK-NEXT:        %[[X:.*]] = memref.load %[[A]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %[[B]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK-NEXT:        %[[D:.*]] = complex.sub %[[X]], %[[Y]] : complex<f64>
// CHECK-NEXT:        memref.store %[[D]], %[[OUT]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK:             scf.if
// CHECK-NEXT:          %[[X2:.*]] = memref.load %[[A]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK-NEXT:          memref.store %[[X2]], %[[OUT]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK:               scf.if
// CHECK-NEXT:          %[[Y2:.*]] = memref.load %[[B]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK-NEXT:          %[[N:.*]] = complex.neg %[[Y2]] : complex<f64>
// CHECK-NEXT:          memref.store %[[N]], %[[OUT]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK:         scf.for
// CHECK:         scf.for
// CHECK:           %[[Y3:.*]] = memref.load %[[B]][%{{.*}}] : memref<?xcomplex<f64>>
// CHECK-NEXT:      %[[N2:.*]] = complex.neg %[[Y3]] : complex<f64>
// CHECK-NEXT:      memref.store %[[N2]], %[[OUT]][%{{.*}}] : memref<?xcomplex<f64>>

// -----

// complex.mul is a conjunction (kMulC): one loop over the common entries,
// no loop over either operand's own; complex.abs keeps zeros (kAbsC).

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#map = affine_map<(i) -> (i)>
func.func @abs_of_product(%a: tensor<?xcomplex<f32>, #SV>, %b: tensor<?xcomplex<f32>, #SV>,
                          %x: tensor<?xf32>) -> tensor<?xf32> {
  %0 = linalg.generic {indexing_maps = [#map, #map, #map], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<?xcomplex<f32>, #SV>, tensor<?xcomplex<f32>, #SV>)
      outs(%x : tensor<?xf32>) {
  ^bb0(%p: complex<f32>, %q: complex<f32>, %o: f32):
    %m = complex.mul %p, %q : complex<f32>
    %r = complex.abs %m : complex<f32>
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// CHECK-LABEL: func.func @abs_of_product
// CHECK:         linalg.fill ins(%{{.*}} : f32)
// CHECK:         scf.while
// CHECK:           scf.if
// CHECK-NEXT:        %[[X:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xcomplex<f32>>
// CHECK-NEXT:        %[[Y:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<?xcomplex<f32>>
// CHECK-NEXT:        %[[M:.*]] = complex.mul %[[X]], %[[Y]] : complex<f32>
// CHECK-NEXT:        %[[R:.*]] = complex.abs %[[M]] : complex<f32>
// CHECK-NEXT:        memref.store %[[R]], %{{.*}}[%{{.*}}] : memref<?xf32>
// CHECK-NEXT:      }
// CHECK-NOT:     scf.for
// CHECK:         func.return
