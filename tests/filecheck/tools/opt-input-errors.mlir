// Input that is no MLIR text is a located error or one line, never a
// traceback: a byte that is not UTF-8 (at its line and column), an input
// without end, nesting past xsparse's limit (at the bracket it stops at).

// RUN: printf 'func.func @f() {\n  %%%%x = \377\n}\n' > %t.bad.mlir
// RUN: not xsparse-opt %t.bad.mlir 2>&1 | filecheck %s --check-prefix=UTF8
// UTF8:      {{^}}{{.*}}.bad.mlir:2:8: error: invalid UTF-8 byte 0xff in the input{{$}}
// UTF8-NEXT: {{^}}  %x = {{.}}{{$}}
// UTF8-NEXT: {{^}}       ^{{$}}

// RUN: not xsparse-opt /dev/zero 2>&1 | filecheck %s --check-prefix=ZERO
// ZERO:     {{^}}xsparse-opt: error: input '/dev/zero' is larger than 512 MiB{{$}}
// ZERO-NOT: {{.}}

// RUN: python -c "n = 200000; print('func.func @f() attributes {a = ' + '[' * n + ']' * n + '} {\n  return\n}')" > %t.deep.mlir
// RUN: not xsparse-opt %t.deep.mlir 2>&1 | filecheck %s --check-prefix=DEEP
// DEEP:     {{^}}{{.*}}.deep.mlir:1:{{[0-9]+}}: error: nesting too deep for xsparse (its limit is about 100000 levels){{$}}
// DEEP-NOT: Traceback
