"""Runtime support that lowered code calls: the printing symbols of MLIR's
`mlir_c_runner_utils` (`printI64`, `printF64`, `printOpen`, ...), written
as LLVM IR on libc's `printf`/`putchar` and compiled into each module that
uses them, so that `vector.print` prints exactly what `mlir-runner` prints.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

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

_STRINGS = """@.xsparse.fmt.ld = private constant [4 x i8] c"%ld\\00"
@.xsparse.fmt.lu = private constant [4 x i8] c"%lu\\00"
@.xsparse.fmt.g = private constant [3 x i8] c"%g\\00"
@.xsparse.fmt.s = private constant [3 x i8] c"%s\\00"
@.xsparse.str.nan = private constant [5 x i8] c"-nan\\00"
@.xsparse.str.open = private constant [3 x i8] c"( \\00"
@.xsparse.str.close = private constant [3 x i8] c" )\\00"
@.xsparse.str.comma = private constant [3 x i8] c", \\00"
"""

RUNTIME_SYMBOLS: tuple[str, ...] = tuple(_DEFINITIONS)


def strip_declarations(ir: str, symbols: Sequence[str]) -> str:
    """`ir` without its `declare` lines of `symbols` (their definitions replace them)."""
    if not symbols:
        return ir
    pattern = re.compile(
        r"^declare [^@\n]*@(" + "|".join(map(re.escape, symbols)) + r")\(.*\n?",
        re.MULTILINE,
    )
    return pattern.sub("", ir)


def runtime_ir(symbols: Sequence[str], *, declared_in: str) -> str:
    """Definitions of the runtime `symbols` and the libc declarations they need."""
    if not symbols:
        return ""
    parts = [_STRINGS] + [_DEFINITIONS[s] for s in symbols]
    if not re.search(r"^declare [^\n]*@printf\(", declared_in, re.MULTILINE):
        parts.append("declare i32 @printf(ptr, ...)")
    if not re.search(r"^declare [^\n]*@putchar\(", declared_in, re.MULTILINE):
        parts.append("declare i32 @putchar(i32)")
    return "\n".join(parts) + "\n"
