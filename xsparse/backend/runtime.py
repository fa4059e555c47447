"""Runtime support that lowered code calls: the printing symbols of MLIR's
`mlir_c_runner_utils` (`printI64`, `printF64`, `printOpen`, ...) and the
`printMemref*` family of `mlir_runner_utils`, written as LLVM IR on libc's
`printf`/`putchar` and compiled into each module that uses them, so that
`vector.print` and `printMemref*` print exactly what `mlir-runner` prints.

The memref printers follow MLIR's C interface: `_mlir_ciface_printMemrefF64`
takes a pointer to an unranked descriptor `{i64 rank, ptr descriptor}`, the
bare `printMemrefF64(i64 rank, ptr descriptor)` its two fields, and the
ranked `_mlir_ciface_printMemref1dF64` a pointer to a ranked descriptor. All
of them walk the strided descriptor (allocated, aligned, offset, sizes,
strides) the way MLIR's `MemRefDataPrinter` does, including its layout of
brackets, separators and indentation, and print elements as `std::ostream`
does (floats like `%g`, `int8_t` as a character, index unsigned).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

_PRINTF = "call i32 (ptr, ...) @printf"

_DEFINITIONS: dict[str, str] = {
    "printI64": f"""define internal void @printI64(i64 %x) {{
  {_PRINTF}(ptr @.xsparse.fmt.ld, i64 %x)
  ret void
}}""",
    "printU64": f"""define internal void @printU64(i64 %x) {{
  {_PRINTF}(ptr @.xsparse.fmt.lu, i64 %x)
  ret void
}}""",
    "printF32": f"""define internal void @printF32(float %x) {{
  %bits = bitcast float %x to i32
  %negative = icmp slt i32 %bits, 0
  %nan = fcmp uno float %x, %x
  %negative_nan = and i1 %negative, %nan
  br i1 %negative_nan, label %minus_nan, label %number
minus_nan:
  {_PRINTF}(ptr @.xsparse.str.nan)
  ret void
number:
  %d = fpext float %x to double
  {_PRINTF}(ptr @.xsparse.fmt.g, double %d)
  ret void
}}""",
    "printF64": f"""define internal void @printF64(double %x) {{
  %bits = bitcast double %x to i64
  %negative = icmp slt i64 %bits, 0
  %nan = fcmp uno double %x, %x
  %negative_nan = and i1 %negative, %nan
  br i1 %negative_nan, label %minus_nan, label %number
minus_nan:
  {_PRINTF}(ptr @.xsparse.str.nan)
  ret void
number:
  {_PRINTF}(ptr @.xsparse.fmt.g, double %x)
  ret void
}}""",
    # MLIR passes f16 and bf16 as their bits; printed as the float they widen to
    "printF16": """define internal void @printF16(i16 %x) {
  %h = bitcast i16 %x to half
  %f = fpext half %h to float
  call void @printF32(float %f)
  ret void
}""",
    "printBF16": """define internal void @printBF16(i16 %x) {
  %wide = zext i16 %x to i32
  %bits = shl i32 %wide, 16
  %f = bitcast i32 %bits to float
  call void @printF32(float %f)
  ret void
}""",
    "printString": f"""define internal void @printString(ptr %s) {{
  {_PRINTF}(ptr @.xsparse.fmt.s, ptr %s)
  ret void
}}""",
    "printOpen": f"""define internal void @printOpen() {{
  {_PRINTF}(ptr @.xsparse.str.open)
  ret void
}}""",
    "printClose": f"""define internal void @printClose() {{
  {_PRINTF}(ptr @.xsparse.str.close)
  ret void
}}""",
    "printComma": f"""define internal void @printComma() {{
  {_PRINTF}(ptr @.xsparse.str.comma)
  ret void
}}""",
    "printNewline": """define internal void @printNewline() {
  call i32 @putchar(i32 10)
  ret void
}""",
}

_FORMAT_STRINGS = """@.xsparse.fmt.ld = private constant [4 x i8] c"%ld\\00"
@.xsparse.fmt.lu = private constant [4 x i8] c"%lu\\00"
@.xsparse.fmt.g = private constant [3 x i8] c"%g\\00"
@.xsparse.fmt.s = private constant [3 x i8] c"%s\\00"
@.xsparse.str.nan = private constant [5 x i8] c"-nan\\00"
@.xsparse.str.open = private constant [3 x i8] c"( \\00"
@.xsparse.str.close = private constant [3 x i8] c" )\\00"
@.xsparse.str.comma = private constant [3 x i8] c", \\00"
"""


# -- printMemref* -------------------------------------------------------------


def _c_string(name: str, text: str) -> str:
    """A private NUL-terminated i8 array global holding ASCII `text`."""
    escaped = "".join(
        c if c.isprintable() and c not in '"\\' else f"\\{ord(c):02X}" for c in text
    )
    return f'@{name} = private constant [{len(text) + 1} x i8] c"{escaped}\\00"\n'


_STRINGS = _FORMAT_STRINGS + "".join(
    _c_string(name, text)
    for name, text in (
        (".xsparse.fmt.d", "%d"),
        (".xsparse.fmt.comma.ld", ", %ld"),
        (".xsparse.fmt.base", "base@ = 0x%lx"),
        (".xsparse.str.base.null", "base@ = 0"),
        (".xsparse.fmt.rank", " rank = %ld offset = %ld sizes = ["),
        (".xsparse.str.strides", "] strides = ["),
        (".xsparse.str.data", " data = \n"),
        (".xsparse.str.unranked", "Unranked Memref "),
        (".xsparse.str.ranked", "Memref "),
    )
)


@dataclass(frozen=True)
class _Element:
    """How one element type of a memref is loaded and printed."""

    llvm_type: str
    print_ir: str
    """IR lines printing the loaded element `%x`."""


_ELEMENTS: dict[str, _Element] = {
    "F64": _Element("double", f"{_PRINTF}(ptr @.xsparse.fmt.g, double %x)"),
    "F32": _Element(
        "float",
        f"%d = fpext float %x to double\n  {_PRINTF}(ptr @.xsparse.fmt.g, double %d)",
    ),
    "F16": _Element(
        "half",
        f"%d = fpext half %x to double\n  {_PRINTF}(ptr @.xsparse.fmt.g, double %d)",
    ),
    "I64": _Element("i64", f"{_PRINTF}(ptr @.xsparse.fmt.ld, i64 %x)"),
    "I32": _Element("i32", f"{_PRINTF}(ptr @.xsparse.fmt.d, i32 %x)"),
    "I16": _Element(
        "i16", f"%w = sext i16 %x to i32\n  {_PRINTF}(ptr @.xsparse.fmt.d, i32 %w)"
    ),
    # std::ostream writes an int8_t as a character
    "I8": _Element("i8", "%w = zext i8 %x to i32\n  call i32 @putchar(i32 %w)"),
    # index elements are printed as uint64_t
    "Ind": _Element("i64", f"{_PRINTF}(ptr @.xsparse.fmt.lu, i64 %x)"),
}

_UNRANKED_PRINTERS = ("F64", "F32", "F16", "I64", "I32", "I16", "I8", "Ind")
"""Element types of `_mlir_ciface_printMemref<T>` in MLIR 22's runner utils."""
_BARE_PRINTERS = ("F64", "F32", "I64", "I32", "Ind")
"""Element types of the bare `printMemref<T>(i64 rank, ptr)` MLIR 22 exports."""
_SHAPE_PRINTERS = ("F64", "F32", "I64", "I32", "I8", "Ind", "C32", "C64")
"""Element types of `_mlir_ciface_printMemrefShape<T>`."""
_RANKED_PRINTERS = (
    ("0d", "F32"),
    ("1d", "F32"),
    ("2d", "F32"),
    ("3d", "F32"),
    ("4d", "F32"),
    ("1d", "F64"),
    ("1d", "I64"),
    ("1d", "I32"),
    ("1d", "I8"),
    ("1d", "Ind"),
)
"""`_mlir_ciface_printMemref<rank>d<T>` on a ranked descriptor."""

