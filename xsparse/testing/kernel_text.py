"""MLIR text of a generated kernel (`kernel_cases.Case`): the kernel function
itself, and an MLIR-style integration program around it (`@main` builds the
inputs from dense constants with `sparse_tensor.convert`, calls the kernel and
prints the result with `vector.print` and `sparse_tensor.print`)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from xsparse.testing.kernel_cases import (
    Apply,
    Array,
    Binary,
    Case,
    Const,
    Expr,
    Identity,
    Input,
    LoopIndex,
    RegionArg,
    Select,
    Unary,
    is_float,
    reduce_identity,
    walk,
)

FLOAT_OPS = {
    "add": "arith.addf",
    "sub": "arith.subf",
    "mul": "arith.mulf",
    "max": "arith.maximumf",
    "min": "arith.minimumf",
    "neg": "arith.negf",
    "abs": "math.absf",
    "exp": "math.exp",
    "div": "arith.divf",
}
INT_OPS = {
    "add": "arith.addi",
    "sub": "arith.subi",
    "mul": "arith.muli",
    "max": "arith.maxsi",
    "min": "arith.minsi",
    "abs": "math.absi",
    "div": "arith.divsi",
    "rem": "arith.remsi",
}
PREDICATES = {
    ("gt", True): "ogt",
    ("lt", True): "olt",
    ("ne", True): "one",
    ("gt", False): "sgt",
    ("lt", False): "slt",
    ("ne", False): "ne",
}
INF_BITS = {
    ("f64", 1): "0x7FF0000000000000",
    ("f64", -1): "0xFFF0000000000000",
    ("f32", 1): "0x7F800000",
    ("f32", -1): "0xFF800000",
}


def constant(value: float, dtype: str) -> str:
    """The literal of `arith.constant` for `value` in `dtype`."""
    if not is_float(dtype):
        return str(int(value))
    if math.isinf(value):
        return INF_BITS[(dtype, 1 if value > 0 else -1)]
    return repr(float(value))


@dataclass
class Body:
    """Emits the ops of a body or region, naming values uniquely across regions."""

    dtype: str
    inputs: Sequence[str]
    indices: dict[int, str]
    counter: list[int] = field(default_factory=lambda: [0])
    lines: list[str] = field(default_factory=lambda: [])
    indent: str = "    "

    def fresh(self) -> str:
        self.counter[0] += 1
        return f"%v{self.counter[0]}"

    def emit(self, line: str) -> None:
        self.lines.append(self.indent + line)

    def op(self, name: str, args: Sequence[str]) -> str:
        result = self.fresh()
        self.emit(f"{result} = {name} {', '.join(args)} : {self.dtype}")
        return result

    def value(self, e: Expr, args: Sequence[str] = ()) -> str:
        """Emit `e` (RegionArg k is `args[k]`) and return its SSA name."""
        t = self.dtype
        if isinstance(e, Input):
            return self.inputs[e.index]
        if isinstance(e, RegionArg):
            return args[e.index]
        if isinstance(e, Const):
            result = self.fresh()
            self.emit(f"{result} = arith.constant {constant(e.value, t)} : {t}")
            return result
        if isinstance(e, LoopIndex):
            return self._index_value(e.loop)
        if isinstance(e, Apply):
            operands = [self.value(a, args) for a in e.args]
            if is_float(t):
                return self.op(FLOAT_OPS[e.op], operands)
            if e.op == "neg":
                zero = self.value(Const(0))
                return self.op("arith.subi", [zero, *operands])
            return self.op(INT_OPS[e.op], operands)
        if isinstance(e, Unary):
            return self._unary(e, args)
        if isinstance(e, Binary):
            return self._binary(e, args)
        return self._select(e, args)

    def _index_value(self, loop: int) -> str:
        index, t = self.indices[loop], self.dtype
        if is_float(t):
            wide = self.fresh()
            self.emit(f"{wide} = arith.index_cast {index} : index to i64")
            result = self.fresh()
            self.emit(f"{result} = arith.sitofp {wide} : i64 to {t}")
            return result
        result = self.fresh()
        self.emit(f"{result} = arith.index_cast {index} : index to {t}")
        return result

    def region(self, e: Expr | Identity | None, arity: int) -> str:
        """`{}`, `identity` or a region computing `e` from `arity` arguments."""
        if e is None:
            return "{}"
        if isinstance(e, Identity):
            return "identity"
        inner = Body(
            self.dtype, self.inputs, self.indices, self.counter, [], self.indent + "  "
        )
        names = [inner.fresh().replace("%v", "%r") for _ in range(arity)]
        header = (
            [f"{self.indent}^bb0({', '.join(f'{n}: {self.dtype}' for n in names)}):"]
            if arity
            else []
        )
        result = inner.value(e, names)
        inner.emit(f"sparse_tensor.yield {result} : {self.dtype}")
        return "{\n" + "\n".join([*header, *inner.lines]) + f"\n{self.indent}}}"

    def _unary(self, e: Unary, args: Sequence[str]) -> str:
        x = self.value(e.x, args)
        result = self.fresh()
        t = self.dtype
        self.emit(f"{result} = sparse_tensor.unary {x} : {t} to {t}")
        self.emit(f"  present = {self.region(e.present, 1)}")
        self.emit(f"  absent = {self.region(e.absent, 0)}")
        return result

    def _binary(self, e: Binary, args: Sequence[str]) -> str:
        x, y = self.value(e.x, args), self.value(e.y, args)
        result = self.fresh()
        t = self.dtype
        self.emit(f"{result} = sparse_tensor.binary {x}, {y} : {t}, {t} to {t}")
        self.emit(f"  overlap = {self.region(e.overlap, 2)}")
        self.emit(f"  left = {self.region(e.left, 1)}")
        self.emit(f"  right = {self.region(e.right, 1)}")
        return result

    def _select(self, e: Select, args: Sequence[str]) -> str:
        x = self.value(e.x, args)
        t = self.dtype
        inner = Body(t, self.inputs, self.indices, self.counter, [], self.indent + "  ")
        p = inner.fresh().replace("%v", "%r")
        test = inner.fresh()
        if e.predicate in ("triu", "tril"):
            i, j = (self.indices[loop] for loop in e.loops)
            cmp = "uge" if e.predicate == "triu" else "ule"
            inner.emit(f"{test} = arith.cmpi {cmp}, {j}, {i} : index")
        else:
            bound = inner.value(Const(e.bound))
            kind = "arith.cmpf" if is_float(t) else "arith.cmpi"
            pred = PREDICATES[(e.predicate, is_float(t))]
            inner.emit(f"{test} = {kind} {pred}, {p}, {bound} : {t}")
        inner.emit(f"sparse_tensor.yield {test} : i1")
        result = self.fresh()
        self.emit(f"{result} = sparse_tensor.select {x} : {t} {{")
        self.emit(f"^bb0({p}: {t}):")
        self.lines.extend(inner.lines)
        self.emit("}")
        return result


def loops_used(e: Expr) -> set[int]:
    """The loops whose `linalg.index` the body reads."""
    used: set[int] = set()
    for x in walk(e):
        if isinstance(x, LoopIndex):
            used.add(x.loop)
        elif isinstance(x, Select) and x.predicate in ("triu", "tril"):
            used |= set(x.loops)
    return used


def tensor_type(
    shape: Sequence[int], dtype: str, encoding: str | None, static: bool
) -> str:
    dims = "".join(f"{s if static else '?'}x" for s in shape)
    return f"tensor<{dims}{dtype}{', ' + encoding if encoding else ''}>"


def _affine_map(n: int, loops: Sequence[int]) -> str:
    dims = ", ".join(f"d{i}" for i in range(n))
    return f"affine_map<({dims}) -> ({', '.join(f'd{loop}' for loop in loops)})>"


@dataclass(frozen=True)
class Types:
    """The tensor types of a case's parameters (`inputs`), of the operands of
    its linalg.generic (`operands`, where the kernel converts some), of its
    output, and encoding aliases."""

    inputs: list[str]
    operands: list[str]
    output: str
    aliases: list[str]


def types_of(case: Case, static: bool) -> Types:
    aliases: list[str] = []
    inputs: list[str] = []
    operands: list[str] = []
    for k, op in enumerate(case.inputs):
        shape = case.shape_of(op)
        alias = None
        if op.format is not None:
            alias = f"#A{k}"
            aliases.append(f"{alias} = {op.format.text}")
        # (a constant's shape is known: its conversion keeps it static)
        operands.append(
            tensor_type(shape, case.dtype, alias, static or not op.is_parameter)
        )
        if not op.is_parameter:
            inputs.append(tensor_type(shape, case.dtype, None, True))
            continue
        given = op.param_format
        if op.source == "same":
            inputs.append(operands[-1])
            continue
        alias = None
        if given is not None:
            alias = f"#G{k}"
            aliases.append(f"{alias} = {given.text}")
        inputs.append(tensor_type(shape, case.dtype, alias, static))
    alias = None
    if case.out_format is not None:
        alias = "#OUT"
        aliases.append(f"{alias} = {case.out_format.text}")
    output = tensor_type(case.out_shape, case.dtype, alias, static)
    return Types(inputs, operands, output, aliases)


def kernel_text(case: Case, static: bool | None = None) -> str:
    """The kernel as a module with one function, `@kernel`."""
    static = case.static if static is None else static
    types = types_of(case, static)
    n = len(case.sizes)
    t = case.dtype
    params = [
        f"%t{k}: {ty}"
        for k, (ty, op) in enumerate(zip(types.inputs, case.inputs, strict=True))
        if op.is_parameter
    ]
    prologue = [
        f"%t{k} = arith.constant {sparse_literal(op.data, t)} : {types.inputs[k]}"
        for k, op in enumerate(case.inputs)
        if not op.is_parameter
    ]
    if case.out_kind == "empty":
        prologue += _empty_output(case, types, static)
    else:
        params.append(f"%init: {types.output}")
    if case.then_sum:
        params.append(f"%acc: tensor<{t}>")
    if case.update == "reduce":
        identity = constant(reduce_identity(case.reduce_op, t), t)
        prologue.append(f"%id = arith.constant {identity} : {t}")
    ins_names: list[str] = []
    for k, op in enumerate(case.inputs):
        if op.source == "same" or types.inputs[k] == types.operands[k]:
            ins_names.append(f"%t{k}")
            continue
        prologue.append(
            f"%u{k} = sparse_tensor.convert %t{k} : "
            f"{types.inputs[k]} to {types.operands[k]}"
        )
        ins_names.append(f"%u{k}")
    maps = [_affine_map(n, op.loops) for op in case.inputs]
    maps.append(_affine_map(n, case.out_loops))
    iterators = ", ".join(f'"{it}"' for it in case.iterators)
    ins = ", ".join(ins_names)
    block_args = [f"%a{k}: {t}" for k in range(len(case.inputs))] + [f"%o: {t}"]
    body = Body(t, [f"%a{k}" for k in range(len(case.inputs))], {})
    for loop in sorted(loops_used(case.body)):
        name = f"%i{loop}"
        body.indices[loop] = name
        body.emit(f"{name} = linalg.index {loop} : index")
    result = _update(case, body, body.value(case.body))
    returned, epilogue = types.output, [f"  return %r : {types.output}"]
    if case.then_sum:
        returned, epilogue = f"tensor<{t}>", _sum_of_result(case, types.output)
    lines = [
        *types.aliases,
        f"func.func @kernel({', '.join(params)}) -> {returned} {{",
        *(f"  {line}" for line in prologue),
        f"  %r = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
        f"iterator_types = [{iterators}]}}",
        f"      ins({ins} : {', '.join(types.operands)}) outs(%init : {types.output}) {{",
        f"  ^bb0({', '.join(block_args)}):",
        *body.lines,
        f"    linalg.yield {result} : {t}",
        f"  }} -> {types.output}",
        *epilogue,
        "}",
    ]
    return "\n".join(lines) + "\n"


def _sum_of_result(case: Case, output: str) -> list[str]:
    """A second generic reading the result: its sum added to `%acc`."""
    rank = len(case.out_loops)
    t = case.dtype
    add = FLOAT_OPS["add"] if is_float(t) else INT_OPS["add"]
    iterators = ", ".join(['"reduction"'] * rank)
    maps = f"{_affine_map(rank, range(rank))}, {_affine_map(rank, ())}"
    return [
        f"  %s = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}",
        f"      ins(%r : {output}) outs(%acc : tensor<{t}>) {{",
        f"  ^bb0(%x: {t}, %y: {t}):",
        f"    %z = {add} %y, %x : {t}",
        f"    linalg.yield %z : {t}",
        f"  }} -> tensor<{t}>",
        f"  return %s : tensor<{t}>",
    ]


def _empty_output(case: Case, types: Types, static: bool) -> list[str]:
    if static:
        return [f"%init = tensor.empty() : {types.output}"]
    lines: list[str] = []
    sizes: list[str] = []
    for d, loop in enumerate(case.out_loops):
        k, p = next(
            (k, op.loops.index(loop))
            for k, op in enumerate(case.inputs)
            if loop in op.loops
        )
        lines.append(f"%c{d} = arith.constant {p} : index")
        lines.append(f"%s{d} = tensor.dim %t{k}, %c{d} : {types.inputs[k]}")
        sizes.append(f"%s{d}")
    lines.append(f"%init = tensor.empty({', '.join(sizes)}) : {types.output}")
    return lines


def _update(case: Case, body: Body, value: str) -> str:
    """Combine the body's value with the output value `%o`."""
    t = case.dtype
    ops = FLOAT_OPS if is_float(t) else INT_OPS
    if case.update == "overwrite":
        return value
    if case.update == "add_swapped":
        return body.op(ops["add"], [value, "%o"])
    if case.update == "reduce":
        result = body.fresh()
        inner = Body(t, [], {}, body.counter, [], body.indent + "  ")
        p, q = (inner.fresh().replace("%v", "%r") for _ in range(2))
        combined = inner.op(ops[case.reduce_op], [p, q])
        body.emit(f"{result} = sparse_tensor.reduce %o, {value}, %id : {t} {{")
        body.emit(f"^bb0({p}: {t}, {q}: {t}):")
        body.lines.extend(inner.lines)
        body.emit(f"  sparse_tensor.yield {combined} : {t}")
        body.emit("}")
        return result
    return body.op(ops[case.update], ["%o", value])


