// RUN: xsparse-opt --split-input-file %s -p sparse-tensor-codegen | filecheck %s

// sparse_tensor.new of a file name: the runtime reads the file into the storage
// of the result type (whose text it gets as a NUL-terminated constant); each
// buffer is allocated with the length the runtime reports and filled by it.
// Static level sizes are constants.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32 }>

func.func @new_csr(%file: !llvm.ptr) -> tensor<?x8xf64, #CSR> {
  %t = sparse_tensor.new %file : !llvm.ptr to tensor<?x8xf64, #CSR>
  return %t : tensor<?x8xf64, #CSR>
}

// CHECK-DAG:   func.func private @xsparse_tensor_release(index) -> ()
// CHECK-DAG:   func.func private @xsparse_tensor_copy(index, index, index) -> ()
// CHECK-DAG:   func.func private @xsparse_tensor_size(index, index) -> index
// CHECK-DAG:   func.func private @xsparse_new_tensor(!llvm.ptr, index) -> index
// CHECK-DAG:   "memref.global"() <{sym_name = "[[TYPE:__xsparse_type_.*]]", type = memref<109xi8>, initial_value = dense<"0x74656E736F723C3F78387866363
// CHECK-LABEL: func.func @new_csr(
// CHECK-SAME:    %[[FILE:.*]]: !llvm.ptr) -> (memref<?xi32>, memref<?xindex>, memref<?xf64>, index, index) {
// CHECK-NEXT:    %[[G:.*]] = memref.get_global @[[TYPE]] : memref<109xi8>
// CHECK-NEXT:    %[[T:.*]] = "memref.extract_aligned_pointer_as_index"(%[[G]])
// CHECK-NEXT:    %[[H:.*]] = func.call @xsparse_new_tensor(%[[FILE]], %[[T]]) : (!llvm.ptr, index) -> index
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[N0:.*]] = func.call @xsparse_tensor_size(%[[H]], %[[K0]])
// CHECK-NEXT:    %[[POS:.*]] = memref.alloc(%[[N0]]) : memref<?xi32>
// CHECK-NEXT:    %[[A0:.*]] = "memref.extract_aligned_pointer_as_index"(%[[POS]])
// CHECK-NEXT:    func.call @xsparse_tensor_copy(%[[H]], %[[K0]], %[[A0]])
// CHECK:         %[[CRD:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[VAL:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         %[[K3:.*]] = arith.constant 3 : index
// CHECK-NEXT:    %[[ROWS:.*]] = func.call @xsparse_tensor_size(%[[H]], %[[K3]])
// CHECK-NEXT:    %[[COLS:.*]] = arith.constant 8 : index
// CHECK-NEXT:    func.call @xsparse_tensor_release(%[[H]]) : (index) -> ()
// CHECK-NEXT:    func.return %[[POS]], %[[CRD]], %[[VAL]], %[[ROWS]], %[[COLS]]

// -----

// sparse_tensor.out: every storage field goes to the runtime (a buffer as its
// address and length, a level size as its value), then the file name.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>

func.func @out_csr(%t: tensor<?x?xf64, #CSR>, %file: !llvm.ptr) {
  sparse_tensor.out %t, %file : tensor<?x?xf64, #CSR>, !llvm.ptr
  return
}

// CHECK-LABEL: func.func @out_csr(
// CHECK-SAME:    %[[P:.*]]: memref<?xindex>, %[[C:.*]]: memref<?xindex>, %[[V:.*]]: memref<?xf64>, %[[S0:.*]]: index, %[[S1:.*]]: index, %[[FILE:.*]]: !llvm.ptr) {
// CHECK:         %[[H:.*]] = func.call @xsparse_out_begin(%{{.*}}) : (index) -> index
// CHECK-NEXT:    %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[AP:.*]] = "memref.extract_aligned_pointer_as_index"(%[[P]])
// CHECK:         %[[NP:.*]] = memref.dim %[[P]]
// CHECK-NEXT:    %[[K0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    func.call @xsparse_out_field(%[[H]], %[[K0]], %[[AP]], %[[NP]]) : (index, index, index, index) -> ()
// CHECK:         func.call @xsparse_out_field(%[[H]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         func.call @xsparse_out_field(%[[H]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK:         func.call @xsparse_out_field(%[[H]], %{{.*}}, %[[ZERO]], %[[S0]])
// CHECK:         func.call @xsparse_out_field(%[[H]], %{{.*}}, %[[ZERO]], %[[S1]])
// CHECK-NEXT:    func.call @xsparse_out_end(%[[H]], %[[FILE]]) : (index, !llvm.ptr) -> ()
// CHECK-NEXT:    func.return

