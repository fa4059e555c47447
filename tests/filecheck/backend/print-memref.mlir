// RUN: xsparse-opt %s -p sparsifier | filecheck %s --check-prefix=LLVM
// RUN: xsparse-run %s > %t.xsparse
// RUN: filecheck %s < %t.xsparse
// RUN: %mlir-opt --sparsifier %s | %mlir-runner -e main -entry-point-result=void --shared-libs=%mlir-c-runner-utils,/usr/lib/llvm-22/lib/libmlir_runner_utils.so.22.1 | sed -E 's/base@ = [0-9a-fx]+/base@ = ADDR/' > %t.mlir-runner
// RUN: sed -E 's/base@ = [0-9a-fx]+/base@ = ADDR/' %t.xsparse | diff %t.mlir-runner -
// REQUIRES: mlir-runner

// printMemref* of mlir_runner_utils, as MLIR integration tests call them:
// xsparse-run prints byte for byte what mlir-runner prints (but the address).
// (lit.cfg's `%mlir-runner` substitution also rewrites `%mlir-runner-utils`,
// hence the library's path spelled out.)

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#DCSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>

#spmv = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (j)>,
    affine_map<(i, j) -> (i)>
  ],
  iterator_types = ["parallel", "reduction"]
}

#scale = {
  indexing_maps = [
    affine_map<(i, j) -> (i, j)>,
    affine_map<(i, j) -> (i, j)>
  ],
  iterator_types = ["parallel", "parallel"]
}

