"""The MLIR of one `func.func @kernel` computing an `Assignment`.

Each group of terms summed over the same indices becomes one `linalg.generic`
(one loop per index; `parallel` for the output's, `reduction` for the
others; one input per access, its indexing map from its letters), chained
through a dense output: the first group writes into the zero-filled output,
the next ones accumulate into it. A sparse output is one `linalg.generic`
into a `tensor.empty` sized by `tensor.dim` of the inputs. Operands keep
their own element types; the body casts them to the computed type
(`arith.sitofp`, `arith.extf`, `arith.extsi`), as numpy casts before it
computes. Sizes are dynamic (`?`): one kernel serves every shape.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.frontend.expression import (
    Access,
    Assignment,
    Binary,
    Delta,
    Expr,
    Literal,
    Negate,
    letters,
    signed_terms,
    walk,
)
from xsparse.frontend.operands import OperandInfo, encoding_text

ELEMENT_TYPES = {
    np.dtype(np.float64): "f64",
    np.dtype(np.float32): "f32",
    np.dtype(np.int64): "i64",
    np.dtype(np.int32): "i32",
}

_FLOAT_OPS = {
    "+": "arith.addf",
    "-": "arith.subf",
    "*": "arith.mulf",
    "/": "arith.divf",
}
_INT_OPS = {"+": "arith.addi", "-": "arith.subi", "*": "arith.muli"}


@dataclass(frozen=True)
class KernelSpec:
    """Everything the kernel's text depends on."""

    assignment: Assignment
    """The expression, sparse diagonals already rewritten with `Delta`."""
    operands: tuple[OperandInfo, ...]
    compute: np.dtype[Any]
    output: Encoding | None = None
    """A sparse output's encoding; None: a dense output argument `%out`."""
    final: Encoding | None = None
    """Convert the sparse output to this encoding before returning it."""
    conversions: dict[int, Encoding] = field(default_factory=dict[int, Encoding])
    """Accesses (by position among all accesses, in `walk` order) read
    through a `sparse_tensor.convert` to this encoding."""


def groups(
    assignment: Assignment,
) -> list[tuple[tuple[str, ...], list[tuple[bool, Expr]]]]:
    """The terms of the right side grouped by the indices they are summed
    over (in order of first appearance), each with those indices."""
    output = set(assignment.output)
    found: dict[tuple[str, ...], list[tuple[bool, Expr]]] = {}
    for negative, term in signed_terms(assignment.rhs):
        summed = tuple(x for x in letters(term) if x not in output)
        key = next((k for k in found if set(k) == set(summed)), summed)
        found.setdefault(key, []).append((negative, term))
    return list(found.items())


class _Emitter:
    """Lines of MLIR with fresh SSA names."""

    def __init__(self, spec: KernelSpec) -> None:
        self.spec = spec
        self.lines: list[str] = []
        self.count = 0
        self.aliases: dict[str, str] = {}
        self.compute = ELEMENT_TYPES[spec.compute]
        self.is_float = spec.compute.kind == "f"

    def fresh(self) -> str:
        self.count += 1
        return f"%v{self.count}"

    def emit(self, text: str) -> str:
        name = self.fresh()
        self.lines.append(f"    {name} = {text}")
        return name

    def tensor_type(self, rank: int, element: str, encoding: Encoding | None) -> str:
        dims = "?x" * rank
        if encoding is None:
            return f"tensor<{dims}{element}>"
        text = encoding_text(encoding)
        alias = self.aliases.setdefault(text, f"#E{len(self.aliases)}")
        return f"tensor<{dims}{element}, {alias}>"

    def operand_type(self, position: int) -> str:
        info = self.spec.operands[position]
        return self.tensor_type(info.rank, ELEMENT_TYPES[info.dtype], info.encoding)


def build_mlir(spec: KernelSpec) -> str:
    """The text of the kernel `spec` describes (a module with one function
    `@kernel`: the operands, then `%out` for a dense output)."""
    e = _Emitter(spec)
    rank = len(spec.assignment.output)
    out_type = e.tensor_type(rank, e.compute, spec.output)
    params = [f"%t{k}: {e.operand_type(k)}" for k in range(len(spec.operands))]
    if spec.output is None:
        params.append(f"%out: {out_type}")
        current = "%out"
    else:
        current = _empty(e, out_type)
    values = _access_values(e)
    # Repeated coordinates (a nonunique level) are summed: every entry adds.
    repeats = any(
        o.encoding is not None and not o.encoding.lvl_types[-1].is_unique
        for o in spec.operands
    )
    for position, (summed, terms) in enumerate(groups(spec.assignment)):
        accumulate = bool(summed) or position > 0 or repeats
        current = _generic(e, summed, terms, values, current, out_type, accumulate)
    result_type = out_type
    if spec.final is not None:
        result_type = e.tensor_type(rank, e.compute, spec.final)
        current = e.emit(
            f"sparse_tensor.convert {current} : {out_type} to {result_type}"
        )
    header = [f"{alias} = {text}" for text, alias in e.aliases.items()]
    body = [line[2:] for line in e.lines]
    return "\n".join(
        [
            *header,
            f"func.func @kernel({', '.join(params)}) -> {result_type} {{",
            *body,
            f"  return {current} : {result_type}",
            "}",
            "",
        ]
    )


