"""Names as LLVM IR writes them: shared by the printer of LLVM IR
(`llvm_ir`) and the wrappers of the call boundary (`abi`), which runs
without the compiler loaded."""

import re

BARE_SYMBOL = re.compile(r"[-a-zA-Z$._][-a-zA-Z$._0-9]*")
"""A global name LLVM IR writes without quotes."""


def symbol_text(name: str) -> str:
    """`@name` as LLVM IR writes a global's name: quoted, with `\\XX` escapes
    for quotes, backslashes and bytes outside printable ASCII, where it is no
    bare identifier (`@"my kernel"`)."""
    if BARE_SYMBOL.fullmatch(name):
        return f"@{name}"
    escaped = "".join(
        chr(c) if 32 <= c < 127 and chr(c) not in '"\\' else f"\\{c:02X}"
        for c in name.encode("utf-8", "surrogatepass")
    )
    return f'@"{escaped}"'
