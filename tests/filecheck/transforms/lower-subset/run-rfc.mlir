// RUN: xsparse-run %s | filecheck %s

// The RFC's buffer examples, run: `gather copy` and `gather view` of columns 3
// and 1 of a 4x4 matrix (m[i][j] = 4i + j), then a concat of two slices.

func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %input = memref.alloc() : memref<4x4xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %r = arith.muli %i, %c4 : index
      %l = arith.addi %r, %j : index
      %li = arith.index_cast %l : index to i32
      %f = arith.sitofp %li : i32 to f32
      memref.store %f, %input[%i, %j] : memref<4x4xf32>
    }
  }
  %indices = memref.alloc(%c2) : memref<?x1xindex>
  memref.store %c3, %indices[%c0, %c0] : memref<?x1xindex>
  memref.store %c1, %indices[%c1, %c0] : memref<?x1xindex>

  %out = subset.gather copy(%input[%indices]) coordinates = [1] :
    memref<4x4xf32>[memref<?x1xindex>] -> memref<?x4xf32>
  scf.for %b = %c0 to %c2 step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %x = memref.load %out[%b, %k] : memref<?x4xf32>
      vector.print %x : f32
    }
  }
  // CHECK-COUNT-8: {{[0-9]+}}

  %view = subset.gather view(%input[%indices]) coordinates = [1] :
    memref<4x4xf32>[memref<?x1xindex>] -> memref<? x memref<4xf32>>
  %n = jagged.dim %view, 0 : !jagged.buffer<?xmemref<4xf32>>
  scf.for %b = %c0 to %n step %c1 {
    scf.for %k = %c0 to %c4 step %c1 {
      %x = jagged.load %view[%b][%k] : !jagged.buffer<?xmemref<4xf32>>
      vector.print %x : f32
    }
  }
  jagged.dealloc %view : !jagged.buffer<?xmemref<4xf32>>

  %left = memref.subview %input[0, 0] [4, 1] [1, 1] : memref<4x4xf32> to memref<4x1xf32, strided<[4, 1]>>
  %right = memref.subview %input[0, 2] [4, 2] [1, 1] : memref<4x4xf32> to memref<4x2xf32, strided<[4, 1], offset: 2>>
  %cat = subset.concat %left and %right along dimension = 1 :
    memref<4x1xf32, strided<[4, 1]>> and memref<4x2xf32, strided<[4, 1], offset: 2>> into memref<4x3xf32>
  scf.for %i = %c0 to %c4 step %c1 {
    scf.for %j = %c0 to %c3 step %c1 {
      %x = memref.load %cat[%i, %j] : memref<4x3xf32>
      vector.print %x : f32
    }
  }
  memref.dealloc %cat : memref<4x3xf32>
  memref.dealloc %out : memref<?x4xf32>
  memref.dealloc %indices : memref<?x1xindex>
  memref.dealloc %input : memref<4x4xf32>
  return
}

// CHECK: 3
// CHECK-NEXT: 7
// CHECK-NEXT: 11
// CHECK-NEXT: 15
// CHECK-NEXT: 1
// CHECK-NEXT: 5
// CHECK-NEXT: 9
// CHECK-NEXT: 13
// CHECK-NEXT: 0
// CHECK-NEXT: 2
// CHECK-NEXT: 3
// CHECK-NEXT: 4
