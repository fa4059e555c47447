"""`xsparse-opt`: xDSL's opt driver with xsparse's dialects and passes.

Bad input never shows a Python traceback: parse and verification errors print
`file:line:col: error: message` with the source line and a caret, and exit 1
(0 with `--parsing-diagnostics` / `--verify-diagnostics`, as in xdsl-opt).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from io import BytesIO
from typing import IO

from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.xdsl_opt_main import xDSLOptMain

from xsparse.diagnostics import (
    LocatingParser,
    Spans,
    XSparseError,
    format_parse_error,
    locate_error,
    verify_located,
)
from xsparse.dialects.xdsl_adapter import peek
from xsparse.targets import get_llvm_target
from xsparse.universe import XSPARSE_UNIVERSE


class XSparseOptMain(xDSLOptMain):
    """The opt driver; every registry of xDSL plus xsparse's own."""

    op_spans: Spans

    def __init__(self, args: Sequence[str] | None = None) -> None:
        self.op_spans = {}
        super().__init__(description="xsparse modular optimizer driver", args=args)

    def register_all_dialects(self) -> None:
        super().register_all_dialects()
        for name, factory in XSPARSE_UNIVERSE.all_dialects.items():
            if name not in self.ctx.registered_dialect_names:
                self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        super().register_all_passes()
        for name, factory in XSPARSE_UNIVERSE.all_passes.items():
            self.available_passes.setdefault(name, factory)

    def register_all_targets(self) -> None:
        super().register_all_targets()
        for name, factory in XSPARSE_UNIVERSE.all_targets.items():
            self.available_targets.setdefault(name, factory)
        # `-t llvm` prints LLVM IR with xsparse's printer (xDSL's own `llvm`
        # target cannot print what convert-to-llvm produces).
        self.available_targets["llvm"] = get_llvm_target

    def register_all_frontends(self) -> None:
        super().register_all_frontends()

        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = io.read().decode("utf-8", errors="replace")
            parser = LocatingParser(self.ctx, text, self.get_input_name())
            try:
                module = parser.parse_module(not self.args.no_implicit_module)
            except VerifyException as e:
                raise ParseError(peek(parser).span, str(e).split("\n", 1)[0]) from None
            except ParseError:
                raise
            except Exception as e:  # a bug in a parser: still a located diagnostic
                message = f"internal error while parsing: {type(e).__name__}: {e}"
                raise ParseError(peek(parser).span, message) from None
            self.op_spans.update(parser.op_spans)
            if not self.args.disable_verify:
                verify_located(module, self.op_spans, self.get_input_name())
            return module

        self.available_frontends["mlir"] = parse_mlir

    def prepare_input(self) -> tuple[list[tuple[IO[bytes], int]], str]:
        """Chunks padded with newlines so that locations are lines of the file."""
        chunks, extension = super().prepare_input()
        padded: list[tuple[IO[bytes], int]] = []
        for chunk, offset in chunks:
            padded.append((BytesIO(b"\n" * offset + chunk.read()), offset))
            chunk.close()
        return padded, extension

    def apply_passes(self, prog: ModuleOp) -> None:
        try:
            super().apply_passes(prog)
        except XSparseError:
            raise
        except DiagnosticException as e:
            name = self.get_input_name()
            raise XSparseError(locate_error(e, self.op_spans, name, prog)) from None


def _report(message: str, as_output: bool) -> int:
    """Print a diagnostic; exit code 0 when diagnostics are the expected output."""
    if as_output:
        print(message)
        return 0
    print(message, file=sys.stderr)
    return 1


def main(args: Sequence[str] | None = None) -> int:
    try:
        tool = XSparseOptMain(args=args)
    except XSparseError as e:
        print(e, file=sys.stderr)
        return 1
    except ValueError as e:  # a pass option of the wrong type (`vl=abc`)
        print(f"xsparse-opt: error: invalid pass option: {e}", file=sys.stderr)
        return 1
    expect_diagnostics = tool.args.parsing_diagnostics or tool.args.verify_diagnostics
    # Each chunk of --split-input-file reports on its own, as mlir-opt does.
    chunks, extension = tool.prepare_input()
    output = tool.prepare_output()
    status = 0
    for i, (chunk, offset) in enumerate(chunks):
        if i > 0:
            output.write("// -----\n")
        try:
            module = tool.parse_chunk(chunk, extension, offset)
            if module is not None:
                tool.apply_passes(module)
                output.write(tool.output_resulting_program(module))
        except ParseError as e:
            status |= _report(format_parse_error(e), expect_diagnostics)
        except XSparseError as e:
            status |= _report(str(e), expect_diagnostics)
        except (DiagnosticException, VerifyException) as e:
            status |= _report(
                f"{tool.get_input_name()}: error: {e}", expect_diagnostics
            )
        except Exception as e:
            if os.environ.get("XSPARSE_TRACEBACK"):
                raise
            message = f"{tool.get_input_name()}: error: internal error: {type(e).__name__}: {e}"
            print(message, file=sys.stderr)
            status = 1
        finally:
            output.flush()
            chunk.close()
    if output is not sys.stdout:
        output.close()
    return status


if __name__ == "__main__":
    sys.exit(main())
