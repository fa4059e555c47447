// RUN: xsparse-opt --split-input-file %s -p 'lower-indexing' | filecheck %s

// Single range: an scf.for over the coordinates.
func.func @single_range(%lo: index, %hi: index, %x: memref<?xf64>, %init: f64) -> f64 {
  %r = indexing.range %lo to %hi : !indexing.set
  %s = indexing.foreach %r iter_args(%init) : !indexing.set -> (f64)
  case %p at(%c) (%acc: f64) {
    %v = memref.load %x[%p] : memref<?xf64>
    %t = arith.addf %acc, %v : f64
    indexing.yield %t : f64
  }
  func.return %s : f64
}

// CHECK-LABEL: func.func @single_range(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %s = scf.for %p = %lo to %hi step %{{[0-9]+}} iter_args(%acc = %init) -> (f64) {
// CHECK-NEXT:  %v = memref.load %x[%p] : memref<?xf64>
// CHECK-NEXT:  %t = arith.addf %acc, %v : f64
// CHECK-NEXT:  scf.yield %t : f64
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return %s : f64
// CHECK-NEXT:  }

// -----


// Single stored leaf: an scf.for over positions; the coordinate is loaded (and
// zero-extended) only because the case uses it.
func.func @single_stored(%crd: memref<?xi32>, %lo: index, %hi: index, %out: memref<?xindex>) {
  %a = indexing.stored %crd[%lo to %hi] nonordered : memref<?xi32> -> !indexing.set
  indexing.foreach %a : !indexing.set
  case %p at(%c) {
    memref.store %p, %out[%c] : memref<?xindex>
    indexing.yield
  }
  func.return
}

// CHECK-LABEL: func.func @single_stored(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  scf.for %p = %lo to %hi step %{{[0-9]+}} {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %crd[%p] : memref<?xi32>
// CHECK-NEXT:  %{{[0-9]+}} = arith.extui %{{[0-9]+}} : i32 to i64
// CHECK-NEXT:  %c = arith.index_cast %{{[0-9]+}} : i64 to index
// CHECK-NEXT:  memref.store %p, %out[%c] : memref<?xindex>
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// -----


func.func @single_stored_no_crd(%crd: memref<?xindex>, %lo: index, %hi: index, %x: memref<?xf64>, %init: f64) -> f64 {
  %a = indexing.stored %crd[%lo to %hi] : memref<?xindex> -> !indexing.set
  %s = indexing.foreach %a iter_args(%init) : !indexing.set -> (f64)
  case %p at(%c) (%acc: f64) {
    %v = memref.load %x[%p] : memref<?xf64>
    %t = arith.addf %acc, %v : f64
    indexing.yield %t : f64
  }
  func.return %s : f64
}

// CHECK-LABEL: func.func @single_stored_no_crd(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %s = scf.for %p = %lo to %hi step %{{[0-9]+}} iter_args(%acc = %init) -> (f64) {
// CHECK-NEXT:  %v = memref.load %x[%p] : memref<?xf64>
// CHECK-NEXT:  %t = arith.addf %acc, %v : f64
// CHECK-NEXT:  scf.yield %t : f64
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return %s : f64
// CHECK-NEXT:  }

// -----


// Intersection with iter_args: one scf.while, no trailing loops (sparse dot).
func.func @intersect(%ca: memref<?xindex>, %la: index, %ha: index, %cb: memref<?xi32>, %lb: index, %hb: index, %va: memref<?xf64>, %vb: memref<?xf64>, %init: f64) -> f64 {
  %a = indexing.stored %ca[%la to %ha] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lb to %hb] : memref<?xi32> -> !indexing.set
  %i = indexing.intersect %a, %b : !indexing.set
  %r = indexing.foreach %i iter_args(%init) : !indexing.set -> (f64)
  case %pa, %pb at(%c) (%acc: f64) {
    %x = memref.load %va[%pa] : memref<?xf64>
    %y = memref.load %vb[%pb] : memref<?xf64>
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    indexing.yield %s : f64
  }
  func.return %r : f64
}

