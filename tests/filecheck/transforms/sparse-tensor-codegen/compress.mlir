// RUN: xsparse-opt %s -p sparse-tensor-codegen | filecheck %s

// sparse_tensor.compress into a CSR tensor under construction: the added
// coordinates are sorted by a private function emitted once per module and
// element type; a nonempty row then reserves room for all of its entries once
// (one capacity check per buffer) and appends them unchecked, clearing the
// workspace entries it reads, and sets the row's end position once.

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
func.func @row(%values: memref<?xf64>, %filled: memref<?xi1>, %added: memref<?xindex>, %count: index, %m: index, %n: index, %i: index) -> tensor<?x?xf64, #CSR> {
  %init = tensor.empty(%m, %n) : tensor<?x?xf64, #CSR>
  %t = sparse_tensor.compress %values, %filled, %added, %count into %init[%i] : memref<?xf64>, memref<?xi1>, memref<?xindex>, tensor<?x?xf64, #CSR>
  %u = sparse_tensor.compress %values, %filled, %added, %count into %t[%i] : memref<?xf64>, memref<?xi1>, memref<?xindex>, tensor<?x?xf64, #CSR>
  %r = sparse_tensor.load %u hasInserts : tensor<?x?xf64, #CSR>
  return %r : tensor<?x?xf64, #CSR>
}

// CHECK-LABEL: func.func @row(
// CHECK-SAME:      %[[VALUES:[^:]*]]: memref<?xf64>, %[[FILLED:[^:]*]]: memref<?xi1>, %[[ADDED:[^:]*]]: memref<?xindex>, %[[COUNT:[^:]*]]: index
// CHECK:         func.call @__xsparse_sort_index(%[[ADDED]], %[[COUNT]]) : (memref<?xindex>, index) -> ()
// CHECK:         %[[NONEMPTY:.*]] = arith.cmpi ugt, %[[COUNT]], %{{.*}} : index
// CHECK:         scf.if %[[NONEMPTY]] -> (memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index, index, index, index) {
// CHECK:           %[[CRD_END:.*]] = arith.addi %{{.*}}, %[[COUNT]] : index
// CHECK:           %[[VAL_END:.*]] = arith.addi %{{.*}}, %[[COUNT]] : index
// CHECK:           %[[CRD:.*]] = scf.if %{{.*}} -> (memref<?xindex>) {
// CHECK:             memref.realloc
// CHECK:           %[[VAL:.*]] = scf.if %{{.*}} -> (memref<?xf64>) {
// CHECK:             memref.realloc
// CHECK:           scf.for %[[K:.*]] = %{{.*}} to %[[COUNT]] step %{{.*}} {
// CHECK-NEXT:        %[[COLUMN:.*]] = memref.load %[[ADDED]][%[[K]]] : memref<?xindex>
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[VALUES]][%[[COLUMN]]] : memref<?xf64>
// CHECK-NEXT:        memref.store %{{.*}}, %[[VALUES]][%[[COLUMN]]] : memref<?xf64>
// CHECK-NEXT:        memref.store %{{.*}}, %[[FILLED]][%[[COLUMN]]] : memref<?xi1>
// CHECK-NEXT:        %[[AT:.*]] = arith.addi %{{.*}}, %[[K]] : index
// CHECK-NEXT:        memref.store %[[COLUMN]], %[[CRD]][%[[AT]]] : memref<?xindex>
// CHECK-NEXT:        %[[VAT:.*]] = arith.addi %{{.*}}, %[[K]] : index
// CHECK-NEXT:        memref.store %[[V]], %[[VAL]][%[[VAT]]] : memref<?xf64>
// CHECK-NEXT:      }
// CHECK:           memref.store %[[CRD_END]], %{{.*}}[%{{.*}}] : memref<?xindex>
// CHECK:         } else {
// CHECK:         func.call @__xsparse_sort_index(%[[ADDED]], %[[COUNT]])
// CHECK:         func.return

// One sort function: insertion sort up to 16 entries, else a distribution
// into at most n buckets by (c - min) >> shift, crowded buckets heap-sorted,
// then an insertion sort that only moves entries within their bucket.
// CHECK:       func.func private @__xsparse_sort_index(%[[BUF:.*]]: memref<?xindex>, %[[N:.*]]: index) {
// CHECK:         %[[CUTOFF:.*]] = arith.constant 16 : index
// CHECK:         %[[SMALL:.*]] = arith.cmpi ule, %[[N]], %[[CUTOFF]] : index
// CHECK:         scf.if %[[SMALL]] {
// CHECK:           scf.for
// CHECK:             scf.while
// CHECK:         } else {
// CHECK:           arith.minui
// CHECK:           arith.maxui
// CHECK:           %[[SHIFT:.*]] = scf.while
// CHECK:             arith.shrui
// CHECK:             arith.cmpi uge, %{{.*}}, %[[N]] : index
// CHECK:           %[[ENDS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:           %[[COPY:.*]] = memref.alloc(%[[N]]) : memref<?xindex>
// CHECK:           scf.for
// CHECK:             arith.shrui %{{.*}}, %[[SHIFT]] : index
// CHECK:           scf.for
// CHECK:           scf.for
// CHECK:             memref.load %[[COPY]]
// CHECK:             memref.store %{{.*}}, %[[BUF]][%{{.*}}] : memref<?xindex>
// CHECK:           scf.for
// CHECK:             arith.cmpi ugt
// CHECK:             scf.if
// CHECK:               scf.while
// CHECK:           memref.dealloc %[[ENDS]]
// CHECK:           memref.dealloc %[[COPY]]
// CHECK:           scf.for
// CHECK:             scf.while
// CHECK-NOT:   func.func private @__xsparse_sort_index