# -- the integration program ---------------------------------------------------------


def dense_literal(data: Array, dtype: str) -> str:
    """`dense<...>` of `data` (a splat when it is all zeros or empty)."""
    zero = "0.0" if is_float(dtype) else "0"
    if data.size == 0 or not np.any(data):
        return f"dense<{zero}>"

    def nested(a: Array) -> str:
        if a.ndim == 0:
            return constant(float(a) if is_float(dtype) else int(a), dtype)
        return "[" + ", ".join(nested(row) for row in a) + "]"

    return f"dense<{nested(data)}>"


def sparse_literal(data: Array, dtype: str) -> str:
    """`sparse<[[i, j], ...], [v, ...]>` of the nonzeros of `data`
    (`sparse<>` when there are none), as MLIR's integration tests write the
    inputs they convert to sparse encodings."""
    if data.ndim == 0:
        return dense_literal(data, dtype)
    coords = np.argwhere(data)
    if len(coords) == 0:
        return "sparse<>"
    indices = ", ".join(
        "[" + ", ".join(str(int(c)) for c in row) + "]" for row in coords
    )
    values = ", ".join(
        constant(float(v) if is_float(dtype) else int(v), dtype)
        for v in data[tuple(coords.T)]
    )
    return f"sparse<[{indices}], [{values}]>"