// CHECK-LABEL: func.func @intersect(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %{{[0-9]+}}, %{{[0-9]+}}, %r = scf.while (%{{[0-9]+}} = %la, %{{[0-9]+}} = %lb, %{{[0-9]+}} = %init) : (index, index, f64) -> (index, index, f64) {
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %ha : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %hb : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index, index, f64
// CHECK-NEXT:  } do {
// CHECK-NEXT:  ^bb0(%pa: index, %pb: index, %acc: f64):
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%pb] : memref<?xi32>
// CHECK-NEXT:  %{{[0-9]+}} = arith.extui %{{[0-9]+}} : i32 to i64
// CHECK-NEXT:  %{{[0-9]+}} = arith.index_cast %{{[0-9]+}} : i64 to index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %c = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  %{{[0-9]+}} = scf.if %{{[0-9]+}} -> (f64) {
// CHECK-NEXT:  %x = memref.load %va[%pa] : memref<?xf64>
// CHECK-NEXT:  %y = memref.load %vb[%pb] : memref<?xf64>
// CHECK-NEXT:  %m = arith.mulf %x, %y : f64
// CHECK-NEXT:  %s = arith.addf %acc, %m : f64
// CHECK-NEXT:  scf.yield %s : f64
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %acc : f64
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %pa, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %pa : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %pb, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %pb : index
// CHECK-NEXT:  scf.yield %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index, index, f64
// CHECK-NEXT:  } attributes {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return %r : f64
// CHECK-NEXT:  }

// -----


// Union: the two-way merge, then one trailing scf.for per side (sparse add).
func.func @union(%ca: memref<?xindex>, %la: index, %ha: index, %cb: memref<?xindex>, %lb: index, %hb: index, %va: memref<?xf64>, %vb: memref<?xf64>, %out: memref<?xf64>) {
  %a = indexing.stored %ca[%la to %ha] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lb to %hb] : memref<?xindex> -> !indexing.set
  %u = indexing.union %a, %b : !indexing.set
  indexing.foreach %u : !indexing.set
  case %pa, %pb at(%c) {
    %x = memref.load %va[%pa] : memref<?xf64>
    %y = memref.load %vb[%pb] : memref<?xf64>
    %s = arith.addf %x, %y : f64
    memref.store %s, %out[%c] : memref<?xf64>
    indexing.yield
  }
  case %pa, _ at(%c) {
    %x = memref.load %va[%pa] : memref<?xf64>
    memref.store %x, %out[%c] : memref<?xf64>
    indexing.yield
  }
  case _, %pb at(%c) {
    %y = memref.load %vb[%pb] : memref<?xf64>
    memref.store %y, %out[%c] : memref<?xf64>
    indexing.yield
  }
  func.return
}