_MEMREF_HELPERS: dict[str, str] = {
    # `n` i64 values at `p`, comma separated
    ".xsparse.memref.list": f"""define internal void @.xsparse.memref.list(ptr %p, i64 %n) {{
entry:
  %empty = icmp sle i64 %n, 0
  br i1 %empty, label %done, label %first
first:
  %x0 = load i64, ptr %p
  {_PRINTF}(ptr @.xsparse.fmt.ld, i64 %x0)
  br label %head
head:
  %i = phi i64 [ 1, %first ], [ %next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  %at = getelementptr inbounds i64, ptr %p, i64 %i
  %x = load i64, ptr %at
  {_PRINTF}(ptr @.xsparse.fmt.comma.ld, i64 %x)
  %next = add i64 %i, 1
  br label %head
done:
  ret void
}}""",
    # `base@ = 0x... rank = r offset = o sizes = [..] strides = [..]` of the
    # ranked descriptor at `d` (a null pointer prints as std::ostream does)
    ".xsparse.memref.meta": f"""define internal void @.xsparse.memref.meta(i64 %rank, ptr %d) {{
entry:
  %aligned.at = getelementptr inbounds i8, ptr %d, i64 8
  %aligned = load ptr, ptr %aligned.at
  %address = ptrtoint ptr %aligned to i64
  %null = icmp eq i64 %address, 0
  br i1 %null, label %base.null, label %base
base.null:
  {_PRINTF}(ptr @.xsparse.str.base.null)
  br label %shape
base:
  {_PRINTF}(ptr @.xsparse.fmt.base, i64 %address)
  br label %shape
shape:
  %offset.at = getelementptr inbounds i8, ptr %d, i64 16
  %offset = load i64, ptr %offset.at
  {_PRINTF}(ptr @.xsparse.fmt.rank, i64 %rank, i64 %offset)
  %sizes = getelementptr inbounds i8, ptr %d, i64 24
  call void @.xsparse.memref.list(ptr %sizes, i64 %rank)
  {_PRINTF}(ptr @.xsparse.str.strides)
  %strides = getelementptr inbounds i64, ptr %sizes, i64 %rank
  call void @.xsparse.memref.list(ptr %strides, i64 %rank)
  call i32 @putchar(i32 93)
  ret void
}}""",
    # the separator after a row: ", " and a newline between nested rows
    ".xsparse.memref.separator": f"""define internal void @.xsparse.memref.separator(i1 %nested) {{
entry:
  {_PRINTF}(ptr @.xsparse.str.comma)
  br i1 %nested, label %newline, label %done
newline:
  call i32 @putchar(i32 10)
  br label %done
done:
  ret void
}}""",
    ".xsparse.memref.spaces": """define internal void @.xsparse.memref.spaces(i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %next, %body ]
  %more = icmp slt i64 %i, %n
  br i1 %more, label %body, label %done
body:
  call i32 @putchar(i32 32)
  %next = add i64 %i, 1
  br label %head
done:
  ret void
}""",
}