def _empty(e: _Emitter, out_type: str) -> str:
    """`tensor.empty` sized by `tensor.dim` of the inputs carrying each output index."""
    sizes: list[str] = []
    for letter in e.spec.assignment.output:
        access = next(a for a in _accesses(e.spec) if letter in a.indices)
        dim = access.indices.index(letter)
        constant = e.emit(f"arith.constant {dim} : index")
        source = f"%t{access.operand}"
        sizes.append(
            e.emit(
                f"tensor.dim {source}, {constant} : {e.operand_type(access.operand)}"
            )
        )
    return e.emit(f"tensor.empty({', '.join(sizes)}) : {out_type}")


def _accesses(spec: KernelSpec) -> list[Access]:
    return [x for x in walk(spec.assignment.rhs) if isinstance(x, Access)]


def _access_values(e: _Emitter) -> dict[int, tuple[str, str]]:
    """Per access position: the SSA value read and its type (converted
    where the loop order needs another level order)."""
    values: dict[int, tuple[str, str]] = {}
    for position, access in enumerate(_accesses(e.spec)):
        source, source_type = f"%t{access.operand}", e.operand_type(access.operand)
        target = e.spec.conversions.get(position)
        if target is not None:
            info = e.spec.operands[access.operand]
            target_type = e.tensor_type(info.rank, ELEMENT_TYPES[info.dtype], target)
            source = e.emit(
                f"sparse_tensor.convert {source} : {source_type} to {target_type}"
            )
            source_type = target_type
        values[position] = (source, source_type)
    return values


def _generic(
    e: _Emitter,
    summed: tuple[str, ...],
    terms: list[tuple[bool, Expr]],
    values: dict[int, tuple[str, str]],
    current: str,
    out_type: str,
    accumulate: bool,
) -> str:
    loops = (*e.spec.assignment.output, *summed)
    all_accesses = _accesses(e.spec)
    ins: list[tuple[int, Access]] = []
    for _, term in terms:
        for access in (x for x in walk(term) if isinstance(x, Access)):
            position = next(p for p, a in enumerate(all_accesses) if a is access)
            ins.append((position, access))
    dims = ", ".join(f"d{n}" for n in range(len(loops)))

    def affine(indices: tuple[str, ...]) -> str:
        results = ", ".join(f"d{loops.index(x)}" for x in indices)
        return f"affine_map<({dims}) -> ({results})>"

    maps = [affine(a.indices) for _, a in ins] + [affine(e.spec.assignment.output)]
    kinds = ["parallel"] * len(e.spec.assignment.output) + ["reduction"] * len(summed)
    iterators = ", ".join(f'"{k}"' for k in kinds)
    trait = f"{{indexing_maps = [{', '.join(maps)}], iterator_types = [{iterators}]}}"
    in_values = ", ".join(values[p][0] for p, _ in ins)
    in_types = ", ".join(values[p][1] for p, _ in ins)
    ins_text = f" ins({in_values} : {in_types})" if ins else ""
    header = f"{trait}{ins_text} outs({current} : {out_type})"
    outer = e.lines
    e.lines = []
    arguments = {id(a): f"%a{n}" for n, (_, a) in enumerate(ins)}
    body = _Body(e, arguments, loops)
    value = body.terms(terms)
    if accumulate:
        value = e.emit(f"{_op(e, '+')} %o, {value} : {e.compute}")
    inner = e.lines
    e.lines = outer
    block_args = [
        f"%a{n}: {ELEMENT_TYPES[e.spec.operands[a.operand].dtype]}"
        for n, (_, a) in enumerate(ins)
    ]
    block_args.append(f"%o: {e.compute}")
    result = e.fresh()
    e.lines.append(f"    {result} = linalg.generic {header} {{")
    e.lines.append(f"    ^bb0({', '.join(block_args)}):")
    e.lines.extend(f"  {line}" for line in inner)
    e.lines.append(f"      linalg.yield {value} : {e.compute}")
    e.lines.append(f"    }} -> {out_type}")
    return result


def _op(e: _Emitter, op: str) -> str:
    return (_FLOAT_OPS if e.is_float else _INT_OPS)[op]


