"""The llvm dialect printed as LLVM IR text (what `mlir-translate --mlir-to-llvmir` does).

Block arguments become `phi` nodes fed by the branches of their
predecessors; `llvm.mlir.constant`, `poison`, `undef`, `zero` and
`addressof` are printed inline at their uses, as LLVM IR requires for
constants. Floating-point instructions and calls carry the fast-math flags
of their op (`fastmathFlags`); `fast_math=True` puts `fast` on all of them.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects import llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    BFloat16Type,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    StringAttr,
)
from xdsl.dialects.utils import FastMathAttrBase
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.utils.exceptions import DiagnosticException

from xsparse.backend.llvm_names import symbol_text
from xsparse.dialects.type_guards import is_vector_type
from xsparse.dialects.upstream.builtin import MAX_DENSE_ELEMENTS, SparseElementsAttr
from xsparse.dialects.upstream.llvm import (
    Atan2Op,
    ExtractElementOp,
    FPToSIOp,
    FPToUIOp,
    IntegerIntrinsicOp,
    MaskedGatherOp,
    MaskedLoadOp,
    MaskedScatterOp,
    MaskedStoreOp,
    MemcpyOp,
    PoisonOp,
    UIToFPOp,
    VectorReduceOp,
)
from xsparse.transforms.convert_to_llvm.common import NO_INLINE, by_class, mangle
from xsparse.transforms.errors import PassFailure

_ICMP = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
_FCMP = (
    "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
    "ueq", "ugt", "uge", "ult", "ule", "une", "uno", "true",
)  # fmt: skip

_BINARY: dict[type[Operation], str] = {
    llvm.AddOp: "add",
    llvm.SubOp: "sub",
    llvm.MulOp: "mul",
    llvm.UDivOp: "udiv",
    llvm.SDivOp: "sdiv",
    llvm.URemOp: "urem",
    llvm.SRemOp: "srem",
    llvm.AndOp: "and",
    llvm.OrOp: "or",
    llvm.XOrOp: "xor",
    llvm.ShlOp: "shl",
    llvm.LShrOp: "lshr",
    llvm.AShrOp: "ashr",
}
_FLOAT_BINARY: dict[type[Operation], str] = {
    llvm.FAddOp: "fadd",
    llvm.FSubOp: "fsub",
    llvm.FMulOp: "fmul",
    llvm.FDivOp: "fdiv",
    llvm.FRemOp: "frem",
}
_CASTS: dict[type[Operation], str] = {
    llvm.TruncOp: "trunc",
    llvm.ZExtOp: "zext",
    llvm.SExtOp: "sext",
    llvm.SIToFPOp: "sitofp",
    UIToFPOp: "uitofp",
    FPToSIOp: "fptosi",
    FPToUIOp: "fptoui",
    llvm.FPExtOp: "fpext",
    llvm.FPTruncOp: "fptrunc",
    llvm.BitcastOp: "bitcast",
    llvm.PtrToIntOp: "ptrtoint",
    llvm.IntToPtrOp: "inttoptr",
}


def type_text(t: Attribute) -> str:
    """An MLIR type as LLVM IR type syntax."""
    if isinstance(t, IntegerType):
        return f"i{t.width.data}"
    if isinstance(t, Float64Type):
        return "double"
    if isinstance(t, Float32Type):
        return "float"
    if isinstance(t, Float16Type):
        return "half"
    if isinstance(t, BFloat16Type):
        return "bfloat"
    if isinstance(t, llvm.LLVMPointerType):
        return "ptr"
    if isinstance(t, llvm.LLVMVoidType):
        return "void"
    if isinstance(t, llvm.LLVMStructType):
        return "{ " + ", ".join(type_text(f) for f in t.types.data) + " }"
    if isinstance(t, llvm.LLVMArrayType):
        return f"[{t.size.data} x {type_text(t.type)}]"
    if is_vector_type(t):
        (n,) = t.get_shape()
        scalable = "vscale x " if t.get_num_scalable_dims() else ""
        return f"<{scalable}{n} x {type_text(t.element_type)}>"
    raise DiagnosticException(f"type {t} has no LLVM IR equivalent")


def _float_text(value: float, t: Attribute) -> str:
    if isinstance(t, Float32Type):
        value = struct.unpack("<f", struct.pack("<f", value))[0]
    if isinstance(t, Float16Type | BFloat16Type):
        bits = int.from_bytes(t.pack([value]), "little")
        return f"0x{'H' if isinstance(t, Float16Type) else 'R'}{bits:04X}"
    bits = struct.unpack("<Q", struct.pack("<d", value))[0]
    return f"0x{bits:016X}"


def _scalar_text(value: int | float, t: Attribute) -> str:
    if isinstance(t, IntegerType):
        if t.width.data == 1:
            return "true" if int(value) & 1 else "false"
        return str(int(value))
    return _float_text(float(value), t)


def constant_text(attr: Attribute, t: Attribute) -> str:
    """The literal of an `llvm.mlir.constant` / global initializer."""
    if isinstance(attr, IntegerAttr):
        return _scalar_text(attr.value.data, t)
    if isinstance(attr, FloatAttr):
        return _float_text(attr.value.data, t)
    if isinstance(attr, ArrayAttr) and isinstance(t, llvm.LLVMStructType):
        fields = zip(t.types.data, attr.data, strict=True)
        return (
            "{ "
            + ", ".join(f"{type_text(f)} {constant_text(v, f)}" for f, v in fields)
            + " }"
        )
    if isinstance(attr, SparseElementsAttr):
        if attr.dense_size() > MAX_DENSE_ELEMENTS:
            raise DiagnosticException(
                f"a global of {attr.dense_size()} elements is too large for xsparse"
            )
        attr = attr.to_dense()  # MLIR's LLVM IR translation writes every element
    if isinstance(attr, DenseIntOrFPElementsAttr):
        values = list(attr.get_values())
        if is_vector_type(t):
            element = t.element_type
            if t.get_num_scalable_dims() or (
                values and all(v == values[0] for v in values)
            ):
                return (
                    f"splat ({type_text(element)} {_scalar_text(values[0], element)})"
                )
            return (
                "<"
                + ", ".join(
                    f"{type_text(element)} {_scalar_text(v, element)}" for v in values
                )
                + ">"
            )
        return _array_text(values, t)
    raise DiagnosticException(f"unsupported constant {attr}")


def _array_text(values: Sequence[Any], t: Attribute) -> str:
    if isinstance(t, llvm.LLVMStructType):
        # a complex number: xDSL lists it as its (real, imaginary) pair
        fields = zip(t.types.data, values[0], strict=True)
        return (
            "{ "
            + ", ".join(f"{type_text(f)} {_float_text(v, f)}" for f, v in fields)
            + " }"
        )
    if not isinstance(t, llvm.LLVMArrayType):
        return _scalar_text(values[0], t)
    inner = t.type
    n = t.size.data
    chunk = len(values) // n if n else 0
    parts = [
        f"{type_text(inner)} {_array_text(values[i * chunk : (i + 1) * chunk], inner)}"
        for i in range(n)
    ]
    return "[" + ", ".join(parts) + "]"


_FAST_MATH_ORDER = ("nnan", "ninf", "nsz", "arcp", "contract", "afn", "reassoc")
"""LLVM's fast-math flags, in the order LLVM prints them (all of them: `fast`)."""


