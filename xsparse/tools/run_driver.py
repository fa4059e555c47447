"""The `xsparse-run` driver: compile with the sparsifier, lower to LLVM IR,
JIT and call the entry function (see `xsparse.tools.run`)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import get_args

from xdsl.utils.exceptions import DiagnosticException

from xsparse.backend import jit, runtime_errors, threads
from xsparse.backend.lowering import LoweredModule, lower_to_llvm
from xsparse.diagnostics import (
    TOO_DEEP,
    XSparseError,
    decode_source,
    locate_error,
    parse_module_with_spans,
    run_deep,
)
from xsparse.dialect_registry import make_context
from xsparse.tools.command_line import (
    CommandLineParser,
    UsageError,
    VersionAction,
    input_name,
    open_input,
    read_bounded,
)
from xsparse.transforms.pipeline import ParallelizationStrategy, sparsifier_passes


def parse_arguments(arguments: Sequence[str]) -> argparse.Namespace:
    parser = CommandLineParser(
        "xsparse-run", "Compile FILE with the sparsifier and run a function."
    )
    add = parser.add_argument
    add("file", nargs="?", default="-", help="MLIR file (default or '-': stdin)")
    add("-e", "--entry", default="main", help="function to run (default: main)")
    add(
        "--entry-point-result",
        default="void",
        choices=["void"],
        help="as mlir-runner; only void",
    )
    add(
        "-O",
        dest="opt_level",
        type=int,
        default=3,
        choices=range(4),
        help="LLVM optimization level",
    )
    add(
        "--parallelization-strategy",
        default="none",
        choices=get_args(ParallelizationStrategy),
        help="the sparsifier's parallelization-strategy (default: none)",
    )
    add(
        "--num-threads",
        type=int,
        default=None,
        help="threads for parallel loops (default: XSPARSE_NUM_THREADS, else the cores)",
    )
    add(
        "--shared-libs",
        default="",
        help="shared libraries whose functions the program may call, comma-separated "
        "(as mlir-runner: e.g. MLIR's libmlir_c_runner_utils, for what mlir-opt "
        "--sparsifier prints with its runtime library); xsparse's own runtime "
        "needs none",
    )
    add("--version", action=VersionAction)
    args = parser.parse_command_line(arguments)
    if args.num_threads is not None and args.num_threads < 1:
        raise UsageError("--num-threads must be at least 1")
    return args


def read_input(path: str) -> bytes:
    stream = open_input(path)
    try:
        return read_bounded(stream, path)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def run(arguments: Sequence[str]) -> int:
    """`xsparse-run ARGS`; the exit status."""
    try:
        args = parse_arguments(arguments)
        data = read_input(args.file)
    except UsageError as e:
        print(f"xsparse-run: error: {e}", file=sys.stderr)
        return 1
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    if args.num_threads is not None:
        threads.set_num_threads(args.num_threads)
    try:
        jit.load_shared_libraries([p for p in args.shared_libs.split(",") if p])
    except RuntimeError as e:
        print(f"xsparse-run: error: {e}", file=sys.stderr)
        return 1
    name = input_name(args.file)
    ctx = make_context()

    def lower() -> LoweredModule:
        text = decode_source(data, name)
        module, spans = parse_module_with_spans(ctx, text, name)
        try:
            for p in sparsifier_passes(args.parallelization_strategy):
                p.apply(ctx, module)
            return lower_to_llvm(module)
        except DiagnosticException as e:  # a pass rejected an op: at its source
            raise XSparseError(locate_error(e, spans, name)) from None
        except RecursionError:
            raise XSparseError(f"{name}: error: {TOO_DEEP}") from None

    try:
        lowered = run_deep(lower)  # a deep stack: IR nested MAX_NESTING deep
        if args.entry not in lowered.signatures:
            raise XSparseError(
                f"{name}: error: no public function '@{args.entry}' to run"
            )
        signature = lowered.signatures[args.entry]
        if signature.inputs.data or signature.outputs.data:
            raise XSparseError(
                f"{name}: error: '@{args.entry}' must take no arguments and return nothing "
                "(-entry-point-result=void)"
            )
        function = jit.compile(lowered, opt_level=args.opt_level).function(args.entry)
    except XSparseError as e:
        print(e, file=sys.stderr)
        return 1
    except Exception as e:
        if os.environ.get("XSPARSE_TRACEBACK"):
            raise
        print(
            f"{name}: error: {str(e).splitlines()[0] if str(e) else type(e).__name__}",
            file=sys.stderr,
        )
        return 1
    sys.stdout.flush()
    runtime_errors.exit_on_error("xsparse-run")  # as MLIR's runtime: report, exit 1
    function()
    return 0
