"""The `xsparse-opt` driver: xDSL's opt driver with xDSL's and xsparse's
dialects, passes and targets, and mlir-opt's command line.

Bad input never shows a Python traceback: parse and verification errors print
`file:line:col: error: message` with the source line and a caret and exit 1;
a mistake on the command line is one line, `xsparse-opt: error: message`.
How diagnostics are checked is `DiagnosticsMode`'s.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from argparse import ArgumentParser
from collections.abc import Sequence
from enum import Enum, auto
from io import BytesIO
from itertools import accumulate
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline, PassPipelineCallbackType
from xdsl.printer import Printer
from xdsl.targets import get_all_targets as get_xdsl_targets
from xdsl.transforms import get_all_passes as get_xdsl_passes
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.diagnostic import Diagnostic as ColoredDiagnostic
from xdsl.utils.exceptions import (
    ArgSpecParseError,
    DiagnosticException,
    ParseError,
    VerifyException,
)
from xdsl.xdsl_opt_main import xDSLOptMain

from xsparse.diagnostics import (
    TOO_DEEP,
    LocatingParser,
    Spans,
    XSparseError,
    decode_source,
    format_parse_error,
    locate_error,
    parse_failure,
    run_deep,
    verify_located,
)
from xsparse.dialect_registry import get_all_dialects
from xsparse.targets import get_all_targets, get_llvm_target
from xsparse.tools.command_line import (
    CommandLineParser,
    UsageError,
    VersionAction,
    input_name,
    open_input,
    open_output,
    read_bounded,
)
from xsparse.tools.mlir_target import get_mlir_target
from xsparse.tools.pass_pipeline import build_passes, pass_help, read_pipeline
from xsparse.tools.verify_diagnostics import (
    Diagnostic,
    Expectation,
    check,
    read_expectations,
)
from xsparse.transforms import get_all_passes
from xsparse.xdsl_adapter import peek

SPLIT_MARKER = b"// -----"


class DiagnosticsMode(Enum):
    """What becomes of a diagnostic."""

    REPORT = auto()
    """On stderr, exit 1: the default."""
    PRINT = auto()
    """On stdout, exit 0: xdsl-opt's `--parsing-diagnostics` (the lit tests
    that FileCheck the diagnostics)."""
    VERIFY = auto()
    """Checked against the input's annotations: mlir-opt's
    `--verify-diagnostics`."""
    VERIFY_ONLY_EXPECTED = auto()
    """mlir-opt's `--verify-diagnostics=only-expected`: every annotation must
    be met; diagnostics nothing expects are ignored."""


class XSparseOptMain(xDSLOptMain):
    """The opt driver; every registry of xDSL plus xsparse's own."""

    op_spans: Spans
    flag_passes: str
    """The passes given as mlir-opt's flags (`--sparsifier`), as a pass list."""

    def __init__(self, args: Sequence[str]) -> None:
        # xDSL's __init__ is replaced, not extended: the argument parser is
        # ours (one-line errors, LLVM's single-dash long flags).
        self.op_spans = {}
        self.available_frontends = {}
        self.available_passes = {}
        self.available_targets = {}
        self.ctx = Context()
        self.register_all_dialects()
        self.register_all_frontends()
        self.register_all_passes()
        self.register_all_targets()
        parser = CommandLineParser(
            "xsparse-opt", "xsparse's modular optimizer driver (mlir-opt's flags)"
        )
        self.register_all_arguments(parser)
        if any(arg in ("-h", "--help", "-help") for arg in args):
            parser.formatter_class = argparse.RawDescriptionHelpFormatter
            parser.epilog = self.passes_help()
        arguments, self.flag_passes = self.take_pass_flags(args, parser.long_flags)
        self.args = parser.parse_command_line(arguments)
        self.check_target()
        self.ctx.allow_unregistered = self.args.allow_unregistered_dialect
        if self.args.syntax_highlight:
            ColoredDiagnostic.colored = True
        self.setup_pipeline()

    def register_all_dialects(self) -> None:
        for name, factory in get_all_dialects().items():
            self.ctx.register_dialect(name, factory)

    def register_all_passes(self) -> None:
        for registry in (get_xdsl_passes(), get_all_passes()):
            for name, factory in registry.items():
                self.available_passes.setdefault(name, factory)

    def register_all_targets(self) -> None:
        for registry in (get_xdsl_targets(), get_all_targets()):
            for name, factory in registry.items():
                self.available_targets.setdefault(name, factory)
        # `-t llvm` prints LLVM IR with xsparse's printer (xDSL's own `llvm`
        # target cannot print what convert-to-llvm produces).
        self.available_targets["llvm"] = get_llvm_target
        self.available_targets["mlir"] = get_mlir_target

    def register_all_arguments(self, arg_parser: ArgumentParser) -> None:
        super().register_all_arguments(arg_parser)
        add = arg_parser.add_argument
        add("-v", "--version", action=VersionAction)
        add("-o", "--output-file", help="output file ('-' or none: standard output)")
        add(
            "-p",
            "--passes",
            default="",
            help="passes to run, 'pass,pass{option=value other-option=value}', or "
            "a pipeline as --pass-pipeline takes it; as in mlir-opt, each pass is "
            "also a flag ('--pass', '--pass=\"option=value\"'); the passes are "
            "listed below",
        )
        add(
            "--pass-pipeline",
            help="MLIR's textual pass pipeline, e.g. 'builtin.module(sparsification"
            "{parallelization-strategy=dense-outer-loop})'; -p takes it too. "
            "Options are spelled with dashes, as in MLIR",
        )
        add(
            "--verify-diagnostics",
            "--verify-diagnostics=all",
            action="store_true",
            help="check the diagnostics against the input's expected-error, "
            "expected-warning, expected-note and expected-remark annotations, "
            "as mlir-opt does",
        )
        add(
            "--verify-diagnostics=only-expected",
            dest="verify_only_expected",
            action="store_true",
            help="check that the expected diagnostics are emitted; ignore others",
        )
        add(
            "--parsing-diagnostics",
            action="store_true",
            help="print every diagnostic on stdout and exit 0 (as xdsl-opt)",
        )
        add(
            "--mlir-print-op-generic",
            dest="print_op_generic",
            action="store_true",
            help="the same as --print-op-generic",
        )
        add(
            "--mlir-print-debuginfo",
            dest="print_debuginfo",
            action="store_true",
            help="the same as --print-debuginfo",
        )
        add(
            "--mlir-print-ir-after-all",
            dest="print_ir_after_all",
            action="store_true",
            help="print the IR on stderr after each pass, as mlir-opt does",
        )
        add(
            "--mlir-timing",
            dest="time_passes",
            action="store_true",
            help="the same as --time-passes",
        )
        add(
            "--mlir-print-local-scope",
            action="store_true",
            help="accepted as mlir-opt takes it: xsparse-opt prints attributes "
            "and types in place, never as aliases",
        )

    def passes_help(self) -> str:
        """xsparse's passes with their options, as `mlir-opt --help` lists
        them, then the names of xDSL's."""
        ours = get_all_passes()
        lines = ["Passes (xsparse's; each is also a flag, as in mlir-opt):"]
        for name, factory in sorted(ours.items()):
            lines += pass_help(name, factory())
        xdsl = [name for name in self.available_passes if name not in ours]
        lines += ["", "xDSL's passes (-p NAME; options as xdsl-opt takes them):"]
        lines += textwrap.wrap(
            ", ".join(xdsl), 79, initial_indent="  ", subsequent_indent="  "
        )
        return "\n".join(lines)

    def take_pass_flags(
        self, args: Sequence[str], flags: set[str]
    ) -> tuple[list[str], str]:
        """mlir-opt's `--pass-name[=options]` flags, taken out of `args`, as
        the text of a pass list (`pass-name{options}`, in their order)."""
        others: list[str] = []
        passes: list[str] = []
        for arg in args:
            name, _, options = arg.lstrip("-").partition("=")
            if (
                arg.startswith("-")
                and name in self.available_passes
                and f"--{name}" not in flags
            ):
                passes.append(f"{name}{{{options}}}" if options else name)
            else:
                others.append(arg)
        return others, ",".join(passes)

    def check_target(self) -> None:
        try:
            name = parse_spec(self.args.target).name
        except ArgSpecParseError:
            name = self.args.target
        if name not in self.available_targets:
            targets = ", ".join(self.available_targets)
            raise UsageError(f"unknown target '{name}' (targets: {targets})")

    def setup_pipeline(self) -> None:
        given = [self.args.passes, self.flag_passes, self.args.pass_pipeline]
        if sum(1 for g in given if g) > 1:
            raise UsageError(
                "give passes one way: -p, --pass-pipeline or flags named after them"
            )
        if self.args.pass_pipeline is not None:
            texts = read_pipeline(self.args.pass_pipeline, anchored=True)
        else:
            texts = read_pipeline(self.args.passes or self.flag_passes, anchored=False)
        passes = build_passes(texts, self.available_passes)
        # xDSL's setup, given no passes, builds only its callback: verification
        # between passes, --print-between-passes, --time-passes.
        requested, self.args.passes = self.args.passes, ""
        super().setup_pipeline()
        self.args.passes = requested
        self.pipeline = PassPipeline(
            passes, self.between_passes(self.pipeline.callback)
        )

    def between_passes(
        self, xdsl_callback: PassPipelineCallbackType | None
    ) -> PassPipelineCallbackType:
        """xDSL's callback, without its verification before the first pass:
        parsing verified the module already (`verify_located`), and a second
        verification is a sixth of the time of a large input."""

        def callback(
            previous: ModulePass | None, module: ModuleOp, next_pass: ModulePass | None
        ) -> None:
            if previous is not None and self.args.print_ir_after_all:
                print(
                    f"// -----// IR Dump After {type(previous).__name__} "
                    f"({previous.name}) //----- //",
                    file=sys.stderr,
                )
                Printer(stream=sys.stderr).print_op(module)
                print("\n", file=sys.stderr)
            if xdsl_callback is None:
                return
            skip = previous is None and not self.args.disable_verify
            self.args.disable_verify |= skip
            try:
                xdsl_callback(previous, module, next_pass)
            finally:
                self.args.disable_verify ^= skip

        return callback

    def register_all_frontends(self) -> None:
        def parse_mlir(io: IO[bytes]) -> ModuleOp:
            text = decode_source(io.read(), self.get_input_name())
            parser = LocatingParser(self.ctx, text, self.get_input_name())
            try:
                module = parser.parse_module(not self.args.no_implicit_module)
            except VerifyException as e:
                raise ParseError(peek(parser).span, str(e).split("\n", 1)[0]) from None
            except ParseError:
                raise
            except Exception as e:  # a bug in a parser: still a located diagnostic
                raise ParseError(peek(parser).span, parse_failure(e)) from None
            self.op_spans.update(parser.op_spans)
            if not self.args.disable_verify:
                verify_located(module, self.op_spans, self.get_input_name())
            return module

        self.available_frontends["mlir"] = parse_mlir

    def get_input_stream(self) -> tuple[IO[bytes], str]:
        """The input and its frontend (by extension; `mlir` for `-` and for
        extensions no frontend claims, as mlir-opt reads any file)."""
        path: str | None = self.args.input_file
        extension = "" if path is None else os.path.splitext(path)[1].lstrip(".")
        if self.args.frontend:
            extension = self.args.frontend
        elif extension not in self.available_frontends:
            extension = "mlir"
        return open_input(path), extension

    def get_input_name(self) -> str:
        return input_name(self.args.input_file)

    def read_chunks(self) -> tuple[bytes, list[bytes], str]:
        """The input, its chunks (one without --split-input-file), each padded
        with newlines so that locations are lines of the file, and the
        frontend that reads them."""
        stream, extension = self.get_input_stream()
        try:
            source = read_bounded(stream, self.args.input_file)
        finally:
            if stream is not sys.stdin.buffer:
                stream.close()
        if not self.args.split_input_file:
            return source, [source], extension
        pieces = source.split(SPLIT_MARKER)
        offsets = accumulate([0, *[p.count(b"\n") for p in pieces[:-1]]])
        chunks = [b"\n" * offset + p for p, offset in zip(pieces, offsets, strict=True)]
        return source, chunks, extension

    def apply_passes(self, prog: ModuleOp) -> None:
        try:
            super().apply_passes(prog)
        except XSparseError:
            raise
        except DiagnosticException as e:
            name = self.get_input_name()
            raise XSparseError(locate_error(e, self.op_spans, name, prog)) from None

    def diagnostics_mode(self, source: bytes) -> DiagnosticsMode:
        if self.args.parsing_diagnostics:
            return DiagnosticsMode.PRINT
        if self.args.verify_only_expected:
            return DiagnosticsMode.VERIFY_ONLY_EXPECTED
        if self.args.verify_diagnostics:
            return DiagnosticsMode.VERIFY
        return DiagnosticsMode.REPORT

    def run_chunk(self, chunk: bytes, extension: str, output: IO[str]) -> str | None:
        """Parse, transform and print one chunk; its diagnostic, if any. Run
        with a deep stack (`run_deep`): IR nested MAX_NESTING levels deep."""
        return run_deep(lambda: self.run_chunk_here(chunk, extension, output))

    def run_chunk_here(
        self, chunk: bytes, extension: str, output: IO[str]
    ) -> str | None:
        try:
            module = self.parse_chunk(BytesIO(chunk), extension)
            if module is not None:
                self.apply_passes(module)
                output.write(self.output_resulting_program(module))
        except ParseError as e:
            return format_parse_error(e)
        except XSparseError as e:
            return str(e)
        except DiagnosticException as e:
            return f"{self.get_input_name()}: error: {e}"
        except RecursionError:  # in a pass or the printer
            return f"{self.get_input_name()}: error: {TOO_DEEP}"
        return None


