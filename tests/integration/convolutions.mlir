// MLIR's named convolution, pooling and dot ops on sparse operands, as MLIR's
// sparse integration tests write them: a sparse image is indexed by compound
// expressions (`oh * s + kh * d` on a compressed level), located by search; a
// sparse filter drives its loops; a zero tensor.pad of a sparse image folds
// into the kernel (a dense one is a padded copy); tensor.generate and
// tensor.insert build dense operands.
// Dense results are printed through an all-dense encoding.

#CSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed, d1 : compressed) }>
#DD = #sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : dense) }>
#DCD = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : compressed, d2 : dense) }>
#DDD = #sparse_tensor.encoding<{ map = (d0, d1, d2) -> (d0 : dense, d1 : dense, d2 : dense) }>
#COO4 = #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : compressed(nonunique), d1 : singleton(nonunique), d2 : singleton(nonunique), d3 : singleton) }>
#D4 = #sparse_tensor.encoding<{ map = (d0, d1, d2, d3) -> (d0 : dense, d1 : dense, d2 : dense, d3 : dense) }>
#SV = #sparse_tensor.encoding<{ map = (d0) -> (d0 : compressed) }>

module {
  // A CSR image: its column index `ow + kw` is on a compressed level.
  func.func @conv2d_csr_image(%img: tensor<6x6xi32, #CSR>, %filt: tensor<3x3xi32>,
                              %out: tensor<4x4xi32>) -> tensor<4x4xi32> {
    %0 = linalg.conv_2d ins(%img, %filt : tensor<6x6xi32, #CSR>, tensor<3x3xi32>)
                        outs(%out : tensor<4x4xi32>) -> tensor<4x4xi32>
    return %0 : tensor<4x4xi32>
  }

  // Image and filter sparse, the result built by insertion.
  func.func @conv2d_dual(%img: tensor<6x6xi32, #DCSR>, %filt: tensor<3x3xi32, #DCSR>)
      -> tensor<4x4xi32, #DCSR> {
    %s = tensor.empty() : tensor<4x4xi32, #DCSR>
    %0 = linalg.conv_2d ins(%img, %filt : tensor<6x6xi32, #DCSR>, tensor<3x3xi32, #DCSR>)
                        outs(%s : tensor<4x4xi32, #DCSR>) -> tensor<4x4xi32, #DCSR>
    return %0 : tensor<4x4xi32, #DCSR>
  }

  // NWC with the width compressed, stride 2.
  func.func @conv1d_nwc(%img: tensor<1x7x2xf64, #DCD>, %filt: tensor<2x2x2xf64>,
                        %out: tensor<1x3x2xf64>) -> tensor<1x3x2xf64> {
    %0 = linalg.conv_1d_nwc_wcf {dilations = dense<1> : tensor<1xi64>, strides = dense<2> : tensor<1xi64>}
      ins(%img, %filt : tensor<1x7x2xf64, #DCD>, tensor<2x2x2xf64>)
      outs(%out : tensor<1x3x2xf64>) -> tensor<1x3x2xf64>
    return %0 : tensor<1x3x2xf64>
  }

  // A COO image, dilation 2.
  func.func @conv2d_nhwc_coo(%img: tensor<1x5x5x1xf64, #COO4>, %filt: tensor<2x2x1x1xf64>,
                             %out: tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64> {
    %0 = linalg.conv_2d_nhwc_hwcf {dilations = dense<2> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
      ins(%img, %filt : tensor<1x5x5x1xf64, #COO4>, tensor<2x2x1x1xf64>)
      outs(%out : tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64>
    return %0 : tensor<1x3x3x1xf64>
  }

  func.func @pool_sum(%img: tensor<1x4x4x1xf64, #COO4>, %window: tensor<2x2xf64>,
                      %out: tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64> {
    %0 = linalg.pooling_nhwc_sum ins(%img, %window : tensor<1x4x4x1xf64, #COO4>, tensor<2x2xf64>)
      outs(%out : tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64>
    return %0 : tensor<1x3x3x1xf64>
  }

  // Zero padding of a sparse image, folded into the kernel; of a dense one.
  func.func @conv2d_padded(%img: tensor<3x3xf64, #CSR>, %dense: tensor<3x3xf64>,
                           %filt: tensor<2x2xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>) {
    %zero = arith.constant 0.0 : f64
    %p = tensor.pad %img low[1, 1] high[1, 1] {
    ^bb0(%i: index, %j: index):
      tensor.yield %zero : f64
    } : tensor<3x3xf64, #CSR> to tensor<5x5xf64, #CSR>
    %init = tensor.empty() : tensor<4x4xf64>
    %out = linalg.fill ins(%zero : f64) outs(%init : tensor<4x4xf64>) -> tensor<4x4xf64>
    %0 = linalg.conv_2d ins(%p, %filt : tensor<5x5xf64, #CSR>, tensor<2x2xf64>)
                        outs(%out : tensor<4x4xf64>) -> tensor<4x4xf64>
    %q = tensor.pad %dense low[2, 0] high[0, 2] {
    ^bb0(%i: index, %j: index):
      tensor.yield %zero : f64
    } : tensor<3x3xf64> to tensor<5x5xf64>
    %1 = linalg.conv_2d ins(%q, %filt : tensor<5x5xf64>, tensor<2x2xf64>)
                        outs(%out : tensor<4x4xf64>) -> tensor<4x4xf64>
    return %0, %1 : tensor<4x4xf64>, tensor<4x4xf64>
  }

  func.func @dot(%a: tensor<8xf64, #SV>, %b: tensor<8xf64>, %s: tensor<f64>) -> tensor<f64> {
    %0 = linalg.dot ins(%a, %b : tensor<8xf64, #SV>, tensor<8xf64>) outs(%s : tensor<f64>) -> tensor<f64>
    return %0 : tensor<f64>
  }

  func.func @main() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %image = arith.constant dense<[
      [ 1, 2, 0, 0, 0, 3 ],
      [ 0, 0, 0, 4, 0, 0 ],
      [ 5, 0, 0, 0, 6, 0 ],
      [ 0, 7, 0, 0, 0, 0 ],
      [ 0, 0, 8, 0, 0, 9 ],
      [ 1, 0, 0, 2, 0, 0 ]
    ]> : tensor<6x6xi32>
    %filter = arith.constant dense<[[ 1, 0, -1 ], [ 0, 2, 0 ], [ 3, 0, 0 ]]> : tensor<3x3xi32>
    %zero = arith.constant dense<0> : tensor<4x4xi32>

    %csr = sparse_tensor.convert %image : tensor<6x6xi32> to tensor<6x6xi32, #CSR>
    %0 = call @conv2d_csr_image(%csr, %filter, %zero)
      : (tensor<6x6xi32, #CSR>, tensor<3x3xi32>, tensor<4x4xi32>) -> tensor<4x4xi32>
    %p0 = sparse_tensor.convert %0 : tensor<4x4xi32> to tensor<4x4xi32, #DD>
    sparse_tensor.print %p0 : tensor<4x4xi32, #DD>

    %dimg = sparse_tensor.convert %image : tensor<6x6xi32> to tensor<6x6xi32, #DCSR>
    %dfilt = sparse_tensor.convert %filter : tensor<3x3xi32> to tensor<3x3xi32, #DCSR>
    %1 = call @conv2d_dual(%dimg, %dfilt)
      : (tensor<6x6xi32, #DCSR>, tensor<3x3xi32, #DCSR>) -> tensor<4x4xi32, #DCSR>
    sparse_tensor.print %1 : tensor<4x4xi32, #DCSR>

    // The image of the 1-D convolution: (w + 1) * (c + 1) where w is even.
    %c2 = arith.constant 2 : index
    %gen = tensor.generate {
    ^bb0(%n: index, %w: index, %c: index):
      %r = arith.remui %w, %c2 : index
      %even = arith.cmpi eq, %r, %c0 : index
      %w1 = arith.addi %w, %c1 : index
      %ch1 = arith.addi %c, %c1 : index
      %m = arith.muli %w1, %ch1 : index
      %i = arith.index_cast %m : index to i64
      %f = arith.sitofp %i : i64 to f64
      %z = arith.constant 0.0 : f64
      %v = arith.select %even, %f, %z : f64
      tensor.yield %v : f64
    } : tensor<1x7x2xf64>
    %img1 = sparse_tensor.convert %gen : tensor<1x7x2xf64> to tensor<1x7x2xf64, #DCD>
    %filt1 = arith.constant dense<[[[1.0, 0.5], [0.0, -1.0]], [[2.0, 0.0], [0.25, 1.0]]]> : tensor<2x2x2xf64>
    %out1 = arith.constant dense<1.0> : tensor<1x3x2xf64>
    %2 = call @conv1d_nwc(%img1, %filt1, %out1)
      : (tensor<1x7x2xf64, #DCD>, tensor<2x2x2xf64>, tensor<1x3x2xf64>) -> tensor<1x3x2xf64>
    %p2 = sparse_tensor.convert %2 : tensor<1x3x2xf64> to tensor<1x3x2xf64, #DDD>
    sparse_tensor.print %p2 : tensor<1x3x2xf64, #DDD>

    %img2d = arith.constant dense<[[
      [[1.0], [0.0], [2.0], [0.0], [0.0]],
      [[0.0], [0.0], [0.0], [3.0], [0.0]],
      [[4.0], [0.0], [0.0], [0.0], [5.0]],
      [[0.0], [0.0], [6.0], [0.0], [0.0]],
      [[0.0], [7.0], [0.0], [0.0], [8.0]]
    ]]> : tensor<1x5x5x1xf64>
    %coo = sparse_tensor.convert %img2d : tensor<1x5x5x1xf64> to tensor<1x5x5x1xf64, #COO4>
    %filt2 = arith.constant dense<[[[[1.0]], [[-1.0]]], [[[0.5]], [[2.0]]]]> : tensor<2x2x1x1xf64>
    %out2 = arith.constant dense<0.0> : tensor<1x3x3x1xf64>
    %3 = call @conv2d_nhwc_coo(%coo, %filt2, %out2)
      : (tensor<1x5x5x1xf64, #COO4>, tensor<2x2x1x1xf64>, tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64>
    %p3 = sparse_tensor.convert %3 : tensor<1x3x3x1xf64> to tensor<1x3x3x1xf64, #D4>
    sparse_tensor.print %p3 : tensor<1x3x3x1xf64, #D4>

    %img4 = arith.constant dense<[[
      [[1.0], [0.0], [0.0], [2.0]],
      [[0.0], [3.0], [0.0], [0.0]],
      [[0.0], [0.0], [0.0], [4.0]],
      [[5.0], [0.0], [6.0], [0.0]]
    ]]> : tensor<1x4x4x1xf64>
    %coo4 = sparse_tensor.convert %img4 : tensor<1x4x4x1xf64> to tensor<1x4x4x1xf64, #COO4>
    %window = tensor.empty() : tensor<2x2xf64>
    %4 = call @pool_sum(%coo4, %window, %out2)
      : (tensor<1x4x4x1xf64, #COO4>, tensor<2x2xf64>, tensor<1x3x3x1xf64>) -> tensor<1x3x3x1xf64>
    %p4 = sparse_tensor.convert %4 : tensor<1x3x3x1xf64> to tensor<1x3x3x1xf64, #D4>
    sparse_tensor.print %p4 : tensor<1x3x3x1xf64, #D4>

    %small = arith.constant dense<[[1.0, 0.0, 2.0], [0.0, 0.0, 3.0], [4.0, 0.0, 0.0]]> : tensor<3x3xf64>
    %c2i = arith.constant 2 : index
    %seven = arith.constant 7.0 : f64
    %small2 = tensor.insert %seven into %small[%c1, %c1] : tensor<3x3xf64>
    %scsr = sparse_tensor.convert %small2 : tensor<3x3xf64> to tensor<3x3xf64, #CSR>
    %pf = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
    %6:2 = call @conv2d_padded(%scsr, %small2, %pf)
      : (tensor<3x3xf64, #CSR>, tensor<3x3xf64>, tensor<2x2xf64>) -> (tensor<4x4xf64>, tensor<4x4xf64>)
    %p6 = sparse_tensor.convert %6#0 : tensor<4x4xf64> to tensor<4x4xf64, #DD>
    sparse_tensor.print %p6 : tensor<4x4xf64, #DD>
    %p7 = sparse_tensor.convert %6#1 : tensor<4x4xf64> to tensor<4x4xf64, #DD>
    sparse_tensor.print %p7 : tensor<4x4xf64, #DD>
    %old = tensor.extract %small[%c1, %c1] : tensor<3x3xf64>
    vector.print %old : f64

    %va = arith.constant dense<[1.0, 0.0, 2.0, 0.0, 0.0, 3.0, 0.0, 4.0]> : tensor<8xf64>
    %sa = sparse_tensor.convert %va : tensor<8xf64> to tensor<8xf64, #SV>
    %vb = arith.constant dense<[0.5, 5.0, 6.0, 0.0, 1.0, 0.25, 0.0, -1.0]> : tensor<8xf64>
    %init = arith.constant dense<0.5> : tensor<f64>
    %5 = call @dot(%sa, %vb, %init) : (tensor<8xf64, #SV>, tensor<8xf64>, tensor<f64>) -> tensor<f64>
    %d = tensor.extract %5[] : tensor<f64>
    vector.print %d : f64
    return
  }
}


// CHECK: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 16
// CHECK-NEXT: dim = ( 4, 4 )
// CHECK-NEXT: lvl = ( 4, 4 )
// CHECK-NEXT: values : ( 16, 2, 8, -3, 0, 17, 0, 16, 19, 0, 18, 0, 3, 23, 0, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 16
// CHECK-NEXT: dim = ( 4, 4 )
// CHECK-NEXT: lvl = ( 4, 4 )
// CHECK-NEXT: pos[0] : ( 0, 4 )
// CHECK-NEXT: crd[0] : ( 0, 1, 2, 3 )
// CHECK-NEXT: pos[1] : ( 0, 4, 8, 12, 16 )
// CHECK-NEXT: crd[1] : ( 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3 )
// CHECK-NEXT: values : ( 16, 2, 8, -3, 0, 17, 0, 16, 19, 0, 18, 0, 3, 23, 0, 6 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 6
// CHECK-NEXT: dim = ( 1, 3, 2 )
// CHECK-NEXT: lvl = ( 1, 3, 2 )
// CHECK-NEXT: values : ( 2, -0.5, 4, -3.5, 6, -6.5 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 9
// CHECK-NEXT: dim = ( 1, 3, 3, 1 )
// CHECK-NEXT: lvl = ( 1, 3, 3, 1 )
// CHECK-NEXT: values : ( 1, 0, 12, 12, -3, 3, 4, 3.5, 11 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 9
// CHECK-NEXT: dim = ( 1, 3, 3, 1 )
// CHECK-NEXT: lvl = ( 1, 3, 3, 1 )
// CHECK-NEXT: values : ( 4, 3, 2, 3, 3, 4, 5, 6, 10 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 16
// CHECK-NEXT: dim = ( 4, 4 )
// CHECK-NEXT: lvl = ( 4, 4 )
// CHECK-NEXT: values : ( 4, 3, 8, 6, 2, 29, 37, 11, 16, 26, 13, 3, 8, 4, 0, 0 )
// CHECK-NEXT: ----
// CHECK-NEXT: ---- Sparse Tensor ----
// CHECK-NEXT: nse = 16
// CHECK-NEXT: dim = ( 4, 4 )
// CHECK-NEXT: lvl = ( 4, 4 )
// CHECK-NEXT: values : ( 0, 0, 0, 0, 3, 8, 6, 0, 29, 37, 11, 0, 26, 13, 3, 0 )
// CHECK-NEXT: ----
// CHECK-NEXT: 0
// CHECK-NEXT: 9.75