module {
  func.func private @printMemrefF64(memref<*xf64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefF32(memref<*xf32>) attributes { llvm.emit_c_interface }
  // without llvm.emit_c_interface: the bare printMemrefI64(rank, descriptor)
  func.func private @printMemrefI64(memref<*xi64>)
  func.func private @printMemrefI32(memref<*xi32>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI16(memref<*xi16>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefI8(memref<*xi8>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefF16(memref<*xf16>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefInd(memref<*xindex>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefShapeF64(memref<*xf64>) attributes { llvm.emit_c_interface }
  func.func private @printMemrefShapeInd(memref<*xindex>) attributes { llvm.emit_c_interface }
  func.func private @printMemref0dF32(memref<f32>) attributes { llvm.emit_c_interface }
  func.func private @printMemref2dF32(memref<?x?xf32>) attributes { llvm.emit_c_interface }
  func.func private @printMemref1dF64(memref<?xf64>) attributes { llvm.emit_c_interface }
  func.func private @printMemref1dInd(memref<?xindex>) attributes { llvm.emit_c_interface }

  // m[i, j] = i * 10 + j - 5 (as f64)
  func.func @iota2(%m: memref<?x?xf64>) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c10 = arith.constant 10 : index
    %c5 = arith.constant 5 : index
    %n0 = memref.dim %m, %c0 : memref<?x?xf64>
    %n1 = memref.dim %m, %c1 : memref<?x?xf64>
    scf.for %i = %c0 to %n0 step %c1 {
      scf.for %j = %c0 to %n1 step %c1 {
        %a = arith.muli %i, %c10 : index
        %b = arith.addi %a, %j : index
        %c = arith.subi %b, %c5 : index
        %d = arith.index_cast %c : index to i64
        %f = arith.sitofp %d : i64 to f64
        memref.store %f, %m[%i, %j] : memref<?x?xf64>
      }
    }
    return
  }

  func.func @print_dense() {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c4 = arith.constant 4 : index

    // rank 2, f64
    %m = memref.alloc() : memref<3x4xf64>
    %md = memref.cast %m : memref<3x4xf64> to memref<?x?xf64>
    call @iota2(%md) : (memref<?x?xf64>) -> ()
    %u = memref.cast %m : memref<3x4xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()
    call @printMemrefShapeF64(%u) : (memref<*xf64>) -> ()

    // rank 1 and rank 0 views, strided views with an offset
    %row = memref.subview %m[1, 0] [1, 4] [1, 1] : memref<3x4xf64> to memref<4xf64, strided<[1], offset: 4>>
    %urow = memref.cast %row : memref<4xf64, strided<[1], offset: 4>> to memref<*xf64>
    call @printMemrefF64(%urow) : (memref<*xf64>) -> ()
    %col = memref.subview %m[0, 2] [3, 1] [1, 1] : memref<3x4xf64> to memref<3xf64, strided<[4], offset: 2>>
    %ucol = memref.cast %col : memref<3xf64, strided<[4], offset: 2>> to memref<*xf64>
    call @printMemrefF64(%ucol) : (memref<*xf64>) -> ()
    %sq = memref.subview %m[1, 1] [2, 2] [1, 2] : memref<3x4xf64> to memref<2x2xf64, strided<[4, 2], offset: 5>>
    %usq = memref.cast %sq : memref<2x2xf64, strided<[4, 2], offset: 5>> to memref<*xf64>
    call @printMemrefF64(%usq) : (memref<*xf64>) -> ()
    %pt = memref.subview %m[2, 3] [1, 1] [1, 1] : memref<3x4xf64> to memref<f64, strided<[], offset: 11>>
    %upt = memref.cast %pt : memref<f64, strided<[], offset: 11>> to memref<*xf64>
    call @printMemrefF64(%upt) : (memref<*xf64>) -> ()

    // empty views: MLIR prints the first element of an empty dimension too
    %e1 = memref.subview %m[1, 1] [1, 0] [1, 1] : memref<3x4xf64> to memref<0xf64, strided<[1], offset: 5>>
    %ue1 = memref.cast %e1 : memref<0xf64, strided<[1], offset: 5>> to memref<*xf64>
    call @printMemrefF64(%ue1) : (memref<*xf64>) -> ()
    %e2 = memref.subview %m[0, 2] [3, 0] [1, 1] : memref<3x4xf64> to memref<3x0xf64, strided<[4, 1], offset: 2>>
    %ue2 = memref.cast %e2 : memref<3x0xf64, strided<[4, 1], offset: 2>> to memref<*xf64>
    call @printMemrefF64(%ue2) : (memref<*xf64>) -> ()
    %e3 = memref.alloc() : memref<0x3xf64>
    %ue3 = memref.cast %e3 : memref<0x3xf64> to memref<*xf64>
    call @printMemrefShapeF64(%ue3) : (memref<*xf64>) -> ()
    memref.dealloc %e3 : memref<0x3xf64>

    // rank 3, f32, with special values
    %t = memref.alloc() : memref<2x2x3xf32>
    %one = arith.constant 1.0 : f32
    linalg.fill ins(%one : f32) outs(%t : memref<2x2x3xf32>)
    %big = arith.constant 1.0e20 : f32
    %neg0 = arith.constant -0.0 : f32
    %tiny = arith.constant 3.25e-7 : f32
    %third = arith.constant 0.333333343 : f32
    %inf = arith.constant 0x7F800000 : f32
    %nan = arith.constant 0x7FC00000 : f32
    %nnan = arith.constant 0xFFC00000 : f32
    memref.store %big, %t[%c0, %c0, %c1] : memref<2x2x3xf32>
    memref.store %neg0, %t[%c0, %c1, %c0] : memref<2x2x3xf32>
    memref.store %tiny, %t[%c0, %c1, %c2] : memref<2x2x3xf32>
    memref.store %third, %t[%c1, %c0, %c0] : memref<2x2x3xf32>
    memref.store %inf, %t[%c1, %c0, %c2] : memref<2x2x3xf32>
    memref.store %nan, %t[%c1, %c1, %c1] : memref<2x2x3xf32>
    memref.store %nnan, %t[%c1, %c1, %c2] : memref<2x2x3xf32>
    %ut = memref.cast %t : memref<2x2x3xf32> to memref<*xf32>
    call @printMemrefF32(%ut) : (memref<*xf32>) -> ()

    // integers: i64, i32, i16, i8 (printed as characters), index (unsigned)
    %i64 = memref.alloc() : memref<2x3xi64>
    %i32 = memref.alloc() : memref<2x3xi32>
    %i16 = memref.alloc() : memref<2x3xi16>
    %ind = memref.alloc() : memref<2x3xindex>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %a = arith.muli %i, %c3 : index
        %b = arith.addi %a, %j : index
        %v = arith.index_cast %b : index to i64
        %k = arith.constant 1000000000000 : i64
        %w = arith.muli %v, %k : i64
        %x = arith.subi %w, %k : i64
        memref.store %x, %i64[%i, %j] : memref<2x3xi64>
        %y = arith.trunci %x : i64 to i32
        memref.store %y, %i32[%i, %j] : memref<2x3xi32>
        %z = arith.trunci %x : i64 to i16
        memref.store %z, %i16[%i, %j] : memref<2x3xi16>
        %q = arith.subi %b, %c1 : index
        memref.store %q, %ind[%i, %j] : memref<2x3xindex>
      }
    }
    %ui64 = memref.cast %i64 : memref<2x3xi64> to memref<*xi64>
    call @printMemrefI64(%ui64) : (memref<*xi64>) -> ()
    %ui32 = memref.cast %i32 : memref<2x3xi32> to memref<*xi32>
    call @printMemrefI32(%ui32) : (memref<*xi32>) -> ()
    %ui16 = memref.cast %i16 : memref<2x3xi16> to memref<*xi16>
    call @printMemrefI16(%ui16) : (memref<*xi16>) -> ()
    %uind = memref.cast %ind : memref<2x3xindex> to memref<*xindex>
    call @printMemrefInd(%uind) : (memref<*xindex>) -> ()
    call @printMemrefShapeInd(%uind) : (memref<*xindex>) -> ()
    %s = memref.alloc() : memref<5xi8>
    %ch = arith.constant 65 : i8
    scf.for %i = %c0 to %c4 step %c1 {
      %v = arith.index_cast %i : index to i8
      %w = arith.addi %ch, %v : i8
      memref.store %w, %s[%i] : memref<5xi8>
    }
    %bang = arith.constant 33 : i8
    memref.store %bang, %s[%c4] : memref<5xi8>
    %us = memref.cast %s : memref<5xi8> to memref<*xi8>
    call @printMemrefI8(%us) : (memref<*xi8>) -> ()

    // f16
    %h = memref.alloc() : memref<3xf16>
    %h1 = arith.constant 1.5 : f16
    %h2 = arith.constant -0.1 : f16
    %h3 = arith.constant 65504.0 : f16
    memref.store %h1, %h[%c0] : memref<3xf16>
    memref.store %h2, %h[%c1] : memref<3xf16>
    memref.store %h3, %h[%c2] : memref<3xf16>
    %uh = memref.cast %h : memref<3xf16> to memref<*xf16>
    call @printMemrefF16(%uh) : (memref<*xf16>) -> ()

    // ranked printers
    %r0 = memref.alloc() : memref<f32>
    %pi = arith.constant 3.14159274 : f32
    memref.store %pi, %r0[] : memref<f32>
    call @printMemref0dF32(%r0) : (memref<f32>) -> ()
    %t2 = memref.subview %t[1, 0, 0] [1, 2, 3] [1, 1, 1] : memref<2x2x3xf32> to memref<2x3xf32, strided<[3, 1], offset: 6>>
    %t2c = memref.alloc(%c2, %c3) : memref<?x?xf32>
    scf.for %i = %c0 to %c2 step %c1 {
      scf.for %j = %c0 to %c3 step %c1 {
        %x = memref.load %t2[%i, %j] : memref<2x3xf32, strided<[3, 1], offset: 6>>
        memref.store %x, %t2c[%i, %j] : memref<?x?xf32>
      }
    }
    call @printMemref2dF32(%t2c) : (memref<?x?xf32>) -> ()
    %flat = memref.alloc(%c4) : memref<?xf64>
    scf.for %j = %c0 to %c4 step %c1 {
      %x = memref.load %m[%c2, %j] : memref<3x4xf64>
      memref.store %x, %flat[%j] : memref<?xf64>
    }
    call @printMemref1dF64(%flat) : (memref<?xf64>) -> ()
    %indd = memref.alloc(%c2) : memref<?xindex>
    memref.store %c3, %indd[%c0] : memref<?xindex>
    memref.store %c4, %indd[%c1] : memref<?xindex>
    call @printMemref1dInd(%indd) : (memref<?xindex>) -> ()

    // unranked -> ranked
    %back = memref.cast %u : memref<*xf64> to memref<3x4xf64>
    %v = memref.load %back[%c2, %c1] : memref<3x4xf64>
    vector.print %v : f64

    memref.dealloc %m : memref<3x4xf64>
    memref.dealloc %t : memref<2x2x3xf32>
    memref.dealloc %i64 : memref<2x3xi64>
    memref.dealloc %i32 : memref<2x3xi32>
    memref.dealloc %i16 : memref<2x3xi16>
    memref.dealloc %uind : memref<*xindex>
    memref.dealloc %s : memref<5xi8>
    memref.dealloc %h : memref<3xf16>
    memref.dealloc %r0 : memref<f32>
    memref.dealloc %t2c : memref<?x?xf32>
    memref.dealloc %flat : memref<?xf64>
    memref.dealloc %indd : memref<?xindex>
    return
  }


  func.func @spmv(%a: tensor<4x5xf64, #CSR>, %x: tensor<5xf64>, %y: tensor<4xf64>) -> tensor<4xf64> {
    %0 = linalg.generic #spmv
      ins(%a, %x : tensor<4x5xf64, #CSR>, tensor<5xf64>)
      outs(%y : tensor<4xf64>) {
    ^bb0(%av: f64, %xv: f64, %yv: f64):
      %m = arith.mulf %av, %xv : f64
      %s = arith.addf %yv, %m : f64
      linalg.yield %s : f64
    } -> tensor<4xf64>
    return %0 : tensor<4xf64>
  }

  func.func @densify(%a: tensor<4x5xf64, #DCSR>, %out: tensor<4x5xf64>) -> tensor<4x5xf64> {
    %0 = linalg.generic #scale
      ins(%a : tensor<4x5xf64, #DCSR>)
      outs(%out : tensor<4x5xf64>) {
    ^bb0(%av: f64, %o: f64):
      %two = arith.constant 2.0 : f64
      %m = arith.mulf %av, %two : f64
      linalg.yield %m : f64
    } -> tensor<4x5xf64>
    return %0 : tensor<4x5xf64>
  }

  func.func @print_sparse() {
    %d = arith.constant dense<[[1.0, 0.0, 0.0, 2.5, 0.0],
                               [0.0, 0.0, 3.0, 0.0, 0.0],
                               [0.0, 0.0, 0.0, 0.0, 0.0],
                               [4.0, 0.0, 0.0, 5.0, 6.0]]> : tensor<4x5xf64>
    %a = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<4x5xf64, #CSR>
    %x = arith.constant dense<[1.0, 2.0, 3.0, 4.0, 5.0]> : tensor<5xf64>
    %y = arith.constant dense<[0.5, 0.0, 0.0, -1.0]> : tensor<4xf64>
    %r = call @spmv(%a, %x, %y) : (tensor<4x5xf64, #CSR>, tensor<5xf64>, tensor<4xf64>) -> tensor<4xf64>
    %m = bufferization.to_buffer %r : tensor<4xf64> to memref<4xf64>
    %u = memref.cast %m : memref<4xf64> to memref<*xf64>
    call @printMemrefF64(%u) : (memref<*xf64>) -> ()

    %b = sparse_tensor.convert %d : tensor<4x5xf64> to tensor<4x5xf64, #DCSR>
    %z = arith.constant dense<0.0> : tensor<4x5xf64>
    %e = call @densify(%b, %z) : (tensor<4x5xf64, #DCSR>, tensor<4x5xf64>) -> tensor<4x5xf64>
    %em = bufferization.to_buffer %e : tensor<4x5xf64> to memref<4x5xf64>
    %eu = memref.cast %em : memref<4x5xf64> to memref<*xf64>
    call @printMemrefF64(%eu) : (memref<*xf64>) -> ()
    %vals = sparse_tensor.values %a : tensor<4x5xf64, #CSR> to memref<?xf64>
    %uv = memref.cast %vals : memref<?xf64> to memref<*xf64>
    call @printMemrefF64(%uv) : (memref<*xf64>) -> ()
    %pos = sparse_tensor.positions %b { level = 1 : index } : tensor<4x5xf64, #DCSR> to memref<?xindex>
    %upos = memref.cast %pos : memref<?xindex> to memref<*xindex>
    call @printMemrefInd(%upos) : (memref<*xindex>) -> ()
    %crd = sparse_tensor.coordinates %b { level = 1 : index } : tensor<4x5xf64, #DCSR> to memref<?xindex>
    %ucrd = memref.cast %crd : memref<?xindex> to memref<*xindex>
    call @printMemrefInd(%ucrd) : (memref<*xindex>) -> ()
    bufferization.dealloc_tensor %a : tensor<4x5xf64, #CSR>
    bufferization.dealloc_tensor %b : tensor<4x5xf64, #DCSR>
    return
  }

  func.func @main() {
    call @print_dense() : () -> ()
    call @print_sparse() : () -> ()
    return
  }
}

// A declaration with llvm.emit_c_interface gets MLIR's body: the unranked
// descriptor stored on the stack, passed by pointer to _mlir_ciface_<name>.
// LLVM-LABEL: llvm.func internal @printMemrefF64(%{{.*}}: i64, %{{.*}}: !llvm.ptr) {
// LLVM:         %[[SLOT:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(i64, !llvm.ptr)>
// LLVM-NEXT:    llvm.store %{{.*}}, %[[SLOT]] : !llvm.struct<(i64, !llvm.ptr)>, !llvm.ptr
// LLVM-NEXT:    llvm.call @_mlir_ciface_printMemrefF64(%[[SLOT]]) : (!llvm.ptr) -> ()
// LLVM-NEXT:    llvm.return
// Without it, the call goes to the bare symbol (rank, descriptor pointer).
// LLVM:       llvm.func @printMemrefI64(i64, !llvm.ptr)
// A ranked memref argument is passed as a pointer to its descriptor.
// LLVM-LABEL: llvm.func internal @printMemref1dF64(%{{.*}}: !llvm.ptr, %{{.*}}: !llvm.ptr, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64) {
// LLVM:         %[[D:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<1 x i64>, !llvm.array<1 x i64>)>
// LLVM-NEXT:    llvm.store %{{.*}}, %[[D]]
// LLVM-NEXT:    llvm.call @_mlir_ciface_printMemref1dF64(%[[D]]) : (!llvm.ptr) -> ()
// memref.cast to an unranked memref: the descriptor on the stack, with its rank.
// LLVM-LABEL: llvm.func @print_dense() {
// LLVM:         %[[S:.*]] = llvm.alloca %{{.*}} x !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// LLVM-NEXT:    llvm.store %{{.*}}, %[[S]]
// LLVM-NEXT:    %[[P:.*]] = llvm.mlir.poison : !llvm.struct<(i64, !llvm.ptr)>
// LLVM-NEXT:    %[[R:.*]] = llvm.mlir.constant(2) : i64
// LLVM-NEXT:    %[[U0:.*]] = llvm.insertvalue %[[R]], %[[P]][0]
// LLVM-NEXT:    %[[U:.*]] = llvm.insertvalue %[[S]], %[[U0]][1]
// LLVM-NEXT:    %[[RANK:.*]] = llvm.extractvalue %[[U]][0]
// LLVM-NEXT:    %[[PTR:.*]] = llvm.extractvalue %[[U]][1]
// LLVM-NEXT:    llvm.call @printMemrefF64(%[[RANK]], %[[PTR]]) : (i64, !llvm.ptr) -> ()
// memref.cast back to a ranked memref loads the descriptor.
// LLVM:         llvm.load %{{.*}} : !llvm.ptr -> !llvm.struct<(!llvm.ptr, !llvm.ptr, i64, !llvm.array<2 x i64>, !llvm.array<2 x i64>)>
// LLVM:       llvm.func @_mlir_ciface_printMemrefF64(!llvm.ptr)

// What xsparse-run prints (the address masked; byte-identical to mlir-runner
// after the same masking, checked by the diff above). Empty dimensions print
// their first element, as MLIR's printer does.
// CHECK:      Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}-5,   -4,   -3,   -2],
// CHECK-NEXT:  [5,   6,   7,   8],
// CHECK-NEXT:  [15,   16,   17,   18]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [3, 4] strides = [4, 1]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 4 sizes = [4] strides = [1] data =
// CHECK-NEXT: [5,  6,  7,  8]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 2 sizes = [3] strides = [4] data =
// CHECK-NEXT: [-3,  7,  17]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 5 sizes = [2, 2] strides = [4, 2] data =
// CHECK-NEXT: {{\[\[}}6,   8],
// CHECK-NEXT:  [16,   18]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 0 offset = 11 sizes = [] strides = [] data =
// CHECK-NEXT: [18]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 5 sizes = [0] strides = [1] data =
// CHECK-NEXT: [6]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 2 sizes = [3, 0] strides = [4, 1] data =
// CHECK-NEXT: {{\[\[}}-3],
// CHECK-NEXT:  [7],
// CHECK-NEXT:  [17]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [0, 3] strides = [3, 1]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 3 offset = 0 sizes = [2, 2, 3] strides = [6, 3, 1] data =
// CHECK-NEXT: {{\[\[}}[1,    1e+20,    1],
// CHECK-NEXT:   [-0,    1,    3.25e-07]],
// CHECK-NEXT:  {{\[\[}}0.333333,    1,    inf],
// CHECK-NEXT:   [1,    nan,    -nan]]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}-1000000000000,   0,   1000000000000],
// CHECK-NEXT:  [2000000000000,   3000000000000,   4000000000000]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}727379968,   0,   -727379968],
// CHECK-NEXT:  [-1454759936,   2112827392,   1385447424]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}-4096,   0,   4096],
// CHECK-NEXT:  [8192,   12288,   16384]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}18446744073709551615,   0,   1],
// CHECK-NEXT:  [2,   3,   4]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [5] strides = [1] data =
// CHECK-NEXT: [A,  B,  C,  D,  !]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [3] strides = [1] data =
// CHECK-NEXT: [1.5,  -0.0999756,  65504]
// CHECK-NEXT: Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 0 offset = 0 sizes = [] strides = [] data =
// CHECK-NEXT: [3.14159]
// CHECK-NEXT: Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data =
// CHECK-NEXT: {{\[\[}}0.333333,   1,   inf],
// CHECK-NEXT:  [1,   nan,   -nan]]
// CHECK-NEXT: Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [15,  16,  17,  18]
// CHECK-NEXT: Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [2] strides = [1] data =
// CHECK-NEXT: [3,  4]
// CHECK-NEXT: 16
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [11.5,  9,  0,  53]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 2 offset = 0 sizes = [4, 5] strides = [5, 1] data =
// CHECK-NEXT: {{\[\[}}2,   0,   0,   5,   0],
// CHECK-NEXT:  [0,   0,   6,   0,   0],
// CHECK-NEXT:  [0,   0,   0,   0,   0],
// CHECK-NEXT:  [8,   0,   0,   10,   12]]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [1,  2.5,  3,  4,  5,  6]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [4] strides = [1] data =
// CHECK-NEXT: [0,  2,  3,  6]
// CHECK-NEXT: Unranked Memref base@ = {{(0x[0-9a-f]+|0)}} rank = 1 offset = 0 sizes = [6] strides = [1] data =
// CHECK-NEXT: [0,  3,  2,  0,  3,  4]
// CHECK-NOT:  {{.}}
