// sparse_tensor.assemble / disassemble: CSR with 32-bit overheads and a values
// buffer longer than what the positions use, an array-of-structs COO, a DCSR
// built from disassembled buffers (a round trip), and an SpMV on an assembled
// tensor. Disassembled buffers come back with their used lengths.

#CSR = #sparse_tensor.encoding<{
  map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32
}>
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

#spmv = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                   affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}

module {
  func.func @spmv(%a: tensor<3x4xf64, #CSR>, %x: tensor<4xf64>, %y: tensor<3xf64>) -> tensor<3xf64> {
    %0 = linalg.generic #spmv ins(%a, %x : tensor<3x4xf64, #CSR>, tensor<4xf64>) outs(%y : tensor<3xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %m = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %m : f64
      linalg.yield %s : f64
    } -> tensor<3xf64>
    return %0 : tensor<3xf64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %f0 = arith.constant 0.0 : f64
    %i0 = arith.constant 0 : i32

    // CSR: 3 entries used, the values buffer has 5.
    %pos = arith.constant dense<[0, 2, 2, 3]> : tensor<4xi32>
    %crd = arith.constant dense<[1, 3, 0]> : tensor<3xi32>
    %val = arith.constant dense<[1.0, 2.0, 3.0, 7.0, 8.0]> : tensor<5xf64>
    %a = sparse_tensor.assemble (%pos, %crd), %val
       : (tensor<4xi32>, tensor<3xi32>), tensor<5xf64> to tensor<3x4xf64, #CSR>
    sparse_tensor.print %a : tensor<3x4xf64, #CSR>

    %x = arith.constant dense<[1.0, 10.0, 100.0, 1000.0]> : tensor<4xf64>
    %y0 = tensor.empty() : tensor<3xf64>
    %y1 = linalg.fill ins(%f0 : f64) outs(%y0 : tensor<3xf64>) -> tensor<3xf64>
    %y = call @spmv(%a, %x, %y1) : (tensor<3x4xf64, #CSR>, tensor<4xf64>, tensor<3xf64>) -> tensor<3xf64>
    %vy = vector.transfer_read %y[%c0], %f0 : tensor<3xf64>, vector<3xf64>
    vector.print %vy : vector<3xf64>

    // Disassembled into larger buffers: the used lengths come back (what lies
    // beyond them is unspecified).
    %op = tensor.empty() : tensor<6xi32>
    %oi = tensor.empty() : tensor<5xi32>
    %od = tensor.empty() : tensor<4xf64>
    %rp, %ri, %rd, %lp, %li, %ld = sparse_tensor.disassemble %a : tensor<3x4xf64, #CSR>
        out_lvls(%op, %oi : tensor<6xi32>, tensor<5xi32>) out_vals(%od : tensor<4xf64>)
        -> (tensor<6xi32>, tensor<5xi32>), tensor<4xf64>, (i32, i64), index
    vector.print %lp : i32
    vector.print %li : i64
    vector.print %ld : index
    %v1 = vector.transfer_read %rp[%c0], %i0 : tensor<6xi32>, vector<4xi32>
    vector.print %v1 : vector<4xi32>
    %v2 = vector.transfer_read %ri[%c0], %i0 : tensor<5xi32>, vector<3xi32>
    vector.print %v2 : vector<3xi32>
    %v3 = vector.transfer_read %rd[%c0], %f0 : tensor<4xf64>, vector<3xf64>
    vector.print %v3 : vector<3xf64>

    // COO: the coordinates of both levels as one (entries x 2) buffer.
    %cpos = arith.constant dense<[0, 3]> : tensor<2xindex>
    %ccrd = arith.constant dense<[[0, 1], [2, 2], [2, 3]]> : tensor<3x2xindex>
    %cval = arith.constant dense<[4.0, 5.0, 6.0]> : tensor<3xf64>
    %c = sparse_tensor.assemble (%cpos, %ccrd), %cval
       : (tensor<2xindex>, tensor<3x2xindex>), tensor<3xf64> to tensor<3x4xf64, #COO>
    sparse_tensor.print %c : tensor<3x4xf64, #COO>
    %qp = tensor.empty() : tensor<2xindex>
    %qi = tensor.empty() : tensor<4x2xindex>
    %qd = tensor.empty() : tensor<3xf64>
    %sp, %si, %sd, %mp, %mi, %md = sparse_tensor.disassemble %c : tensor<3x4xf64, #COO>
        out_lvls(%qp, %qi : tensor<2xindex>, tensor<4x2xindex>) out_vals(%qd : tensor<3xf64>)
        -> (tensor<2xindex>, tensor<4x2xindex>), tensor<3xf64>, (index, index), index
    vector.print %mp : index
    vector.print %mi : index
    vector.print %md : index
    %w0 = vector.transfer_read %si[%c0, %c0], %c0 : tensor<4x2xindex>, vector<2xindex>
    vector.print %w0 : vector<2xindex>
    %w1 = vector.transfer_read %si[%c1, %c0], %c0 : tensor<4x2xindex>, vector<2xindex>
    vector.print %w1 : vector<2xindex>
    %w2 = vector.transfer_read %si[%c2, %c0], %c0 : tensor<4x2xindex>, vector<2xindex>
    vector.print %w2 : vector<2xindex>

    // DCSR from buffers that a disassemble produced.
    %d = sparse_tensor.convert %c : tensor<3x4xf64, #COO> to tensor<3x4xf64, #DCSR>
    %dp0 = tensor.empty() : tensor<2xindex>
    %di0 = tensor.empty() : tensor<2xindex>
    %dp1 = tensor.empty() : tensor<3xindex>
    %di1 = tensor.empty() : tensor<3xindex>
    %dv = tensor.empty() : tensor<3xf64>
    %ep0, %ei0, %ep1, %ei1, %ev, %n0, %n1, %n2, %n3, %nv = sparse_tensor.disassemble %d : tensor<3x4xf64, #DCSR>
        out_lvls(%dp0, %di0, %dp1, %di1 : tensor<2xindex>, tensor<2xindex>, tensor<3xindex>, tensor<3xindex>)
        out_vals(%dv : tensor<3xf64>)
        -> (tensor<2xindex>, tensor<2xindex>, tensor<3xindex>, tensor<3xindex>), tensor<3xf64>,
           (index, index, index, index), index
    %e = sparse_tensor.assemble (%ep0, %ei0, %ep1, %ei1), %ev
       : (tensor<2xindex>, tensor<2xindex>, tensor<3xindex>, tensor<3xindex>), tensor<3xf64>
       to tensor<3x4xf64, #DCSR>
    sparse_tensor.print %e : tensor<3x4xf64, #DCSR>
    return
  }
}

// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[1] : ( 0, 2, 2, 3 )
// CHECK-NEXT: crd[1] : ( 1, 3, 0 )
// CHECK-NEXT: values : ( 1, 2, 3 )
// CHECK-NEXT: ----
// CHECK-NEXT: ( 2010, 0, 3 )
// CHECK-NEXT: 4
// CHECK-NEXT: 3
// CHECK-NEXT: 3
// CHECK-NEXT: ( 0, 2, 2, 3 )
// CHECK-NEXT: ( 1, 3, 0 )
// CHECK-NEXT: ( 1, 2, 3 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[0] : ( 0, 3 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2, 2, 2, 3 )
// CHECK-NEXT: values : ( 4, 5, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: 2
// CHECK-NEXT: 6
// CHECK-NEXT: 3
// CHECK-NEXT: ( 0, 1 )
// CHECK-NEXT: ( 2, 2 )
// CHECK-NEXT: ( 2, 3 )
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 3
// CHECK-NEXT: dim = ( 3, 4 )
// CHECK-NEXT: lvl = ( 3, 4 )
// CHECK-NEXT: pos[0] : ( 0, 2 )
// CHECK-NEXT: crd[0] : ( 0, 2 )
// CHECK-NEXT: pos[1] : ( 0, 1, 3 )
// CHECK-NEXT: crd[1] : ( 1, 2, 3 )
// CHECK-NEXT: values : ( 4, 5, 6 )
// CHECK-NEXT: ----
