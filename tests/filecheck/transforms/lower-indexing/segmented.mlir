// RUN: xsparse-opt %s --split-input-file -p lower-indexing | filecheck %s
// RUN: xsparse-opt %s --split-input-file | xsparse-opt --split-input-file | filecheck %s --check-prefix=ROUNDTRIP
// RUN: xsparse-opt %s --split-input-file --print-op-generic | xsparse-opt --split-input-file | filecheck %s --check-prefix=ROUNDTRIP

// A segmented set (a COO level) visits each run of equal coordinates once,
// carrying the run's end: the body's indexing.segment_end of the loop position
// is that carried value, so the run is scanned once (as MLIR 22 does).

func.func @runs(%crd: memref<?xindex>, %lo: index, %hi: index, %out: memref<?xindex>) {
  %s = indexing.stored %crd[%lo to %hi] nonunique segmented : memref<?xindex> -> !indexing.set
  indexing.foreach %s : !indexing.set
  case %p at(%c) {
    %end = indexing.segment_end %crd[%p to %hi] : memref<?xindex>
    %n = arith.subi %end, %p : index
    memref.store %n, %out[%c] : memref<?xindex>
    indexing.yield
  }
  return
}

// ROUNDTRIP: indexing.stored %crd[%lo to %hi] nonunique segmented : memref<?xindex> -> !indexing.set
// ROUNDTRIP: indexing.segment_end %crd[%{{.*}} to %hi] : memref<?xindex>

// CHECK-LABEL: func.func @runs
// CHECK:         %[[FIRST_END:.*]] = scf.while
// CHECK:         scf.while (%[[P0:.*]] = %lo, %[[E0:.*]] = %[[FIRST_END]]) : (index, index) -> (index, index) {
// CHECK:           arith.cmpi ult, %{{.*}}, %hi : index
// CHECK:         } do {
// CHECK-NEXT:    ^{{.*}}(%[[P:.*]]: index, %[[END:.*]]: index):
// CHECK-NEXT:      %[[C:.*]] = memref.load %crd[%[[P]]] : memref<?xindex>
// CHECK-NEXT:      %[[N:.*]] = arith.subi %[[END]], %[[P]] : index
// CHECK-NEXT:      memref.store %[[N]], %out[%[[C]]] : memref<?xindex>
// CHECK:           %[[NEXT:.*]] = scf.while
// CHECK:           scf.yield %[[END]], %[[NEXT]] : index, index
// CHECK-NOT:     indexing.segment_end

// -----

// Outside a segmented loop, segment_end is a scan.

func.func @scan(%crd: memref<?xindex>, %p: index, %hi: index) -> index {
  %end = indexing.segment_end %crd[%p to %hi] : memref<?xindex>
  return %end : index
}

// CHECK-LABEL: func.func @scan
// CHECK:         %[[START:.*]] = arith.addi %p, %{{.*}} : index
// CHECK:         %[[END:.*]] = scf.while (%{{.*}} = %[[START]]) : (index) -> index {
// CHECK:         func.return %[[END]] : index