def _fast_math(p: _FunctionPrinter, op: Operation) -> str:
    """The fast-math flags of a floating-point instruction or call, with a
    leading space ("" for none)."""
    if p.fast:
        return p.fast
    attr = op.properties.get("fastmathFlags")
    if not isinstance(attr, FastMathAttrBase):
        return ""
    names = {flag.value for flag in attr.data}
    if "fast" in names or names.issuperset(_FAST_MATH_ORDER):
        return " fast"
    return "".join(f" {name}" for name in _FAST_MATH_ORDER if name in names)


def _is_float_type(t: Attribute) -> bool:
    if is_vector_type(t):
        t = t.element_type
    return isinstance(t, Float16Type | Float32Type | Float64Type)


class _FunctionPrinter:
    """Prints one `llvm.func` with a body."""

    def __init__(self, func: llvm.FuncOp, module: _ModulePrinter):
        self.func = func
        self.module = module
        self.names: dict[SSAValue, str] = {}
        self.labels: dict[Block, str] = {}
        self.lines: list[str] = []
        self.counter = 0
        self.incoming: dict[Block, list[tuple[str, Sequence[SSAValue]]]] = {}
        """Per block, the labels its edges come from and the values they pass."""
        self.trampolines: dict[Block, str] = {}
        """A block whose `llvm.cond_br` reaches one block with arguments on
        both edges: the label of the block its else edge goes through (a
        `phi` tells edges apart by the block they come from)."""
        self.fast = " fast" if module.fast_math else ""

    def fresh(self) -> str:
        self.counter += 1
        return f"%v{self.counter}"

    def value(self, v: SSAValue) -> str:
        name = self.names.get(v)
        if name is not None:
            return name
        owner = v.owner
        if isinstance(owner, llvm.ConstantOp):
            text = constant_text(owner.value, v.type)
        elif isinstance(owner, PoisonOp):
            text = "poison"
        elif isinstance(owner, llvm.UndefOp):
            text = "undef"
        elif isinstance(owner, llvm.ZeroOp):
            text = (
                "zeroinitializer"
                if not isinstance(v.type, llvm.LLVMPointerType)
                else "null"
            )
        elif isinstance(owner, llvm.AddressOfOp):
            text = symbol_text(owner.global_name.root_reference.data)
        else:
            raise DiagnosticException(f"value {v} used before its definition")
        self.names[v] = text
        return text

    def typed(self, v: SSAValue) -> str:
        return f"{type_text(v.type)} {self.value(v)}"

    def print(self) -> list[str]:
        f = self.func
        blocks = list(f.body.blocks)
        for i, block in enumerate(blocks):
            self.labels[block] = f"bb{i}"
        entry = blocks[0]
        params: list[str] = []
        for arg in entry.args:
            name = self.fresh()
            self.names[arg] = name
            params.append(f"{type_text(arg.type)} {name}")
        for block in blocks:
            terminator = block.last_op
            if terminator is None:
                continue
            label = self.labels[block]
            if isinstance(terminator, llvm.BrOp):
                self._edge(label, terminator.successor, terminator.operands)
            elif isinstance(terminator, llvm.CondBrOp):
                then_block, else_block = terminator.successors
                else_from = label
                if then_block is else_block and (
                    terminator.then_arguments or terminator.else_arguments
                ):
                    else_from = self.trampolines[block] = f"{label}.else"
                self._edge(label, then_block, terminator.then_arguments)
                self._edge(else_from, else_block, terminator.else_arguments)
        for block in blocks:
            if block is not entry:
                for arg in block.args:
                    self.names[arg] = self.fresh()
            for op in block.ops:
                if op.results and not isinstance(op, _INLINE):
                    self.names[op.results[0]] = self.fresh()
        ret = type_text(f.function_type.output)
        header = f"define {self._linkage()}{ret} {symbol_text(f.sym_name.data)}({', '.join(params)})"
        if NO_INLINE in f.attributes:
            header += " noinline"
        self.lines.append(header + " {")
        for block in blocks:
            self._block(block)
        self.lines.append("}")
        return self.lines

    def _linkage(self) -> str:
        linkage = self.func.linkage.linkage.data
        return "" if linkage == "external" else f"{linkage} "

    def _edge(self, source: str, target: Block, operands: Sequence[SSAValue]) -> None:
        self.incoming.setdefault(target, []).append((source, operands))

    def _block(self, block: Block) -> None:
        self.lines.append(f"{self.labels[block]}:")
        is_entry = block is self.func.body.blocks[0]
        for i, arg in enumerate(() if is_entry else block.args):
            sources = ", ".join(
                f"[ {self.value(ops[i])}, %{src} ]"
                for src, ops in self.incoming.get(block, [])
            )
            self.lines.append(
                f"  {self.names[arg]} = phi {type_text(arg.type)} {sources}"
            )
        for op in block.ops:
            text = self._op(op)
            if text is not None:
                self.lines.append("  " + text)
        trampoline = self.trampolines.get(block)
        if trampoline is not None:
            terminator = block.last_op
            assert isinstance(terminator, llvm.CondBrOp)
            target = self.labels[terminator.successors[1]]
            self.lines.extend([f"{trampoline}:", f"  br label %{target}"])

    def _result(self, op: Operation) -> str:
        return self.names[op.results[0]]

    def _op(self, op: Operation) -> str | None:
        handler = by_class(_HANDLERS, op)
        if handler is None:
            raise PassFailure(op, "cannot be translated to LLVM IR")
        return handler(self, op)