// CHECK-LABEL: func.func @union(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %{{[0-9]+}}, %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %la, %{{[0-9]+}} = %lb) : (index, index) -> (index, index) {
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %ha : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %hb : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}} : index, index
// CHECK-NEXT:  } do {
// CHECK-NEXT:  ^bb0(%pa: index, %pb: index):
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%pb] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %c = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  %x = memref.load %va[%pa] : memref<?xf64>
// CHECK-NEXT:  %y = memref.load %vb[%pb] : memref<?xf64>
// CHECK-NEXT:  %s = arith.addf %x, %y : f64
// CHECK-NEXT:  memref.store %s, %out[%c] : memref<?xf64>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  %x_1 = memref.load %va[%pa] : memref<?xf64>
// CHECK-NEXT:  memref.store %x_1, %out[%c] : memref<?xf64>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  %y_1 = memref.load %vb[%pb] : memref<?xf64>
// CHECK-NEXT:  memref.store %y_1, %out[%c] : memref<?xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %pa, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %pa : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %pb, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %pb : index
// CHECK-NEXT:  scf.yield %{{[0-9]+}}, %{{[0-9]+}} : index, index
// CHECK-NEXT:  } attributes {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  scf.for %pa_1 = %{{[0-9]+}} to %ha step %{{[0-9]+}} {
// CHECK-NEXT:  %c_1 = memref.load %ca[%pa_1] : memref<?xindex>
// CHECK-NEXT:  %x_2 = memref.load %va[%pa_1] : memref<?xf64>
// CHECK-NEXT:  memref.store %x_2, %out[%c_1] : memref<?xf64>
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  scf.for %pb_1 = %{{[0-9]+}} to %hb step %{{[0-9]+}} {
// CHECK-NEXT:  %c_2 = memref.load %cb[%pb_1] : memref<?xindex>
// CHECK-NEXT:  %y_2 = memref.load %vb[%pb_1] : memref<?xf64>
// CHECK-NEXT:  memref.store %y_2, %out[%c_2] : memref<?xf64>
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// -----


// Difference: iterate a, advance b's cursor while it is behind.
func.func @difference(%ca: memref<?xindex>, %la: index, %ha: index, %cb: memref<?xindex>, %lb: index, %hb: index, %out: memref<?xindex>) {
  %a = indexing.stored %ca[%la to %ha] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lb to %hb] : memref<?xindex> -> !indexing.set
  %d = indexing.difference %a, %b : !indexing.set
  indexing.foreach %d : !indexing.set
  case %pa, _ at(%c) {
    memref.store %pa, %out[%c] : memref<?xindex>
    indexing.yield
  }
  func.return
}

// CHECK-LABEL: func.func @difference(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant -1 : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant true
// CHECK-NEXT:  %{{[0-9]+}} = scf.for %pa = %la to %ha step %{{[0-9]+}} iter_args(%{{[0-9]+}} = %lb) -> (index) {
// CHECK-NEXT:  %c = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %{{[0-9]+}}) : (index) -> index {
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %hb : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.if %{{[0-9]+}} -> (index) {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  scf.condition(%{{[0-9]+}}) %{{[0-9]+}} : index
// CHECK-NEXT:  } do {
// CHECK-NEXT:  ^bb0(%{{[0-9]+}}: index):
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %hb : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.if %{{[0-9]+}} -> (index) {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.xori %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %pa, %out[%c] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// -----


// A range in an intersection is located, not iterated.
func.func @range_intersect(%lo: index, %hi: index, %ca: memref<?xindex>, %la: index, %ha: index, %out: memref<?xindex>) {
  %r = indexing.range %lo to %hi : !indexing.set
  %a = indexing.stored %ca[%la to %ha] : memref<?xindex> -> !indexing.set
  %i = indexing.intersect %r, %a : !indexing.set
  indexing.foreach %i : !indexing.set
  case %pr, %pa at(%c) {
    memref.store %pa, %out[%pr] : memref<?xindex>
    indexing.yield
  }
  func.return
}

// CHECK-LABEL: func.func @range_intersect(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  scf.for %pa = %la to %ha step %{{[0-9]+}} {
// CHECK-NEXT:  %pr = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ule, %lo, %pr : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %pr, %hi : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %pa, %out[%pr] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// -----


// A range in a union drives the merge as a cursor of its own.
func.func @range_union(%lo: index, %hi: index, %ca: memref<?xindex>, %la: index, %ha: index, %x: memref<?xf64>, %out: memref<?xf64>) {
  %r = indexing.range %lo to %hi : !indexing.set
  %a = indexing.stored %ca[%la to %ha] : memref<?xindex> -> !indexing.set
  %u = indexing.union %a, %r : !indexing.set
  %zero = arith.constant 0.0 : f64
  indexing.foreach %u : !indexing.set
  case %pa, %pr at(%c) {
    %v = memref.load %x[%pa] : memref<?xf64>
    memref.store %v, %out[%pr] : memref<?xf64>
    indexing.yield
  }
  case _, %pr at(%c) {
    memref.store %zero, %out[%pr] : memref<?xf64>
    indexing.yield
  }
  func.return
}

// CHECK-LABEL: func.func @range_union(
// CHECK-NEXT:  %zero = arith.constant 0.000000e+00 : f64
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %{{[0-9]+}}, %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %la, %{{[0-9]+}} = %lo) : (index, index) -> (index, index) {
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %ha : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %{{[0-9]+}}, %hi : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}} : index, index
// CHECK-NEXT:  } do {
// CHECK-NEXT:  ^bb0(%pa: index, %pr: index):
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %pr, %{{[0-9]+}} : index
// CHECK-NEXT:  %c = arith.select %{{[0-9]+}}, %pr, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %{{[0-9]+}}, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi eq, %pr, %c : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.andi %{{[0-9]+}}, %{{[0-9]+}} : i1
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  %v = memref.load %x[%pa] : memref<?xf64>
// CHECK-NEXT:  memref.store %v, %out[%pr] : memref<?xf64>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %zero, %out[%pr] : memref<?xf64>
// CHECK-NEXT:  }
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %pa, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %pa : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %pr, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.select %{{[0-9]+}}, %{{[0-9]+}}, %pr : index
// CHECK-NEXT:  scf.yield %{{[0-9]+}}, %{{[0-9]+}} : index, index
// CHECK-NEXT:  } attributes {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  scf.for %pr_1 = %{{[0-9]+}} to %hi step %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %zero, %out[%pr_1] : memref<?xf64>
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }

