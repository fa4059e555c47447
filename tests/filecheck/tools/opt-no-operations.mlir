// An input without operations (only alias definitions, or nothing at all) is
// an empty module, as in mlir-opt-22.
// RUN: xsparse-opt %s | filecheck %s
// RUN: xsparse-opt - < /dev/null | filecheck %s
// RUN: %if mlir-opt %{ %mlir-opt %s | filecheck %s %}
// RUN: %if mlir-opt %{ %mlir-opt - < /dev/null | filecheck %s %}

// CHECK:      {{^(builtin\.)?}}module {
// CHECK-NEXT: {{^}}}
// CHECK-NOT:  {{.}}

#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#identity = affine_map<(d0) -> (d0)>