// -----

// sparse_tensor.assemble: the given buffers, checked at run time (what the
// positions imply fits in each buffer, positions start at 0 and never
// decrease, coordinates in range and sorted), each failed check reported with
// its own message; then each buffer seen up to what the positions say is used
// (no copy), or, when a check failed, an empty tensor. The level sizes come
// from the static shape.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32 }>

func.func @assemble_csr(%pos: tensor<?xi32>, %crd: tensor<?xindex>, %val: tensor<?xf64>) -> tensor<3x4xf64, #CSR> {
  %t = sparse_tensor.assemble (%pos, %crd), %val : (tensor<?xi32>, tensor<?xindex>), tensor<?xf64> to tensor<3x4xf64, #CSR>
  return %t : tensor<3x4xf64, #CSR>
}

// CHECK-LABEL: func.func @assemble_csr(
// CHECK-SAME:    %[[P:.*]]: memref<?xi32>, %[[C:.*]]: memref<?xindex>, %[[V:.*]]: memref<?xf64>) -> (memref<?xi32>, memref<?xindex>, memref<?xf64>, index, index) {
// CHECK-DAG:     %[[ROWS:.*]] = arith.constant 3 : index
// CHECK-DAG:     %[[COLS:.*]] = arith.constant 4 : index
// CHECK:         %[[NP:.*]] = arith.addi %[[PARENTS:.*]], %{{.*}} : index
// CHECK:         %[[HAS:.*]] = memref.dim %[[P]], %{{.*}} : memref<?xi32>
// CHECK-NEXT:    %[[FITS:.*]] = arith.cmpi ule, %[[NP]], %[[HAS]] : index
// CHECK:         scf.if %{{.*}} {
// CHECK-NEXT:      memref.get_global @__xsparse_error_
// CHECK:           func.call @xsparse_runtime_error
// CHECK:         %[[OK1:.*]] = arith.andi %{{.*}}, %[[FITS]] : i1
// CHECK-NEXT:    %[[MONOTONE:.*]], %[[NNZ:.*]] = scf.if %[[OK1]] -> (i1, index) {
// The first segment starts at 0; the checks are parallel reductions (and of
// flags, sums of counts, the largest coordinate).
// CHECK:           %[[FIRST:.*]] = scf.if %{{.*}} -> (i1) {
// CHECK:             arith.cmpi eq, %{{.*}}, %{{.*}} : index
// CHECK:           scf.parallel (%[[R:.*]]) = (%{{.*}}) to (%[[PARENTS]]) step (%{{.*}}) init (%[[FIRST]]) -> i1 {
// CHECK:             %[[LO:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK:             %[[HI:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK:             %[[END:.*]] = arith.index_castui %{{.*}} : i32 to index
// CHECK-NEXT:        %[[UP:.*]] = arith.cmpi ule, %[[LO]], %[[HI]] : index
// CHECK-NEXT:        %[[NEXT:.*]] = arith.cmpi eq, %[[LO]], %[[END]] : index
// CHECK-NEXT:        %[[BOTH:.*]] = arith.andi %[[UP]], %[[NEXT]] : i1
// CHECK-NEXT:        scf.reduce(%[[BOTH]] : i1) {
// CHECK-NEXT:        ^{{.*}}(%[[A:.*]]: i1, %[[B:.*]]: i1):
// CHECK-NEXT:          %[[AB:.*]] = arith.andi %[[A]], %[[B]] : i1
// CHECK-NEXT:          scf.reduce.return %[[AB]] : i1
// CHECK:         } else {
// CHECK:         func.call @xsparse_runtime_error
// CHECK:         arith.cmpi ule, %[[NNZ]], %{{.*}} : index
// CHECK:         %[[LARGEST:.*]], %{{.*}} = scf.parallel (%[[K:.*]]) = (%{{.*}}) to (%[[NNZ]]) step (%{{.*}}) init
// CHECK-NEXT:      %[[X:.*]] = memref.load %[[C]][%[[K]]] : memref<?xindex>
// CHECK:             arith.maxui
// CHECK:         arith.cmpi ult, %[[LARGEST]], %[[COLS]] : index
// CHECK:         %[[PV:.*]], %[[CV:.*]], %[[VV:.*]] = scf.if %{{.*}} -> (memref<?xi32>, memref<?xindex>, memref<?xf64>) {
// CHECK-NEXT:      %{{.*}} = memref.reinterpret_cast %[[P]] to offset: [0], sizes: [%[[NP]]], strides: [1] : memref<?xi32> to memref<?xi32>
// CHECK-NEXT:      %{{.*}} = memref.reinterpret_cast %[[C]] to offset: [0], sizes: [%[[NNZ]]], strides: [1] : memref<?xindex> to memref<?xindex>
// CHECK-NEXT:      %{{.*}} = memref.reinterpret_cast %[[V]] to offset: [0], sizes: [%[[NNZ]]], strides: [1] : memref<?xf64> to memref<?xf64>
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } else {
// CHECK:           %[[EMPTY:.*]] = memref.alloc(%{{.*}}) : memref<?xi32>
// CHECK:           scf.yield %[[EMPTY]], %{{.*}}, %{{.*}} : memref<?xi32>, memref<?xindex>, memref<?xf64>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[PV]], %[[CV]], %[[VV]], %[[ROWS]], %[[COLS]]

// -----

// A constant level buffer is copied into a fresh buffer first (index data goes
// through an i64 global); an array-of-structs COO coordinates buffer (checked
// to have a column per level) is split into one buffer per level.

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

func.func @assemble_coo(%crd: tensor<?x2xindex>, %val: tensor<?xf64>) -> tensor<3x4xf64, #COO> {
  %pos = arith.constant dense<[0, 3]> : tensor<2xindex>
  %t = sparse_tensor.assemble (%pos, %crd), %val : (tensor<2xindex>, tensor<?x2xindex>), tensor<?xf64> to tensor<3x4xf64, #COO>
  return %t : tensor<3x4xf64, #COO>
}

