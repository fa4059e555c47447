"""`xsparse-opt`'s `mlir` output target: xDSL's, with a printer that writes
a large string attribute in one piece."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.printer import Printer
from xdsl.syntax_printer import SyntaxPrinter
from xdsl.targets.mlir import MLIRTarget
from xdsl.utils.target import Target

ESCAPED_BYTE = re.compile(rb"[^\x20-\x21\x23-\x5b\x5d-\x7e]")
"""A byte that a string literal writes escaped: `"`, `\\`, and those outside
printable ASCII."""


def escape(match: re.Match[bytes]) -> bytes:
    byte = match.group(0)[0]
    return b"\\\\" if byte == 0x5C else b"\\%02X" % byte


def bytes_literal(data: bytes) -> str:
    """`data` as xDSL's `Printer.print_bytes_literal` writes it (MLIR's
    escapes: `\\\\`, `\\XX`)."""
    return '"' + ESCAPED_BYTE.sub(escape, data).decode("ascii") + '"'


class BulkPrinter(Printer):
    """xDSL's printer, writing a bytes literal in one call (xDSL writes it a
    byte at a time: 36 s for a 50 MB string attribute)."""

    def print_bytes_literal(self, bytestring: bytes) -> None:
        self.print_string(bytes_literal(bytestring))


class BulkSyntaxPrinter(SyntaxPrinter, BulkPrinter):
    """xDSL's highlighting printer with BulkPrinter's bytes literals."""


@dataclass(frozen=True)
class BulkMLIRTarget(MLIRTarget):
    """xDSL's `mlir` target, printing with BulkPrinter."""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        cls = BulkSyntaxPrinter if self.syntax_highlight else BulkPrinter
        printer = cls(
            stream=output,
            print_generic_format=self.print_generic_format,
            print_properties_as_attributes=self.print_properties_as_attributes,
            print_debuginfo=self.print_debuginfo,
        )
        printer.print_op(module)
        printer.print_metadata(ctx.loaded_dialects)
        print("\n", file=output)


def get_mlir_target() -> type[Target]:
    return BulkMLIRTarget