// -----


// Three-way union: seven lattice points, largest first.
func.func @union3(%ca: memref<?xindex>, %cb: memref<?xindex>, %cc: memref<?xindex>, %lo: index, %hi: index, %init: index) -> index {
  %a = indexing.stored %ca[%lo to %hi] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lo to %hi] : memref<?xindex> -> !indexing.set
  %c = indexing.stored %cc[%lo to %hi] : memref<?xindex> -> !indexing.set
  %ab = indexing.union %a, %b : !indexing.set
  %abc = indexing.union %ab, %c : !indexing.set
  %n = indexing.foreach %abc iter_args(%init) : !indexing.set -> (index)
  case %pa, _, _ at(%i) (%acc: index) {
    %t = arith.addi %acc, %pa : index
    indexing.yield %t : index
  }
  case _, %pb, _ at(%i) (%acc: index) {
    %t = arith.addi %acc, %pb : index
    indexing.yield %t : index
  }
  case _, _, %pc at(%i) (%acc: index) {
    %t = arith.addi %acc, %pc : index
    indexing.yield %t : index
  }
  func.return %n : index
}

// CHECK-LABEL: func.func @union3(
// CHECK:        %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %lo, %{{[0-9]+}} = %lo, %{{[0-9]+}} = %lo, %{{[0-9]+}} = %init) : (index, index, index, index) -> (index, index, index, index) {
// CHECK:        scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index, index, index, index
// CHECK:        %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}) : (index, index, index) -> (index, index, index) {
// CHECK:        scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index, index, index
// CHECK:        %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}) : (index, index, index) -> (index, index, index) {
// CHECK:        scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index, index, index
// CHECK:        %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} = scf.while (%{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}, %{{[0-9]+}} = %{{[0-9]+}}) : (index, index, index) -> (index, index, index) {
// CHECK:        scf.condition(%{{[0-9]+}}) %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}} : index, index, index
// CHECK:        %{{[0-9]+}} = scf.for %pa_3 = %{{[0-9]+}} to %hi step %{{[0-9]+}} iter_args(%acc_4 = %{{[0-9]+}}) -> (index) {
// CHECK:        %{{[0-9]+}} = scf.for %pb_3 = %{{[0-9]+}} to %hi step %{{[0-9]+}} iter_args(%acc_5 = %{{[0-9]+}}) -> (index) {
// CHECK:        %n = scf.for %pc_3 = %{{[0-9]+}} to %hi step %{{[0-9]+}} iter_args(%acc_6 = %{{[0-9]+}}) -> (index) {
// CHECK:        func.return %n : index
