// CSR SpMV at the memref level (the calling convention of sparse-tensor-codegen):
// y += A x with A's positions, coordinates and values.
func.func @spmv(%pos: memref<?xindex>, %crd: memref<?xindex>, %val: memref<?xf64>,
                %x: memref<?xf64>, %y: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = memref.dim %y, %c0 : memref<?xf64>
  scf.for %i = %c0 to %n step %c1 {
    %lo = memref.load %pos[%i] : memref<?xindex>
    %i1 = arith.addi %i, %c1 : index
    %hi = memref.load %pos[%i1] : memref<?xindex>
    %init = memref.load %y[%i] : memref<?xf64>
    %s = scf.for %j = %lo to %hi step %c1 iter_args(%acc = %init) -> (f64) {
      %c = memref.load %crd[%j] : memref<?xindex>
      %a = memref.load %val[%j] : memref<?xf64>
      %b = memref.load %x[%c] : memref<?xf64>
      %m = arith.mulf %a, %b : f64
      %r = arith.addf %acc, %m : f64
      scf.yield %r : f64
    }
    memref.store %s, %y[%i] : memref<?xf64>
  }
  return
}
