// RUN: xsparse-opt %s -p sparse-tensor-codegen | filecheck %s

// Insertion into a sparse tensor under construction: the tensor becomes its
// level buffers plus their used sizes, carried through scf.for; each insert
// appends with amortized growth (realloc to twice the capacity when full);
// load hasInserts fills the positions of empty parents and shrinks every
// buffer to its used size.

#SV = #sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>
func.func @build(%n: index, %v: f64) -> tensor<?xf64, #SV> {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %init = tensor.empty(%n) : tensor<?xf64, #SV>
  %r = scf.for %i = %c0 to %n step %c2 iter_args(%t = %init) -> (tensor<?xf64, #SV>) {
    %u = tensor.insert %v into %t[%i] : tensor<?xf64, #SV>
    scf.yield %u : tensor<?xf64, #SV>
  }
  %l = sparse_tensor.load %r hasInserts : tensor<?xf64, #SV>
  return %l : tensor<?xf64, #SV>
}

// CHECK-LABEL: func.func @build(%{{.*}}: index, %{{.*}}: f64) -> (memref<?xindex>, memref<?xindex>, memref<?xf64>, index)
// CHECK:         %[[POS:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[CRD:.*]] = memref.alloc(%{{.*}}) : memref<?xindex>
// CHECK:         %[[VAL:.*]] = memref.alloc(%{{.*}}) : memref<?xf64>
// CHECK:         scf.for %[[I:.*]] = {{.*}} iter_args({{.*}}) -> (memref<?xindex>, memref<?xindex>, memref<?xf64>, index, index, index, index)
// CHECK:           arith.cmpi ugt
// CHECK:           scf.if %{{.*}} -> (memref<?xindex>)
// CHECK:             arith.maxui
// CHECK:             memref.realloc
// CHECK:           memref.store %[[I]]
// CHECK:           scf.if %{{.*}} -> (memref<?xf64>)
// CHECK:           scf.yield
// CHECK:         scf.for {{.*}} iter_args({{.*}}) -> (index)
// CHECK:           arith.select
// CHECK:         %[[P:.*]] = memref.realloc
// CHECK:         %[[C:.*]] = memref.realloc
// CHECK:         %[[V:.*]] = memref.realloc
// CHECK:         func.return %[[P]], %[[C]], %[[V]], %{{.*}}