// CHECK-DAG:   "memref.global"() <{sym_name = "[[POS:__xsparse_pos_.*]]", type = memref<2xi64>, initial_value = dense<[0, 3]> : tensor<2xi64>, sym_visibility = "private", constant}>
// CHECK-LABEL: func.func @assemble_coo(
// CHECK-SAME:    %[[AOS:.*]]: memref<?x2xindex>, %[[V:.*]]: memref<?xf64>) -> (memref<?xindex>, memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index) {
// CHECK:         memref.get_global @[[POS]] : memref<2xi64>
// CHECK:         %[[COLUMNS:.*]] = memref.dim %[[AOS]], %{{.*}} : memref<?x2xindex>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    arith.cmpi uge, %[[COLUMNS]], %[[TWO]] : index
// CHECK:         %[[ENTRIES:.*]] = memref.dim %[[AOS]], %{{.*}} : memref<?x2xindex>
// CHECK:         %{{.*}}, %[[NNZ:.*]] = scf.if %{{.*}} -> (i1, index) {
// CHECK:         arith.cmpi ule, %[[NNZ]], %[[ENTRIES]] : index
// CHECK:         scf.if %{{.*}} -> (memref<?xindex>, memref<?xindex>, memref<?xindex>, memref<?xf64>) {
// CHECK-NEXT:      %[[PV:.*]] = memref.reinterpret_cast
// CHECK:           %[[X:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:           scf.for %[[I:.*]] = %{{.*}} to %[[NNZ]] step %{{.*}} {
// CHECK-NEXT:        %[[E:.*]] = memref.load %[[AOS]][%[[I]], %{{.*}}] : memref<?x2xindex>
// CHECK-NEXT:        memref.store %[[E]], %[[X]][%[[I]]] : memref<?xindex>
// CHECK:           %[[Y:.*]] = memref.alloc(%[[NNZ]]) : memref<?xindex>
// CHECK:           scf.yield %[[PV]], %[[X]], %[[Y]], %{{.*}} : memref<?xindex>, memref<?xindex>, memref<?xindex>, memref<?xf64>