Handler = Callable[[_FunctionPrinter, Operation], "str | None"]
_HANDLERS: dict[type[Operation], Handler] = {}


def _handles(*types: type[Operation]) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        for t in types:
            _HANDLERS[t] = handler
        return handler

    return register


_INLINE = (llvm.ConstantOp, PoisonOp, llvm.UndefOp, llvm.ZeroOp, llvm.AddressOfOp)


@_handles(*_INLINE)
def _inline(p: _FunctionPrinter, op: Operation) -> str | None:
    return None


@_handles(*_BINARY)
def _binary(p: _FunctionPrinter, op: Operation) -> str:
    lhs, rhs = op.operands
    v = p.value(rhs)
    return f"{p._result(op)} = {_BINARY[type(op)]} {p.typed(lhs)}, {v}"


@_handles(*_FLOAT_BINARY)
def _float_binary(p: _FunctionPrinter, op: Operation) -> str:
    lhs, rhs = op.operands
    v = p.value(rhs)
    flags = _fast_math(p, op)
    return f"{p._result(op)} = {_FLOAT_BINARY[type(op)]}{flags} {p.typed(lhs)}, {v}"


@_handles(llvm.FNegOp)
def _fneg(p: _FunctionPrinter, op: Operation) -> str:
    return f"{p._result(op)} = fneg{_fast_math(p, op)} {p.typed(op.operands[0])}"


