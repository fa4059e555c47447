// RUN: xsparse-opt --split-input-file %s -p 'lower-indexing{strategy=dense-expansion}' | filecheck %s

// Intersection by dense expansion: scatter b's positions, iterate a.
func.func @dot(%ca: memref<?xindex>, %la: index, %ha: index, %cb: memref<?xindex>, %lb: index, %hb: index, %va: memref<?xf64>, %vb: memref<?xf64>, %init: f64) -> f64 {
  %a = indexing.stored %ca[%la to %ha] : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lb to %hb] : memref<?xindex> -> !indexing.set
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

// CHECK-LABEL: func.func @dot(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 0 : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.for %{{[0-9]+}} = %lb to %hb step %{{[0-9]+}} iter_args(%{{[0-9]+}} = %{{[0-9]+}}) -> (index) {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.maxui %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = memref.alloc(%{{[0-9]+}}) : memref<?xindex>
// CHECK-NEXT:  scf.for %{{[0-9]+}} = %{{[0-9]+}} to %{{[0-9]+}} step %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %{{[0-9]+}}, %{{[0-9]+}}[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.for %{{[0-9]+}} = %lb to %hb step %{{[0-9]+}} {
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  memref.store %{{[0-9]+}}, %{{[0-9]+}}[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  %r = scf.for %pa = %la to %ha step %{{[0-9]+}} iter_args(%acc = %init) -> (f64) {
// CHECK-NEXT:  %c = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %c, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.if %{{[0-9]+}} -> (index) {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %{{[0-9]+}}[%c] : memref<?xindex>
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ne, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %pb = arith.subi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.if %{{[0-9]+}} -> (f64) {
// CHECK-NEXT:  %x = memref.load %va[%pa] : memref<?xf64>
// CHECK-NEXT:  %y = memref.load %vb[%pb] : memref<?xf64>
// CHECK-NEXT:  %m = arith.mulf %x, %y : f64
// CHECK-NEXT:  %s = arith.addf %acc, %m : f64
// CHECK-NEXT:  scf.yield %s : f64
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %acc : f64
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : f64
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  memref.dealloc %{{[0-9]+}} : memref<?xindex>
// CHECK-NEXT:  func.return %r : f64
// CHECK-NEXT:  }

// -----


// Union by dense expansion: matched entries are cleared, then b's unmatched
// positions are iterated.
func.func @add(%ca: memref<?xindex>, %la: index, %ha: index, %cb: memref<?xindex>, %lb: index, %hb: index, %out: memref<?xindex>) {
  %a = indexing.stored %ca[%la to %ha] nonordered : memref<?xindex> -> !indexing.set
  %b = indexing.stored %cb[%lb to %hb] : memref<?xindex> -> !indexing.set
  %u = indexing.union %a, %b : !indexing.set
  indexing.foreach %u : !indexing.set
  case %pa, %pb at(%c) {
    %s = arith.addi %pa, %pb : index
    memref.store %s, %out[%c] : memref<?xindex>
    indexing.yield
  }
  case %pa, _ at(%c) {
    memref.store %pa, %out[%c] : memref<?xindex>
    indexing.yield
  }
  case _, %pb at(%c) {
    memref.store %pb, %out[%c] : memref<?xindex>
    indexing.yield
  }
  func.return
}

// CHECK-LABEL: func.func @add(
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 1 : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.constant 0 : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.for %{{[0-9]+}} = %lb to %hb step %{{[0-9]+}} iter_args(%{{[0-9]+}} = %{{[0-9]+}}) -> (index) {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = arith.maxui %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = memref.alloc(%{{[0-9]+}}) : memref<?xindex>
// CHECK-NEXT:  scf.for %{{[0-9]+}} = %{{[0-9]+}} to %{{[0-9]+}} step %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %{{[0-9]+}}, %{{[0-9]+}}[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.for %{{[0-9]+}} = %lb to %hb step %{{[0-9]+}} {
// CHECK-NEXT:  %{{[0-9]+}} = arith.addi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %cb[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  memref.store %{{[0-9]+}}, %{{[0-9]+}}[%{{[0-9]+}}] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  scf.for %pa = %la to %ha step %{{[0-9]+}} {
// CHECK-NEXT:  %c = memref.load %ca[%pa] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ult, %c, %{{[0-9]+}} : index
// CHECK-NEXT:  %{{[0-9]+}} = scf.if %{{[0-9]+}} -> (index) {
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %{{[0-9]+}}[%c] : memref<?xindex>
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  } else {
// CHECK-NEXT:  scf.yield %{{[0-9]+}} : index
// CHECK-NEXT:  }
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ne, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %{{[0-9]+}}, %{{[0-9]+}}[%c] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  %pb = arith.subi %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  %s = arith.addi %pa, %pb : index
// CHECK-NEXT:  memref.store %s, %out[%c] : memref<?xindex>
// CHECK-NEXT:  } else {
// CHECK-NEXT:  memref.store %pa, %out[%c] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  scf.for %pb_1 = %lb to %hb step %{{[0-9]+}} {
// CHECK-NEXT:  %c_1 = memref.load %cb[%pb_1] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = memref.load %{{[0-9]+}}[%c_1] : memref<?xindex>
// CHECK-NEXT:  %{{[0-9]+}} = arith.cmpi ne, %{{[0-9]+}}, %{{[0-9]+}} : index
// CHECK-NEXT:  scf.if %{{[0-9]+}} {
// CHECK-NEXT:  memref.store %pb_1, %out[%c_1] : memref<?xindex>
// CHECK-NEXT:  }
// CHECK-NEXT:  } {"Emitted from" = "linalg.generic"}
// CHECK-NEXT:  memref.dealloc %{{[0-9]+}} : memref<?xindex>
// CHECK-NEXT:  func.return
// CHECK-NEXT:  }