// -----

// sparse_tensor.disassemble: each buffer copied into the front of its output
// (as much as fits), the AoS COO coordinates interleaved; the used lengths are
// the buffers' lengths (2 coordinates per entry for the COO region).

#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>

func.func @disassemble_coo(%t: tensor<3x4xf64, #COO>, %pos: tensor<2xindex>, %crd: tensor<5x2xindex>, %val: tensor<5xf64>)
    -> (tensor<2xindex>, tensor<5x2xindex>, tensor<5xf64>, i64, index, index) {
  %p, %c, %v, %lp, %lc, %lv = sparse_tensor.disassemble %t : tensor<3x4xf64, #COO>
      out_lvls(%pos, %crd : tensor<2xindex>, tensor<5x2xindex>) out_vals(%val : tensor<5xf64>)
      -> (tensor<2xindex>, tensor<5x2xindex>), tensor<5xf64>, (i64, index), index
  return %p, %c, %v, %lp, %lc, %lv : tensor<2xindex>, tensor<5x2xindex>, tensor<5xf64>, i64, index, index
}

// CHECK-LABEL: func.func @disassemble_coo(
// CHECK-SAME:    %[[P:.*]]: memref<?xindex>, %[[X:.*]]: memref<?xindex>, %[[Y:.*]]: memref<?xindex>, %[[V:.*]]: memref<?xf64>, %{{.*}}: index, %{{.*}}: index, %[[OP:.*]]: memref<2xindex>, %[[OC:.*]]: memref<5x2xindex>, %[[OV:.*]]: memref<5xf64>)
// CHECK:         %[[NP:.*]] = memref.dim %[[P]]
// CHECK:         %[[FITS:.*]] = arith.minui %[[NP]], %{{.*}} : index
// CHECK:         scf.for %[[I:.*]] = %{{.*}} to %[[FITS]] step %{{.*}} {
// CHECK-NEXT:      %[[E:.*]] = memref.load %[[P]][%[[I]]] : memref<?xindex>
// CHECK-NEXT:      memref.store %[[E]], %[[OP]][%[[I]]] : memref<2xindex>
// CHECK:         %[[NNZ:.*]] = memref.dim %[[X]]
// CHECK:         scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK-NEXT:      %[[A:.*]] = memref.load %[[X]][%[[J]]] : memref<?xindex>
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      memref.store %[[A]], %[[OC]][%[[J]], %[[C0]]] : memref<5x2xindex>
// CHECK-NEXT:      %[[B:.*]] = memref.load %[[Y]][%[[J]]] : memref<?xindex>
// CHECK-NEXT:      %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      memref.store %[[B]], %[[OC]][%[[J]], %[[C1]]] : memref<5x2xindex>
// CHECK:         %[[LC:.*]] = arith.muli %[[NNZ]], %{{.*}} : index
// CHECK:         %[[LV:.*]] = memref.dim %[[V]]
// CHECK:         %[[LP:.*]] = arith.index_cast %[[NP]] : index to i64
// CHECK-NEXT:    func.return %[[OP]], %[[OC]], %[[OV]], %[[LP]], %[[LC]], %[[LV]]