_HELPER_DEPENDENCIES: dict[str, tuple[str, ...]] = {
    ".xsparse.memref.meta": (".xsparse.memref.list",),
    "printF16": ("printF32",),
    "printBF16": ("printF32",),
}
"""The runtime symbols and helpers each definition calls."""


def _element_printer(key: str) -> str:
    e = _ELEMENTS[key]
    return f"""define internal void @.xsparse.memref.element.{key}({e.llvm_type} %x) {{
  {e.print_ir}
  ret void
}}"""


def _data_printer(key: str) -> str:
    """The rows of dimensions `dim..rank` from `offset`, as MLIR's MemRefDataPrinter:
    `[first, ` (a newline after nested rows), each middle row indented by
    `rank - dim + 1` spaces, then the indented last row and `]`. Like MLIR's,
    it prints the first element of an empty dimension."""
    t = _ELEMENTS[key].llvm_type
    name = f"@.xsparse.memref.data.{key}"
    return f"""define internal void {name}(ptr %base, i64 %dim, i64 %rank, i64 %offset, ptr %sizes, ptr %strides) {{
entry:
  %leaf = icmp eq i64 %dim, 0
  br i1 %leaf, label %element, label %rows
element:
  %at = getelementptr inbounds {t}, ptr %base, i64 %offset
  %x = load {t}, ptr %at
  call void @.xsparse.memref.element.{key}({t} %x)
  ret void
rows:
  %size = load i64, ptr %sizes
  %stride = load i64, ptr %strides
  %inner = sub i64 %dim, 1
  %inner.sizes = getelementptr inbounds i64, ptr %sizes, i64 1
  %inner.strides = getelementptr inbounds i64, ptr %strides, i64 1
  %depth = sub i64 %rank, %dim
  %indent = add i64 %depth, 1
  %nested = icmp sgt i64 %dim, 1
  call i32 @putchar(i32 91)
  call void {name}(ptr %base, i64 %inner, i64 %rank, i64 %offset, ptr %inner.sizes, ptr %inner.strides)
  %single = icmp sle i64 %size, 1
  br i1 %single, label %close.single, label %first.separator
close.single:
  call i32 @putchar(i32 93)
  ret void
first.separator:
  call void @.xsparse.memref.separator(i1 %nested)
  %last = sub i64 %size, 1
  br label %head
head:
  %i = phi i64 [ 1, %first.separator ], [ %next, %body ]
  %more = icmp slt i64 %i, %last
  br i1 %more, label %body, label %tail
body:
  call void @.xsparse.memref.spaces(i64 %indent)
  %step = mul i64 %i, %stride
  %row = add i64 %offset, %step
  call void {name}(ptr %base, i64 %inner, i64 %rank, i64 %row, ptr %inner.sizes, ptr %inner.strides)
  call void @.xsparse.memref.separator(i1 %nested)
  %next = add i64 %i, 1
  br label %head
tail:
  call void @.xsparse.memref.spaces(i64 %indent)
  %last.step = mul i64 %last, %stride
  %last.row = add i64 %offset, %last.step
  call void {name}(ptr %base, i64 %inner, i64 %rank, i64 %last.row, ptr %inner.sizes, ptr %inner.strides)
  call i32 @putchar(i32 93)
  ret void
}}"""


