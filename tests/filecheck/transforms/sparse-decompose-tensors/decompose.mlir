// RUN: xsparse-opt %s --split-input-file -p sparse-decompose-tensors | filecheck %s
// RUN: xsparse-opt %s --split-input-file -p sparse-decompose-tensors | filecheck %s --check-prefix=GONE

// After the pass no tensor with a structured level remains.
// GONE-NOT: structured

// The seed's example: a 32 x 64 2:4 matrix becomes its 32 x 32 values and
// 128 words of metadata (the seed's 2 x 64 x i16, row by row: 32 x 4). The
// product reads B through a packed copy of its whole tiles, in a parallel
// loop over blocks of rows.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]) }>
func.func @dot(%a: tensor<32x64xf32, #NV_24>, %b: tensor<64x16xf32>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<32x64xf32, #NV_24>, tensor<64x16xf32>) outs(%c : tensor<32x16xf32>) -> tensor<32x16xf32>
  return %0 : tensor<32x16xf32>
}

// CHECK-LABEL: func.func @dot(%a_values: tensor<32x32xf32>, %a_metadata: tensor<32x4xi16>, %b: tensor<64x16xf32>, %c: tensor<32x16xf32>) -> tensor<32x16xf32> {
// CHECK-NEXT:    %[[VALUES:.*]] = bufferization.to_buffer %a_values : tensor<32x32xf32> to memref<32x32xf32>
// CHECK-NEXT:    %[[META:.*]] = bufferization.to_buffer %a_metadata : tensor<32x4xi16> to memref<32x4xi16>
// CHECK-NEXT:    %[[B:.*]] = bufferization.to_buffer %b : tensor<64x16xf32> to memref<64x16xf32>
// CHECK-NEXT:    %[[C:.*]] = bufferization.to_buffer %c : tensor<32x16xf32> to memref<32x16xf32>
// Shapes that disagree are reported (the caller raises), and nothing is read
// or written: the product and the report are the two branches of one scf.if.
// CHECK:         scf.if %{{[0-9]+}} {
// CHECK:           %[[PACKED:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?x32xf32>
// CHECK:           vector.load %[[B]][%{{.*}}, %{{.*}}] : memref<64x16xf32>, vector<8xf32>
// CHECK:           vector.store %{{.*}}, %[[PACKED]][%{{.*}}, %{{.*}}, %{{.*}}] : memref<?x?x32xf32>, vector<8xf32>
// CHECK:           scf.parallel
// The metadata word of a row, decoded in registers: position 0 is bits 0-1.
// CHECK:           %[[WORD16:.*]] = memref.load %[[META]][%[[ROW:.*]], %[[W:.*]]] : memref<32x4xi16>
// CHECK-NEXT:      %[[WORD:.*]] = arith.extui %[[WORD16]] : i16 to i32
// CHECK-NEXT:      %[[#SIXTEEN:]] = arith.constant 16 : index
// CHECK-NEXT:      %[[BBASE:.*]] = arith.muli %[[W]], %[[#SIXTEEN]] : index
// CHECK-NEXT:      %[[#EIGHT:]] = arith.constant 8 : index
// CHECK-NEXT:      %[[VBASE:.*]] = arith.muli %[[W]], %[[#EIGHT]] : index
// CHECK-NEXT:      %[[#ZERO:]] = arith.constant 0 : i32
// CHECK-NEXT:      %[[SHIFTED:.*]] = arith.shrui %[[WORD]], %[[#ZERO]] : i32
// CHECK-NEXT:      %[[#THREE:]] = arith.constant 3 : i32
// CHECK-NEXT:      %[[BITS:.*]] = arith.andi %[[SHIFTED]], %[[#THREE]] : i32
// CHECK-NEXT:      %[[POS:.*]] = arith.index_cast %[[BITS]] : i32 to index
// CHECK-NEXT:      %[[#BLOCK:]] = arith.constant 0 : index
// CHECK-NEXT:      %[[SUM:.*]] = arith.addi %[[BBASE]], %[[#BLOCK]] : index
// CHECK-NEXT:      %[[BROW:.*]] = arith.addi %[[SUM]], %[[POS]] : index
// CHECK-NEXT:      %[[#SLOT:]] = arith.constant 0 : index
// CHECK-NEXT:      %[[VAT:.*]] = arith.addi %[[VBASE]], %[[#SLOT]] : index
// CHECK-NEXT:      %[[VALUE:.*]] = memref.load %[[VALUES]][%[[ROW]], %[[VAT]]] : memref<32x32xf32>
// CHECK-NEXT:      %[[#LANE:]] = arith.constant 0 : index
// CHECK-NEXT:      %[[PART:.*]] = vector.load %[[PACKED]][%{{.*}}, %[[BROW]], %[[#LANE]]] : memref<?x?x32xf32>, vector<8xf32>
// CHECK:           %[[SPLAT:.*]] = vector.broadcast %[[VALUE]] : f32 to vector<8xf32>
// CHECK-NEXT:      vector.fma %[[SPLAT]], %[[PART]], %{{.*}} : vector<8xf32>
// CHECK:           scf.reduce
// CHECK:           memref.dealloc %[[PACKED]] : memref<?x?x32xf32>
// CHECK-NEXT:    } else {
// CHECK:           func.call @xsparse_runtime_error(%{{.*}}) : (index) -> ()
// CHECK-NEXT:    }
// CHECK-NEXT:    %[[RESULT:.*]] = bufferization.to_tensor %[[C]] : memref<32x16xf32> to tensor<32x16xf32>
// CHECK-NEXT:    func.return %[[RESULT]] : tensor<32x16xf32>

