// RUN: not xsparse-opt %s -p lower-indexing 2>&1 | filecheck %s

// Co-iteration needs ordered, unique leaves; dense expansion does not.

func.func @f(%ca: memref<?xindex>, %cb: memref<?xindex>, %lo: index, %hi: index) {
  %a = indexing.stored %ca[%lo to %hi] nonordered : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lo to %hi] : memref<?xindex> -> !indexing.set
  %i = indexing.intersect %a, %b : !indexing.set
  indexing.foreach %i : !indexing.set
  case %pa, %pb at(%c) {
    indexing.yield
  }
  func.return
}

// CHECK: unsupported.mlir:[[# @LINE - 7]]:3: error: 'indexing.foreach' op leaf 0 is nonordered or nonunique and cannot be co-iterated; use lower-indexing{strategy=dense-expansion}
