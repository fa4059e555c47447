// Element-wise loops as MLIR 22 decides them: casts and the listed unary
// ops vectorize lane-wise, the loop index (`linalg.index`) becomes
// `broadcast(i) + [0 .. vl-1]` (or a coordinate load), and `cmpf`/`select`
// keep the loop scalar. The BOTH checks run on either tool's output.
// RUN: xsparse-opt %s -p 'sparse-reinterpret-map,sparsification,sparse-vectorization{vl=4}' | filecheck %s --check-prefix=BOTH
// RUN: %if mlir-opt %{ %mlir-opt --sparse-reinterpret-map --sparsification --sparse-vectorization="vl=4" %s | filecheck %s --check-prefix=BOTH %}

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
#ew = {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}

// BOTH-LABEL: func.func @casts(
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xi32>, vector<4xi1>, vector<4xi32> into vector<4xi32>
// BOTH-NEXT:      %[[F:.*]] = arith.sitofp %[[X]] : vector<4xi32> to vector<4xf32>
// BOTH-NEXT:      %[[D:.*]] = arith.extf %[[F]] : vector<4xf32> to vector<4xf64>
// BOTH-NEXT:      %[[A:.*]] = math.absf %[[D]] : vector<4xf64>
// BOTH-NEXT:      %[[S:.*]] = math.sqrt %[[A]] : vector<4xf64>
// BOTH-NEXT:      %[[N:.*]] = arith.negf %[[S]] : vector<4xf64>
// BOTH-NEXT:      %[[I:.*]] = arith.fptosi %[[N]] : vector<4xf64> to vector<4xi64>
// BOTH-NEXT:      %[[T:.*]] = arith.trunci %[[I]] : vector<4xi64> to vector<4xi16>
// BOTH-NEXT:      vector.scatter {{.*}}, %[[T]] : memref<?xi16>, vector<4xindex>, vector<4xi1>, vector<4xi16>
func.func @casts(%a: tensor<?xi32, #SV>, %x: tensor<?xi16>) -> tensor<?xi16> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi32, #SV>) outs(%x : tensor<?xi16>) {
  ^bb0(%p: i32, %o: i16):
    %f = arith.sitofp %p : i32 to f32
    %d = arith.extf %f : f32 to f64
    %a1 = math.absf %d : f64
    %s = math.sqrt %a1 : f64
    %n = arith.negf %s : f64
    %i = arith.fptosi %n : f64 to i64
    %t = arith.trunci %i : i64 to i16
    linalg.yield %t : i16
  } -> tensor<?xi16>
  return %0 : tensor<?xi16>
}

// The index of the compressed loop is a coordinate: a vector load of them.
// BOTH-LABEL: func.func @times_index(
// BOTH:         scf.for
// BOTH:           %[[X:.*]] = vector.maskedload {{.*}} : memref<?xi64>, vector<4xi1>, vector<4xi64> into vector<4xi64>
// BOTH-NEXT:      %[[CRD:.*]] = vector.maskedload {{.*}} : memref<?xindex>, vector<4xi1>, vector<4xindex> into vector<4xindex>
// BOTH-NEXT:      %[[I:.*]] = arith.index_cast %[[CRD]] : vector<4xindex> to vector<4xi64>
// BOTH-NEXT:      %[[M:.*]] = arith.muli %[[X]], %[[I]] : vector<4xi64>
func.func @times_index(%a: tensor<?xi64, #SV>, %x: tensor<?xi64>) -> tensor<?xi64> {
  %0 = linalg.generic #ew ins(%a : tensor<?xi64, #SV>) outs(%x : tensor<?xi64>) {
  ^bb0(%p: i64, %o: i64):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i64
    %r = arith.muli %p, %ii : i64
    linalg.yield %r : i64
  } -> tensor<?xi64>
  return %0 : tensor<?xi64>
}

// The index of a dense loop: broadcast(j) + [0, 1, 2, 3].
// (MLIR hoists the constant [0, 1, 2, 3] out of the loops, we do not.)
// BOTH-LABEL: func.func @dense_index(
// BOTH:         scf.for
// BOTH:           scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// BOTH:             %[[B:.*]] = vector.broadcast %[[J]] : index to vector<4xindex>
// BOTH:             %[[IOTA:.*]] = arith.addi %[[B]], %{{.*}} : vector<4xindex>
// BOTH-NEXT:        %[[I:.*]] = arith.index_cast %[[IOTA]] : vector<4xindex> to vector<4xi64>
func.func @dense_index(%a: tensor<?xi64, #SV>, %x: tensor<?x?xi64>) -> tensor<?x?xi64> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} ins(%a : tensor<?xi64, #SV>) outs(%x : tensor<?x?xi64>) {
  ^bb0(%p: i64, %o: i64):
    %j = linalg.index 1 : index
    %jj = arith.index_cast %j : index to i64
    %r = arith.muli %p, %jj : i64
    linalg.yield %r : i64
  } -> tensor<?x?xi64>
  return %0 : tensor<?x?xi64>
}

// cmpf and select: scalar.
// BOTH-LABEL: func.func @relu(
// BOTH-NOT:     vector.
// BOTH:         arith.cmpf ogt, %{{.*}}, %{{.*}} : f64
// BOTH:         arith.select %{{.*}}, %{{.*}}, %{{.*}} : f64
// BOTH-NOT:     vector.
// BOTH:         return
func.func @relu(%a: tensor<?xf64, #SV>, %x: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #ew ins(%a : tensor<?xf64, #SV>) outs(%x : tensor<?xf64>) {
  ^bb0(%p: f64, %o: f64):
    %z = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %p, %z : f64
    %r = arith.select %c, %p, %z : f64
    linalg.yield %r : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
