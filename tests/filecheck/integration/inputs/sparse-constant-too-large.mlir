func.func @main() {
  %c0 = arith.constant 0 : index
  %f0 = arith.constant -1.0 : f64
  %a = arith.constant sparse<[[0, 0], [99999, 99999]], [1.0, 4.0]> : tensor<100000x100000xf64>
  %v = vector.transfer_read %a[%c0, %c0], %f0 : tensor<100000x100000xf64>, vector<4xf64>
  vector.print %v : vector<4xf64>
  return
}