@_handles(llvm.ICmpOp)
def _icmp(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.ICmpOp)
    predicate = _ICMP[op.predicate.value.data]
    return f"{p._result(op)} = icmp {predicate} {p.typed(op.lhs)}, {p.value(op.rhs)}"


@_handles(llvm.FCmpOp)
def _fcmp(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.FCmpOp)
    predicate = _FCMP[op.predicate.value.data]
    flags = _fast_math(p, op)
    return f"{p._result(op)} = fcmp{flags} {predicate} {p.typed(op.lhs)}, {p.value(op.rhs)}"


@_handles(llvm.SelectOp)
def _select(p: _FunctionPrinter, op: Operation) -> str:
    c, a, b = op.operands
    return f"{p._result(op)} = select {p.typed(c)}, {p.typed(a)}, {p.typed(b)}"


@_handles(*_CASTS)
def _cast(p: _FunctionPrinter, op: Operation) -> str:
    to = type_text(op.results[0].type)
    return f"{p._result(op)} = {by_class(_CASTS, op)} {p.typed(op.operands[0])} to {to}"


@_handles(llvm.GEPOp)
def _gep(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.GEPOp)
    dynamic = iter(op.ssa_indices)
    indices: list[str] = []
    for index in op.rawConstantIndices.get_values():
        if index == llvm.GEP_USE_SSA_VAL:
            indices.append(p.typed(next(dynamic)))
        else:
            indices.append(f"i32 {index}")
    inbounds = " inbounds" if op.inbounds is not None else ""
    # xDSL types `elem_type` as required; kept defensive for unverified ops
    element = (
        type_text(op.elem_type)
        if op.elem_type is not None  # pyright: ignore[reportUnnecessaryComparison]
        else "i8"
    )
    return (
        f"{p._result(op)} = getelementptr{inbounds} {element}, "
        f"{p.typed(op.ptr)}, {', '.join(indices)}"
    )


@_handles(llvm.LoadOp)
def _load(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.LoadOp)
    align = f", align {op.alignment.value.data}" if op.alignment is not None else ""
    t = type_text(op.dereferenced_value.type)
    return f"{p._result(op)} = load {t}, {p.typed(op.ptr)}{align}"


@_handles(llvm.StoreOp)
def _store(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.StoreOp)
    align = f", align {op.alignment.value.data}" if op.alignment is not None else ""
    hint = ""
    if op.nontemporal is not None:
        hint = f", !nontemporal {p.module.metadata_node('!{i32 1}')}"
    return f"store {p.typed(op.value)}, {p.typed(op.ptr)}{align}{hint}"


@_handles(llvm.AllocaOp)
def _alloca(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.AllocaOp)
    align = f", align {op.alignment.value.data}" if op.alignment is not None else ""
    return (
        f"{p._result(op)} = alloca {type_text(op.elem_type)}, {p.typed(op.size)}{align}"
    )


def _position(op: Operation) -> str:
    position = op.properties["position"]
    assert isinstance(position, DenseArrayBase)
    return ", ".join(str(i) for i in position.get_values())


