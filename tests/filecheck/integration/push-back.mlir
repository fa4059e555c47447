// sparse_tensor.push_back on memrefs: the capacity doubles until the new
// size fits (unless `inbounds`), `n` copies of the value are appended, and
// the new size comes back. The source run, the lowered module run and
// mlir-opt-22 | mlir-runner-22 print the same.
// RUN: xsparse-run %s > %t.source
// RUN: xsparse-opt --sparsifier %s | xsparse-run -e main -entry-point-result=void > %t.pipe
// RUN: diff %t.source %t.pipe
// RUN: filecheck --strict-whitespace %s < %t.source
// RUN: %if mlir-runner %{ %mlir-opt --sparsifier="enable-runtime-library=false" %s | %mlir-runner -e main -entry-point-result=void -shared-libs=%mlir-c-runner-utils,%mlir-runner-utils > %t.mlir && diff %t.mlir %t.source %}

func.func @main() {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %x = arith.constant 0.5 : f64
  %y = arith.constant -3.0 : f64
  %pad = arith.constant 0.0 : f64

  // Capacity 3: one value fits in place, six more take 3 -> 6 -> 12.
  %b0 = memref.alloc(%c3) : memref<?xf64>
  %b1, %n1 = sparse_tensor.push_back %c0, %b0, %x : index, memref<?xf64>, f64
  %cap1 = memref.dim %b1, %c0 : memref<?xf64>
  vector.print %cap1 : index
  %b2, %n2 = sparse_tensor.push_back %n1, %b1, %y, %c6 : index, memref<?xf64>, f64, index
  %cap2 = memref.dim %b2, %c0 : memref<?xf64>
  vector.print %cap2 : index
  vector.print %n2 : index
  // inbounds: no growth check, the value lands at position 7.
  %b3, %n3 = sparse_tensor.push_back inbounds %n2, %b2, %x : index, memref<?xf64>, f64
  vector.print %n3 : index
  %v = vector.transfer_read %b3[%c0], %pad : memref<?xf64>, vector<8xf64>
  vector.print %v : vector<8xf64>

  // Coordinates in an index buffer.
  %i0 = memref.alloc(%c2) : memref<?xindex>
  %i1, %m1 = sparse_tensor.push_back %c2, %i0, %c5, %c3 : index, memref<?xindex>, index, index
  %cap3 = memref.dim %i1, %c0 : memref<?xindex>
  vector.print %cap3 : index
  vector.print %m1 : index
  %last = memref.load %i1[%c2] : memref<?xindex>
  vector.print %last : index

  memref.dealloc %b3 : memref<?xf64>
  memref.dealloc %i1 : memref<?xindex>
  return
}

// CHECK:      3
// CHECK-NEXT: 12
// CHECK-NEXT: 7
// CHECK-NEXT: 8
// CHECK-NEXT: ( 0.5, -3, -3, -3, -3, -3, -3, 0.5 )
// CHECK-NEXT: 8
// CHECK-NEXT: 5
// CHECK-NEXT: 5