def _memref_printer(key: str) -> str:
    """`<prefix>base@ = ... data = ` + newline, the data, newline (MLIR's printMemRef)."""
    return f"""define internal void @.xsparse.memref.print.{key}(ptr %prefix, i64 %rank, ptr %d) {{
entry:
  {_PRINTF}(ptr @.xsparse.fmt.s, ptr %prefix)
  call void @.xsparse.memref.meta(i64 %rank, ptr %d)
  {_PRINTF}(ptr @.xsparse.str.data)
  %scalar = icmp eq i64 %rank, 0
  br i1 %scalar, label %open, label %data
open:
  call i32 @putchar(i32 91)
  br label %data
data:
  %aligned.at = getelementptr inbounds i8, ptr %d, i64 8
  %aligned = load ptr, ptr %aligned.at
  %offset.at = getelementptr inbounds i8, ptr %d, i64 16
  %offset = load i64, ptr %offset.at
  %sizes = getelementptr inbounds i8, ptr %d, i64 24
  %strides = getelementptr inbounds i64, ptr %sizes, i64 %rank
  call void @.xsparse.memref.data.{key}(ptr %aligned, i64 %rank, i64 %rank, i64 %offset, ptr %sizes, ptr %strides)
  br i1 %scalar, label %close, label %done
close:
  call i32 @putchar(i32 93)
  br label %done
done:
  call i32 @putchar(i32 10)
  ret void
}}"""


_UNRANKED_FIELDS = """  %rank = load i64, ptr %u
  %d.at = getelementptr inbounds i8, ptr %u, i64 8
  %d = load ptr, ptr %d.at"""


for _key in _ELEMENTS:
    _MEMREF_HELPERS[f".xsparse.memref.element.{_key}"] = _element_printer(_key)
    _MEMREF_HELPERS[f".xsparse.memref.data.{_key}"] = _data_printer(_key)
    _MEMREF_HELPERS[f".xsparse.memref.print.{_key}"] = _memref_printer(_key)
    _HELPER_DEPENDENCIES[f".xsparse.memref.data.{_key}"] = (
        f".xsparse.memref.element.{_key}",
        ".xsparse.memref.separator",
        ".xsparse.memref.spaces",
    )
    _HELPER_DEPENDENCIES[f".xsparse.memref.print.{_key}"] = (
        ".xsparse.memref.meta",
        f".xsparse.memref.data.{_key}",
    )

_MEMREF_PRINTERS: dict[str, tuple[str, tuple[str, ...]]] = {}
"""Public printMemref symbols: their definition and the helpers they call."""