@_handles(llvm.ExtractValueOp)
def _extractvalue(p: _FunctionPrinter, op: Operation) -> str:
    return f"{p._result(op)} = extractvalue {p.typed(op.operands[0])}, {_position(op)}"


@_handles(llvm.InsertValueOp)
def _insertvalue(p: _FunctionPrinter, op: Operation) -> str:
    container, value = op.operands
    return (
        f"{p._result(op)} = insertvalue {p.typed(container)}, {p.typed(value)}, "
        f"{_position(op)}"
    )


@_handles(llvm.InsertElementOp)
def _insertelement(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.InsertElementOp)
    return (
        f"{p._result(op)} = insertelement {p.typed(op.vector)}, {p.typed(op.value)}, "
        f"{p.typed(op.index)}"
    )


@_handles(ExtractElementOp)
def _extractelement(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, ExtractElementOp)
    return (
        f"{p._result(op)} = extractelement {p.typed(op.vector)}, {p.typed(op.position)}"
    )


@_handles(llvm.ShuffleVectorOp)
def _shufflevector(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.ShuffleVectorOp)
    values = op.mask.get_values()
    result = op.res.type
    if result.get_num_scalable_dims():
        # A scalable mask has no lane list: LLVM accepts only a splat of lane 0
        # (zeroinitializer) or poison.
        (n,) = result.get_shape()
        if all(m == 0 for m in values):
            mask = "zeroinitializer"
        elif all(m < 0 for m in values):
            mask = "poison"
        else:
            raise DiagnosticException(
                f"shufflevector to {result}: a scalable mask must be all zeros "
                f"or all poison, got {list(values)}"
            )
        return (
            f"{p._result(op)} = shufflevector {p.typed(op.v1)}, {p.typed(op.v2)}, "
            f"<vscale x {n} x i32> {mask}"
        )
    mask = ", ".join("i32 poison" if m < 0 else f"i32 {m}" for m in values)
    return (
        f"{p._result(op)} = shufflevector {p.typed(op.v1)}, {p.typed(op.v2)}, "
        f"<{len(values)} x i32> <{mask}>"
    )


def _call(
    p: _FunctionPrinter, op: Operation, callee: str, args: Sequence[SSAValue]
) -> str:
    result_type = op.results[0].type if op.results else None
    ret = type_text(result_type) if result_type is not None else "void"
    # LLVM takes fast-math flags only on calls that return floating point.
    fast = (
        _fast_math(p, op)
        if result_type is not None and _is_float_type(result_type)
        else ""
    )
    text = (
        f"call{fast} {ret} {symbol_text(callee)}({', '.join(p.typed(a) for a in args)})"
    )
    if result_type is None:
        return text
    return f"{p._result(op)} = {text}"


@_handles(llvm.CallOp)
def _call_op(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.CallOp) and op.callee is not None
    return _call(p, op, op.callee.root_reference.data, op.args)


@_handles(llvm.CallIntrinsicOp)
def _call_intrinsic(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.CallIntrinsicOp)
    name = op.intrin.data
    ret = op.results[0].type if op.results else llvm.LLVMVoidType()
    p.module.intrinsics[name] = (
        f"declare {type_text(ret)} @{name}({', '.join(type_text(a.type) for a in op.args)})"
    )
    return _call(p, op, name, op.args)


_FLOAT_INTRINSICS = (
    llvm.FAbsOp,
    llvm.FCeilOp,
    llvm.FSqrtOp,
    llvm.FFloorOp,
    llvm.FExp2Op,
    llvm.FLogOp,
    llvm.FExpOp,
    llvm.FSinOp,
    llvm.FCosOp,
    llvm.FLog2Op,
    llvm.FCopySignOp,
    llvm.FMAOp,
    llvm.FPowOp,
    llvm.VectorFMaxOp,
    llvm.VectorFMinOp,
    Atan2Op,
)
"""`llvm.intr.NAME` float ops (as mlir-opt prints math's lowering): a call of
LLVM's `llvm.NAME.<type>`."""


@_handles(*_FLOAT_INTRINSICS)
def _float_intrinsic(p: _FunctionPrinter, op: Operation) -> str:
    t = op.results[0].type
    name = f"llvm.{op.name.removeprefix('llvm.intr.')}.{mangle(t)}"
    types = ", ".join(type_text(a.type) for a in op.operands)
    p.module.intrinsics[name] = f"declare {type_text(t)} @{name}({types})"
    return _call(p, op, name, op.operands)