def run(args: Sequence[str]) -> int:
    """`xsparse-opt ARGS`; the exit status."""
    try:
        tool = XSparseOptMain(args)
        source, chunks, extension = tool.read_chunks()
        output = open_output(tool.args.output_file)
    except UsageError as e:
        print(f"xsparse-opt: error: {e}", file=sys.stderr)
        return 1
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    try:
        return run_chunks(tool, source, chunks, extension, output)
    except BrokenPipeError:  # the reader left (`| head`): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        if output is not sys.stdout:
            output.close()


def run_chunks(
    tool: XSparseOptMain,
    source: bytes,
    chunks: Sequence[bytes],
    extension: str,
    output: IO[str],
) -> int:
    """Each chunk on its own, as mlir-opt runs them; unmet expectations of
    --verify-diagnostics are reported last, as mlir-opt reports them."""
    mode = tool.diagnostics_mode(source)
    name = tool.get_input_name()
    status = 0
    unmet: list[Expectation] = []
    for i, chunk in enumerate(chunks):
        if i > 0:
            output.write("// -----\n")
        expectations: list[Expectation] = []
        if mode in (DiagnosticsMode.VERIFY, DiagnosticsMode.VERIFY_ONLY_EXPECTED):
            expectations = read_expectations(chunk.decode(errors="replace"), name)
        try:
            diagnostic = tool.run_chunk(chunk, extension, output)
        except BrokenPipeError:
            raise
        except Exception as e:
            if os.environ.get("XSPARSE_TRACEBACK"):
                raise
            message = f"{name}: error: internal error: {type(e).__name__}: {e}"
            print(message, file=sys.stderr)
            diagnostic, status = None, 1
        finally:
            output.flush()
        if diagnostic is not None:
            status |= report(diagnostic, mode, expectations)
        unmet += [e for e in expectations if not e.met]
    for expectation in unmet:
        print(expectation.missing_report(), file=sys.stderr)
    return 1 if unmet else status


def report(
    diagnostic: str, mode: DiagnosticsMode, expectations: Sequence[Expectation]
) -> int:
    """Print `diagnostic` as `mode` asks; the exit status it calls for."""
    if mode is DiagnosticsMode.REPORT:
        print(diagnostic, file=sys.stderr)
        return 1
    if mode is DiagnosticsMode.PRINT:
        print(diagnostic)
        return 0
    problem = check(Diagnostic.read(diagnostic), expectations)
    if problem is None or mode is DiagnosticsMode.VERIFY_ONLY_EXPECTED:
        return 0
    print(problem, file=sys.stderr)
    return 1