def _print_dense(name: str, shape: Sequence[int], ttype: str, dtype: str) -> list[str]:
    """Print every element of a dense tensor, one `vector.print` each."""
    lines = ["%c0_i = arith.constant 0 : index", "%c1_i = arith.constant 1 : index"]
    for d, size in enumerate(shape):
        lines.append(f"%n{d}_i = arith.constant {size} : index")
    indent = ""
    for d in range(len(shape)):
        lines.append(f"{indent}scf.for %x{d} = %c0_i to %n{d}_i step %c1_i {{")
        indent += "  "
    indices = ", ".join(f"%x{d}" for d in range(len(shape)))
    lines.append(f"{indent}%e = tensor.extract {name}[{indices}] : {ttype}")
    lines.append(f"{indent}vector.print %e : {dtype}")
    for _ in shape:
        indent = indent[:-2]
        lines.append(f"{indent}}}")
    return lines


def program_text(case: Case) -> str:
    """An integration program: `@main` runs `@kernel` (static shapes) on the
    case's data and prints the result (and a sparse result's storage)."""
    types = types_of(case, static=True)
    t = case.dtype
    main: list[str] = []
    args: list[str] = []
    for k, op in enumerate(case.inputs):
        dense_type = tensor_type(case.shape_of(op), t, None, True)
        if not op.is_parameter:  # (the kernel holds it)
            continue
        if op.param_format is None:
            literal = dense_literal(op.data, t)
            main.append(f"%d{k} = arith.constant {literal} : {dense_type}")
            args.append(f"%d{k}")
            continue
        literal = sparse_literal(op.data, t)
        main.append(f"%d{k} = arith.constant {literal} : {dense_type}")
        main.append(
            f"%s{k} = sparse_tensor.convert %d{k} : {dense_type} to {types.inputs[k]}"
        )
        args.append(f"%s{k}")
    call_types = [
        ty for ty, op in zip(types.inputs, case.inputs, strict=True) if op.is_parameter
    ]
    if case.out_kind != "empty":
        dense_type = tensor_type(case.out_shape, t, None, True)
        main.append(
            f"%dinit = arith.constant {dense_literal(case.out_init, t)} : {dense_type}"
        )
        if case.out_kind == "inplace":
            main.append(
                f"%init = sparse_tensor.convert %dinit : {dense_type} to {types.output}"
            )
            args.append("%init")
        else:
            args.append("%dinit")
        call_types.append(types.output)
    if case.then_sum:
        main.append(f"%acc = arith.constant dense<{constant(1, t)}> : tensor<{t}>")
        args.append("%acc")
        call_types.append(f"tensor<{t}>")
        main.append(
            f"%r = call @kernel({', '.join(args)}) : ({', '.join(call_types)}) -> tensor<{t}>"
        )
        main += _print_dense("%r", (), f"tensor<{t}>", t)
    else:
        main.append(
            f"%r = call @kernel({', '.join(args)}) : ({', '.join(call_types)}) -> {types.output}"
        )
    dense_out = tensor_type(case.out_shape, t, None, True)
    if case.then_sum:
        pass  # the sum is printed
    elif case.out_format is not None:
        main.append(f"sparse_tensor.print %r : {types.output}")
        main.append(f"%rd = sparse_tensor.convert %r : {types.output} to {dense_out}")
        main += _print_dense("%rd", case.out_shape, dense_out, t)
    else:
        main += _print_dense("%r", case.out_shape, dense_out, t)
    main.append("return")
    kernel = kernel_text(case, static=True)
    return (
        f"{kernel}\nfunc.func @main() {{\n"
        + "".join(f"  {line}\n" for line in main)
        + "}\n"
    )