@_handles(MemcpyOp)
def _memcpy(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, MemcpyOp)
    width = type_text(op.len.type)
    name = f"llvm.memcpy.p0.p0.{width}"
    p.module.intrinsics[name] = f"declare void @{name}(ptr, ptr, {width}, i1)"
    volatile = "true" if op.isVolatile.value.data else "false"
    return (
        f"call void @{name}({p.typed(op.dst)}, {p.typed(op.src)}, "
        f"{p.typed(op.len)}, i1 {volatile})"
    )


@_handles(IntegerIntrinsicOp)
def _integer_intrinsic(p: _FunctionPrinter, op: Operation) -> str:
    """`llvm.intr.ctlz` / `abs`: LLVM's `llvm.NAME.<type>(x, i1 flag)`."""
    assert isinstance(op, IntegerIntrinsicOp)
    t = op.in_.type
    name = f"llvm.{op.name.removeprefix('llvm.intr.')}.{mangle(t)}"
    p.module.intrinsics[name] = f"declare {type_text(t)} @{name}({type_text(t)}, i1)"
    poison = "true" if op.flag().value.data else "false"
    return (
        f"{p._result(op)} = call {type_text(t)} @{name}({p.typed(op.in_)}, i1 {poison})"
    )


@_handles(VectorReduceOp)
def _vector_reduce(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, VectorReduceOp)
    kind = op.name.removeprefix("llvm.intr.vector.reduce.")
    t, vector = type_text(op.res.type), op.in_.type
    name = f"llvm.vector.reduce.{kind}.{mangle(vector)}"
    p.module.intrinsics[name] = f"declare {t} @{name}({type_text(vector)})"
    fast = _fast_math(p, op) if kind.startswith("f") else ""
    return f"{p._result(op)} = call{fast} {t} @{name}({p.typed(op.in_)})"


def _masked_access(
    p: _FunctionPrinter,
    name: str,
    result: str,
    operands: list[tuple[str, str]],
) -> str:
    """A call of a `llvm.masked.*` intrinsic, declared as LLVM 22's textual IR
    reader upgrades it: the alignment an `i32` operand after the pointer(s).
    `operands`: (type, typed text) in the call's order."""
    types = ", ".join(t for t, _ in operands)
    p.module.intrinsics[name] = f"declare {result} @{name}({types})"
    return f"call {result} @{name}({', '.join(text for _, text in operands)})"


@_handles(MaskedLoadOp)
def _masked_load(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, MaskedLoadOp)
    t = type_text(op.res.type)
    pass_thru = p.typed(op.pass_thru[0]) if op.pass_thru else f"{t} poison"
    call = _masked_access(
        p,
        f"llvm.masked.load.{mangle(op.res.type)}.p0",
        t,
        [
            ("ptr", p.typed(op.data)),
            ("i32", f"i32 {op.alignment.value.data}"),
            (type_text(op.mask.type), p.typed(op.mask)),
            (t, pass_thru),
        ],
    )
    return f"{p._result(op)} = {call}"


@_handles(MaskedGatherOp)
def _masked_gather(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, MaskedGatherOp)
    t = type_text(op.res.type)
    pass_thru = p.typed(op.pass_thru[0]) if op.pass_thru else f"{t} poison"
    call = _masked_access(
        p,
        f"llvm.masked.gather.{mangle(op.res.type)}.{mangle(op.ptrs.type)}",
        t,
        [
            (type_text(op.ptrs.type), p.typed(op.ptrs)),
            ("i32", f"i32 {op.alignment.value.data}"),
            (type_text(op.mask.type), p.typed(op.mask)),
            (t, pass_thru),
        ],
    )
    return f"{p._result(op)} = {call}"


@_handles(MaskedStoreOp)
def _masked_store(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, MaskedStoreOp)
    return _masked_access(
        p,
        f"llvm.masked.store.{mangle(op.value.type)}.p0",
        "void",
        [
            (type_text(op.value.type), p.typed(op.value)),
            ("ptr", p.typed(op.data)),
            ("i32", f"i32 {op.alignment.value.data}"),
            (type_text(op.mask.type), p.typed(op.mask)),
        ],
    )


