// One dense matrix (and a 3-d tensor) converted to every storage format and
// printed with sparse_tensor.print; buffers read with sparse_tensor.values /
// positions / coordinates; sparse tensors passed to and returned from calls.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#CSC = #sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>
#DCSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : compressed, j : compressed), posWidth = 32, crdWidth = 16
}>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#COO_SOA = #sparse_tensor.encoding<{
  map = (i, j) -> (i : compressed(nonunique), j : singleton(soa)), crdWidth = 8
}>
#BSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i floordiv 2 : dense, j floordiv 2 : compressed,
                   i mod 2 : dense, j mod 2 : dense)
}>
#CSF = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : compressed, j : compressed, k : compressed) }>
#COO3 = #sparse_tensor.encoding<{
  map = (i, j, k) -> (i : compressed(nonunique), j : singleton(nonunique), k : singleton)
}>
#DCC = #sparse_tensor.encoding<{ map = (i, j, k) -> (i : dense, j : compressed(nonunique), k : singleton) }>

module {
  // Returns its first argument: sparse tensors cross function boundaries.
  func.func @first(%a: tensor<4x6xi32, #CSC>, %b: tensor<4x6xi32, #CSR>)
      -> tensor<4x6xi32, #CSC> {
    return %a : tensor<4x6xi32, #CSC>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %pad = arith.constant -1.0 : f64
    %ipad = arith.constant 99 : index
    %m = arith.constant dense<[[0.0, 1.5, 0.0, 0.0, 0.0, 2.0],
                               [0.0, 0.0, 0.0, 0.0, 0.0, 0.0],
                               [3.0, 0.0, 0.0, 4.0, 0.0, 0.0],
                               [0.0, 0.0, 5.0, 0.0, 0.0, 6.0]]> : tensor<4x6xf64>

    %csr = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #CSR>
    sparse_tensor.print %csr : tensor<4x6xf64, #CSR>
    %csc = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #CSC>
    sparse_tensor.print %csc : tensor<4x6xf64, #CSC>
    %dcsr = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<?x?xf64, #DCSR>
    sparse_tensor.print %dcsr : tensor<?x?xf64, #DCSR>
    %coo = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #COO>
    sparse_tensor.print %coo : tensor<4x6xf64, #COO>
    %soa = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #COO_SOA>
    sparse_tensor.print %soa : tensor<4x6xf64, #COO_SOA>
    %bsr = sparse_tensor.convert %m : tensor<4x6xf64> to tensor<4x6xf64, #BSR>
    sparse_tensor.print %bsr : tensor<4x6xf64, #BSR>

    // The buffers themselves.
    %values = sparse_tensor.values %csr : tensor<4x6xf64, #CSR> to memref<?xf64>
    %vv = vector.transfer_read %values[%c0], %pad : memref<?xf64>, vector<8xf64>
    vector.print %vv : vector<8xf64>
    %pos = sparse_tensor.positions %csr { level = 1 : index } : tensor<4x6xf64, #CSR> to memref<?xindex>
    %pv = vector.transfer_read %pos[%c0], %ipad : memref<?xindex>, vector<6xindex>
    vector.print %pv : vector<6xindex>
    %crd = sparse_tensor.coordinates %csc { level = 1 : index } : tensor<4x6xf64, #CSC> to memref<?xindex>
    %cv = vector.transfer_read %crd[%c0], %ipad : memref<?xindex>, vector<6xindex>
    vector.print %cv : vector<6xindex>
    %n = sparse_tensor.number_of_entries %bsr : tensor<4x6xf64, #BSR>
    vector.print %n : index

    // Back to dense from BSR and from COO.
    %back = sparse_tensor.convert %bsr : tensor<4x6xf64, #BSR> to tensor<4x6xf64>
    %row2 = vector.transfer_read %back[%c2, %c0], %pad : tensor<4x6xf64>, vector<6xf64>
    vector.print %row2 : vector<6xf64>
    %back2 = sparse_tensor.convert %coo : tensor<4x6xf64, #COO> to tensor<4x6xf64>
    %e = tensor.extract %back2[%c0, %c1] : tensor<4x6xf64>
    vector.print %e : f64

    // Integer values through a call.
    %mi = arith.constant dense<[[0, 1, 0, 0, 0, 2],
                                [0, 0, 0, 0, 0, 0],
                                [3, 0, 0, 4, 0, 0],
                                [0, 0, 5, 0, 0, -6]]> : tensor<4x6xi32>
    %ci = sparse_tensor.convert %mi : tensor<4x6xi32> to tensor<4x6xi32, #CSC>
    %ri = sparse_tensor.convert %mi : tensor<4x6xi32> to tensor<4x6xi32, #CSR>
    %fi = call @first(%ci, %ri)
      : (tensor<4x6xi32, #CSC>, tensor<4x6xi32, #CSR>) -> tensor<4x6xi32, #CSC>
    sparse_tensor.print %fi : tensor<4x6xi32, #CSC>

    // A 3-d tensor with f32 values.
    %t = arith.constant dense<[[[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]],
                               [[0.0, 0.0, 0.0], [0.0, 0.0, 0.0]],
                               [[0.0, 3.0, 4.0], [5.0, 0.0, 0.0]]]> : tensor<3x2x3xf32>
    %csf = sparse_tensor.convert %t : tensor<3x2x3xf32> to tensor<3x2x3xf32, #CSF>
    sparse_tensor.print %csf : tensor<3x2x3xf32, #CSF>
    %coo3 = sparse_tensor.convert %t : tensor<3x2x3xf32> to tensor<3x2x3xf32, #COO3>
    sparse_tensor.print %coo3 : tensor<3x2x3xf32, #COO3>
    %dcc = sparse_tensor.convert %t : tensor<3x2x3xf32> to tensor<3x2x3xf32, #DCC>
    sparse_tensor.print %dcc : tensor<3x2x3xf32, #DCC>

    // An all-zero matrix.
    %z = arith.constant dense<0.0> : tensor<2x3xf64>
    %zs = sparse_tensor.convert %z : tensor<2x3xf64> to tensor<2x3xf64, #DCSR>
    sparse_tensor.print %zs : tensor<2x3xf64, #DCSR>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 5, 0, 3, 2, 5 )
// CHECK-NEXT: values : ( 1.5, 2, 3, 4, 5, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 3, 4, 4, 6 )
// CHECK-NEXT: crd[1] : ( 2, 0, 3, 2, 0, 3 )
// CHECK-NEXT: values : ( 3, 1.5, 5, 4, 2, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 4, 6 )
// CHECK-NEXT: crd[1] : ( 1, 5, 0, 3, 2, 5 )
// CHECK-NEXT: values : ( 1.5, 2, 3, 4, 5, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 1, 0, 5, 2, 0, 2, 3, 3, 2, 3, 5 )
// CHECK-NEXT: values : ( 1.5, 2, 3, 4, 5, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 4, 6 )
// CHECK-NEXT: pos[0] : ( 0, 6 )
// CHECK-NEXT: crd[0] : ( 0, 0, 2, 2, 3, 3 )
// CHECK-NEXT: crd[1] : ( 1, 5, 0, 3, 2, 5 )
// CHECK-NEXT: values : ( 1.5, 2, 3, 4, 5, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 20
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 2, 3, 2, 2 )
// CHECK-NEXT: pos[1] : ( 0, 2, 5 )
// CHECK-NEXT: crd[1] : ( 0, 2, 0, 1, 2 )
// CHECK-NEXT: values : ( 0, 1.5, 0, 0, 0, 2, 0, 0, 3, 0, 0, 0, 0, 4, 5, 0, 0, 0, 0, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 1.5, 2, 3, 4, 5, 6, -1, -1 )
// CHECK-NEXT: ( 0, 2, 2, 4, 6, 99 )
// CHECK-NEXT: ( 2, 0, 3, 2, 0, 3 )
// CHECK-NEXT: 20
// CHECK-NEXT: ( 3, 0, 0, 4, 0, 0 )
// CHECK-NEXT: 1.5
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 4, 6 )
// CHECK-NEXT: lvl = ( 6, 4 )
// CHECK-NEXT: pos[1] : ( 0, 1, 2, 3, 4, 4, 6 )
// CHECK-NEXT: crd[1] : ( 2, 0, 3, 2, 0, 3 )
// CHECK-NEXT: values : ( 3, 1, 5, 4, 2, -6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 5
// CHECK-NEXT: dim = ( 3, 2, 3 )
// CHECK-NEXT: lvl = ( 3, 2, 3 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 0, 2 )
// CHECK-NEXT: pos[1] : ( 0, 2, 4 )
// CHECK-NEXT: crd[1] : ( 0, 1, 0, 1 )
// CHECK-NEXT: pos[2] : ( 0, 1, 2, 4, 5 )
// CHECK-NEXT: crd[2] : ( 0, 2, 1, 2, 0 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 5 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 5
// CHECK-NEXT: dim = ( 3, 2, 3 )
// CHECK-NEXT: lvl = ( 3, 2, 3 )
// CHECK-NEXT: pos[0] : ( 0, 5 )
// CHECK-NEXT: crd[0] : ( 0, 0, 0, 0, 1, 2, 2, 0, 1, 2, 0, 2, 2, 1, 0 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 5 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 5
// CHECK-NEXT: dim = ( 3, 2, 3 )
// CHECK-NEXT: lvl = ( 3, 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 5 )
// CHECK-NEXT: crd[1] : ( 0, 0, 1, 2, 0, 1, 0, 2, 1, 0 )
// CHECK-NEXT: values : ( 1, 2, 3, 4, 5 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 0
// CHECK-NEXT: dim = ( 2, 3 )
// CHECK-NEXT: lvl = ( 2, 3 )
// CHECK-NEXT: pos[0] : ( 0, 0 )
// CHECK-NEXT: crd[0] : (  )
// CHECK-NEXT: pos[1] : ( 0 )
// CHECK-NEXT: crd[1] : (  )
// CHECK-NEXT: values : (  )
// CHECK-NEXT: ----