// -----

// SpMV as a linalg.generic, K not a multiple of 16 (nor of 4): the values
// have 2 * ceil(K/4) columns, the metadata ceil(K/16). The dense argument
// and the dense function stay as they are.

#NV_24 = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4]), crdWidth = 8 }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}
func.func @spmv(%x: tensor<18xf64>, %a: tensor<7x18xf64, #NV_24>, %y: tensor<7xf64>) -> tensor<7xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<7x18xf64, #NV_24>, tensor<18xf64>) outs(%y : tensor<7xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %xv, %av : f64
    %s = arith.addf %m, %yv : f64
    linalg.yield %s : f64
  } -> tensor<7xf64>
  return %0 : tensor<7xf64>
}
func.func @dense(%a: tensor<4xf64>) -> tensor<4xf64> {
  return %a : tensor<4xf64>
}

// CHECK-LABEL: func.func @spmv(%x: tensor<18xf64>, %a_values: tensor<7x10xf64>, %a_metadata: tensor<7x2xi16>, %y: tensor<7xf64>) -> tensor<7xf64> {
// CHECK:         scf.parallel
// CHECK:           %[[ACC:.*]] = memref.load %{{.*}}[%[[ROW:.*]]] : memref<7xf64>
// CHECK:           memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<7x2xi16>
// CHECK:           %[[VALUE:.*]] = memref.load %{{.*}}[%[[ROW]], %{{.*}}] : memref<7x10xf64>
// CHECK-NEXT:      %[[X:.*]] = memref.load %{{.*}}[%{{.*}}] : memref<18xf64>
// CHECK-NEXT:      %[[PRODUCT:.*]] = arith.mulf %[[VALUE]], %[[X]] : f64
// CHECK-NEXT:      arith.addf %{{.*}}, %[[PRODUCT]] : f64
// The blocks after the last whole word: rows of x clamped to its end.
// CHECK:           arith.minui
// CHECK:           scf.reduce
// CHECK:       func.func @dense(%a: tensor<4xf64>) -> tensor<4xf64> {
// CHECK-NEXT:    func.return %a : tensor<4xf64>