@_handles(MaskedScatterOp)
def _masked_scatter(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, MaskedScatterOp)
    return _masked_access(
        p,
        f"llvm.masked.scatter.{mangle(op.value.type)}.{mangle(op.ptrs.type)}",
        "void",
        [
            (type_text(op.value.type), p.typed(op.value)),
            (type_text(op.ptrs.type), p.typed(op.ptrs)),
            ("i32", f"i32 {op.alignment.value.data}"),
            (type_text(op.mask.type), p.typed(op.mask)),
        ],
    )


@_handles(llvm.BrOp)
def _br(p: _FunctionPrinter, op: Operation) -> str:
    return f"br label %{p.labels[op.successors[0]]}"


@_handles(llvm.CondBrOp)
def _cond_br(p: _FunctionPrinter, op: Operation) -> str:
    assert isinstance(op, llvm.CondBrOp)
    block = op.parent_block()
    assert block is not None
    otherwise = p.trampolines.get(block) or p.labels[op.successors[1]]
    return (
        f"br {p.typed(op.cond)}, label %{p.labels[op.successors[0]]}, "
        f"label %{otherwise}"
    )


@_handles(llvm.ReturnOp)
def _return(p: _FunctionPrinter, op: Operation) -> str:
    return f"ret {p.typed(op.operands[0])}" if op.operands else "ret void"


@_handles(llvm.UnreachableOp)
def _unreachable(p: _FunctionPrinter, op: Operation) -> str:
    return "unreachable"


class _ModulePrinter:
    def __init__(self, fast_math: bool):
        self.fast_math = fast_math
        self.intrinsics: dict[str, str] = {}
        self.metadata: dict[str, str] = {}
        """Module-level metadata nodes the functions refer to: node -> name."""

    def print(self, module: ModuleOp) -> str:
        globals_: list[str] = []
        declarations: list[str] = []
        definitions: list[str] = []
        for op in module.ops:
            if isinstance(op, llvm.GlobalOp):
                globals_.append(self._global(op))
            elif isinstance(op, llvm.FuncOp):
                if op.body.blocks:
                    definitions += _FunctionPrinter(op, self).print()
                    definitions.append("")
                else:
                    declarations.append(self._declaration(op))
            else:
                raise DiagnosticException(
                    f"'{op.name}' at module level cannot be printed as LLVM IR"
                )
        declared = {
            op.sym_name.data for op in module.ops if isinstance(op, llvm.FuncOp)
        }
        intrinsics = [d for n, d in self.intrinsics.items() if n not in declared]
        nodes = [f"{name} = {node}" for node, name in self.metadata.items()]
        parts = globals_ + [""] + definitions + declarations + intrinsics + nodes
        return "\n".join(parts) + "\n"

    def metadata_node(self, node: str) -> str:
        """The name (`!N`) of the unnamed metadata node `node` (`!{...}`)."""
        return self.metadata.setdefault(node, f"!{len(self.metadata)}")

    @staticmethod
    def _declaration(op: llvm.FuncOp) -> str:
        t = op.function_type
        params = [type_text(i) for i in t.inputs.data]
        if t.is_variadic:
            params.append("...")
        name = symbol_text(op.sym_name.data)
        return f"declare {type_text(t.output)} {name}({', '.join(params)})"

    @staticmethod
    def _global(op: llvm.GlobalOp) -> str:
        t = op.global_type
        linkage = op.linkage.linkage.data
        kind = "constant" if op.constant is not None else "global"
        value = op.value
        if value is None:
            init = "zeroinitializer"
        elif not isinstance(value, StringAttr):
            init = constant_text(value, t)
        else:
            init = (
                'c"'
                + "".join(
                    chr(c) if 32 <= c < 127 and chr(c) not in '"\\' else f"\\{c:02X}"
                    for c in value.data.encode()
                )
                + '"'
            )
        align = f", align {op.alignment.value.data}" if op.alignment is not None else ""
        linkage_text = "" if linkage == "external" else f"{linkage} "
        return f"{symbol_text(op.sym_name.data)} = {linkage_text}{kind} {type_text(t)} {init}{align}"


def module_to_llvm_ir(module: ModuleOp, *, fast_math: bool = False) -> str:
    """LLVM IR text of a module of llvm dialect ops (globals and functions)."""
    return _ModulePrinter(fast_math).print(module)