class _Body:
    """The scalar code of one `linalg.generic` body."""

    def __init__(self, e: _Emitter, arguments: dict[int, str], loops: tuple[str, ...]):
        self.e = e
        self.arguments = arguments
        self.loops = loops

    def terms(self, terms: list[tuple[bool, Expr]]) -> str:
        total: str | None = None
        for negative, term in terms:
            value = self.value(term)
            if total is None:
                total = self.negate(value) if negative else value
            else:
                total = self.e.emit(
                    f"{_op(self.e, '-' if negative else '+')} {total}, {value} : {self.e.compute}"
                )
        assert total is not None
        return total

    def value(self, expr: Expr) -> str:
        e = self.e
        if isinstance(expr, Access):
            return self.cast(
                self.arguments[id(expr)], e.spec.operands[expr.operand].dtype
            )
        if isinstance(expr, Literal):
            return e.emit(f"arith.constant {self.literal(expr.value)} : {e.compute}")
        if isinstance(expr, Negate):
            return self.negate(self.value(expr.operand))
        if isinstance(expr, Binary):
            lhs, rhs = self.value(expr.lhs), self.value(expr.rhs)
            return e.emit(f"{_op(e, expr.op)} {lhs}, {rhs} : {e.compute}")
        return self.delta(expr)

    def negate(self, value: str) -> str:
        e = self.e
        if e.is_float:
            return e.emit(f"arith.negf {value} : {e.compute}")
        zero = e.emit(f"arith.constant 0 : {e.compute}")
        return e.emit(f"arith.subi {zero}, {value} : {e.compute}")

    def cast(self, value: str, dtype: np.dtype[Any]) -> str:
        e = self.e
        source = ELEMENT_TYPES[dtype]
        if source == e.compute:
            return value
        if e.is_float and dtype.kind == "i":
            op = "arith.sitofp"
        else:
            op = "arith.extf" if e.is_float else "arith.extsi"
        return e.emit(f"{op} {value} : {source} to {e.compute}")

    def delta(self, expr: Delta) -> str:
        e = self.e
        first = e.emit(f"linalg.index {self.loops.index(expr.first)} : index")
        second = e.emit(f"linalg.index {self.loops.index(expr.second)} : index")
        same = e.emit(f"arith.cmpi eq, {first}, {second} : index")
        op = "arith.uitofp" if e.is_float else "arith.extui"
        return e.emit(f"{op} {same} : i1 to {e.compute}")

    def literal(self, value: float) -> str:
        if not self.e.is_float:
            return str(int(value))
        if self.e.compute == "f32":
            value = float(np.float32(value))
        if math.isfinite(value):
            return f"{value:.17e}"
        packed = struct.pack(">f" if self.e.compute == "f32" else ">d", value)
        return "0x" + packed.hex().upper()


_MATRIX_PRODUCT = """#A = {encoding}
func.func @{name}(%a: tensor<?x?x{t}, #A>, %b: {b_type}, %c: {c_type}) -> {c_type} {{{init}
  %0 = linalg.generic {{indexing_maps = [{maps}], iterator_types = [{iterators}]}}
      ins(%a, %b : tensor<?x?x{t}, #A>, {b_type}) outs(%{out} : {c_type}) {{
  ^bb0(%x: {t}, %y: {t}, %o: {t}):
    %m = arith.mulf %x, %y : {t}
    %s = arith.addf %o, %m : {t}
    linalg.yield %s : {t}
  }} -> {c_type}
  return %0 : {c_type}
}}
"""


_ZERO_INIT = """
  %zero = arith.constant 0.0 : {t}
  %init = linalg.fill ins(%zero : {t}) outs(%c : {c_type}) -> {c_type}"""


def matrix_product_source(
    encoding: str, element: str, matrix: bool, name: str, zero_init: bool = False
) -> str:
    """The MLIR of `@name` computing `C += A @ B` (`matrix`: SpMM) or
    `y += A @ x` (SpMV), A a sparse matrix in `encoding` (an
    `#sparse_tensor.encoding<...>`), of float type `element` (`f32`, `f64`);
    `zero_init`: `C = A @ B` (C filled with zeros first, C's values unread)."""
    if matrix:
        maps = (
            "affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, "
            "affine_map<(i, j, k) -> (i, j)>"
        )
        iterators = '"parallel", "parallel", "reduction"'
        b_type = c_type = f"tensor<?x?x{element}>"
    else:
        maps = (
            "affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, "
            "affine_map<(i, k) -> (i)>"
        )
        iterators = '"parallel", "reduction"'
        b_type = c_type = f"tensor<?x{element}>"
    init = _ZERO_INIT.format(t=element, c_type=c_type) if zero_init else ""
    return _MATRIX_PRODUCT.format(
        init=init,
        out="init" if zero_init else "c",
        encoding=encoding,
        name=name,
        t=element,
        maps=maps,
        iterators=iterators,
        b_type=b_type,
        c_type=c_type,
    )