def _printer_entry(
    name: str, params: str, prefix: str, rank: str, key: str, body: str = ""
) -> tuple[str, tuple[str, ...]]:
    """A public printMemref symbol: `body` (reading the rank and descriptor),
    then `<prefix>` and the memref of element type `key`."""
    return (
        f"""define internal void @{name}({params}) {{
{body}  call void @.xsparse.memref.print.{key}(ptr @.xsparse.str.{prefix}, i64 {rank}, ptr %d)
  ret void
}}""",
        (f".xsparse.memref.print.{key}",),
    )


for _key in _UNRANKED_PRINTERS:
    _name = f"_mlir_ciface_printMemref{_key}"
    _MEMREF_PRINTERS[_name] = _printer_entry(
        _name, "ptr %u", "unranked", "%rank", _key, _UNRANKED_FIELDS + "\n"
    )
for _key in _BARE_PRINTERS:
    _name = f"printMemref{_key}"
    _MEMREF_PRINTERS[_name] = _printer_entry(
        _name, "i64 %rank, ptr %d", "unranked", "%rank", _key
    )
for _key in _SHAPE_PRINTERS:
    _MEMREF_PRINTERS[f"_mlir_ciface_printMemrefShape{_key}"] = (
        f"""define internal void @_mlir_ciface_printMemrefShape{_key}(ptr %u) {{
{_UNRANKED_FIELDS}
  {_PRINTF}(ptr @.xsparse.str.unranked)
  call void @.xsparse.memref.meta(i64 %rank, ptr %d)
  call i32 @putchar(i32 10)
  ret void
}}""",
        (".xsparse.memref.meta",),
    )
for _rank, _key in _RANKED_PRINTERS:
    _name = f"_mlir_ciface_printMemref{_rank}{_key}"
    _MEMREF_PRINTERS[_name] = _printer_entry(_name, "ptr %d", "ranked", _rank[0], _key)

RUNTIME_SYMBOLS: tuple[str, ...] = tuple(_DEFINITIONS) + tuple(_MEMREF_PRINTERS)


def strip_declarations(ir: str, symbols: Sequence[str]) -> str:
    """`ir` without its `declare` lines of `symbols` (their definitions replace them)."""
    if not symbols:
        return ir
    pattern = re.compile(
        r"^declare [^@\n]*@(" + "|".join(map(re.escape, symbols)) + r")\(.*\n?",
        re.MULTILINE,
    )
    return pattern.sub("", ir)


def _with_helpers(symbols: Iterable[str]) -> list[str]:
    """`symbols` and the helpers they call, each once, callees first."""
    ordered: list[str] = []

    def visit(name: str) -> None:
        if name in ordered:
            return
        deps = (
            _MEMREF_PRINTERS[name][1]
            if name in _MEMREF_PRINTERS
            else _HELPER_DEPENDENCIES.get(name, ())
        )
        for dep in deps:
            visit(dep)
        ordered.append(name)

    for s in symbols:
        visit(s)
    return ordered


def _definition(name: str) -> str:
    if name in _DEFINITIONS:
        return _DEFINITIONS[name]
    if name in _MEMREF_PRINTERS:
        return _MEMREF_PRINTERS[name][0]
    return _MEMREF_HELPERS[name]


def runtime_ir(symbols: Sequence[str], *, declared_in: str) -> str:
    """Definitions of the runtime `symbols` and the libc declarations they need.

    A symbol that `declared_in` defines itself (e.g. the `printMemrefF64`
    wrapper that `llvm.emit_c_interface` generates) is left to that definition.
    """
    symbols = [
        s
        for s in symbols
        if not re.search(
            r"^define [^@\n]*@" + re.escape(s) + r"\(", declared_in, re.MULTILINE
        )
    ]
    if not symbols:
        return ""
    parts = [_STRINGS] + [_definition(s) for s in _with_helpers(symbols)]
    if not re.search(r"^declare [^\n]*@printf\(", declared_in, re.MULTILINE):
        parts.append("declare i32 @printf(ptr, ...)")
    if not re.search(r"^declare [^\n]*@putchar\(", declared_in, re.MULTILINE):
        parts.append("declare i32 @putchar(i32)")
    return "\n".join(parts) + "\n"
