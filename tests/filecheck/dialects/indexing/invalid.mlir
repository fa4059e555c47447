// RUN: %xsparse-diagnostics | filecheck %s

// The verifier rejects unsatisfiable or repeated cases, foreign set operands, and ill-typed blocks.

func.func @unsat(%lo: index, %hi: index, %ca: memref<?xindex>, %cb: memref<?xindex>) {
  %a = indexing.stored %ca[%lo to %hi] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lo to %hi] : memref<?xindex> -> !indexing.set
  %i = indexing.intersect %a, %b : !indexing.set
  indexing.foreach %i : !indexing.set
  case %pa, _ at(%c) {
    indexing.yield
  }
  func.return
}

// CHECK: error: 'indexing.foreach' op case 0: presence pattern (present, _) is not satisfiable by the set expression

// -----


func.func @diff(%lo: index, %hi: index, %ca: memref<?xindex>, %cb: memref<?xindex>) {
  %a = indexing.stored %ca[%lo to %hi] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lo to %hi] : memref<?xindex> -> !indexing.set
  %d = indexing.difference %a, %b : !indexing.set
  indexing.foreach %d : !indexing.set
  case %pa, %pb at(%c) {
    indexing.yield
  }
  func.return
}

// CHECK: error: 'indexing.foreach' op case 0: presence pattern (present, present) is not satisfiable by the set expression

// -----


func.func @twice(%lo: index, %hi: index, %ca: memref<?xindex>) {
  %a = indexing.stored %ca[%lo to %hi] : memref<?xindex> -> !indexing.set
  indexing.foreach %a : !indexing.set
  case %p at(%c) {
    indexing.yield
  }
  case %q at(%c) {
    indexing.yield
  }
  func.return
}

// CHECK: error: 'indexing.foreach' op case 1: pattern [0] listed twice

// -----


func.func @not_a_set_tree(%s: !indexing.set) {
  indexing.foreach %s : !indexing.set
  case %p at(%c) {
    indexing.yield
  }
  func.return
}

// CHECK: error: 'indexing.foreach' op expects a set built from indexing.range, indexing.stored, indexing.union, indexing.intersect and indexing.difference

// -----


func.func @yield_type(%lo: index, %hi: index, %ca: memref<?xindex>, %x: f64) -> f64 {
  %a = indexing.stored %ca[%lo to %hi] : memref<?xindex> -> !indexing.set
  %r = indexing.foreach %a iter_args(%x) : !indexing.set -> (f64)
  case %p at(%c) (%acc: f64) {
    indexing.yield %c : index
  }
  func.return %r : f64
}

// CHECK: error: 'indexing.foreach' op case 0: 'indexing.yield' types must match the iter_args types

// -----


func.func @no_case(%lo: index, %hi: index) {
  %r = indexing.range %lo to %hi : !indexing.set
  indexing.foreach %r : !indexing.set
  func.return
}

// CHECK: error: 'indexing.foreach' op expects at least one case

// -----


func.func @result_count(%lo: index, %hi: index, %x: f64) {
  %r = indexing.range %lo to %hi : !indexing.set
  %s = indexing.foreach %r iter_args(%x) : !indexing.set -> (f64, f64)
  case %p at(%c) (%acc: f64) {
    indexing.yield %acc : f64
  }
  func.return
}

// CHECK: error: expected one result type per iter_arg (1), got 2

// -----


func.func @crd_2d(%lo: index, %hi: index, %ca: memref<?x?xindex>) {
  %a = indexing.stored %ca[%lo to %hi] : memref<?x?xindex> -> !indexing.set
  func.return
}

// CHECK: error: 'indexing.stored' op expects a 1-D coordinates memref, got memref<?x?xindex>

// -----


func.func @crd_float(%lo: index, %hi: index, %ca: memref<?xf32>) {
  %a = indexing.stored %ca[%lo to %hi] : memref<?xf32> -> !indexing.set
  func.return
}

// CHECK: error: 'indexing.stored' op expects index or integer coordinates, got f32

// -----


func.func @linearize_arity(%i: index, %n0: index, %n1: index) -> index {
  %l = indexing.linearize %i by (%n0, %n1) : index
  func.return %l : index
}

// CHECK: error: 'indexing.linearize' op expects as many indices as basis sizes (at least one), got 1 and 2

// -----


func.func @delinearize_arity(%l: index, %n0: index, %n1: index) -> index {
  %m:3 = indexing.delinearize %l by (%n0, %n1) : index, index, index
  func.return %m#0 : index
}

// CHECK: error: 'indexing.delinearize' op expects one result per basis size (at least one), got 3 and 2

// -----


func.func @yield_outside(%x: f64) {
  indexing.yield %x : f64
}

// CHECK: error: 'indexing.yield' op 'indexing.yield' expects parent op 'indexing.foreach'

// -----

func.func @segmented_unique(%crd: memref<?xindex>, %lo: index, %hi: index) {
  %s = indexing.stored %crd[%lo to %hi] segmented : memref<?xindex> -> !indexing.set
  return
}
// CHECK: invalid.mlir:[[# @LINE - 3]]:3: error: 'indexing.stored' op 'segmented' needs an ordered 'nonunique' set
