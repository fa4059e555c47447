"""`xsparse-run FILE [-e main]`: compile with the sparsifier and run a function.

The counterpart of `mlir-opt --sparsifier FILE | mlir-runner -e main
-entry-point-result=void`: the entry function takes no arguments and returns
nothing; what it prints (`vector.print`, `printMemref*`, `sparse_tensor.print`)
goes to stdout in mlir-runner's format.

`--parallelization-strategy` is the sparsifier's option (default `none`, as
in MLIR); parallel loops, from it or written as `scf.parallel`, run on
`--num-threads` threads (default: `XSPARSE_NUM_THREADS`, else the cores).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import get_args

from xsparse.backend import jit, runtime_errors, threads
from xsparse.backend.kernel import make_context
from xsparse.backend.lowering import lower_to_llvm
from xsparse.diagnostics import XSparseError, parse_module
from xsparse.transforms.pipeline import ParallelizationStrategy, sparsifier_passes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="xsparse-run",
        description="Compile FILE with the sparsifier and run a function.",
    )
    parser.add_argument("file", help="MLIR file ('-' for stdin)")
    parser.add_argument(
        "-e", "--entry", default="main", help="function to run (default: main)"
    )
    parser.add_argument(
        "--entry-point-result",
        default="void",
        choices=["void"],
        help="as mlir-runner; only void",
    )
    parser.add_argument(
        "-O",
        dest="opt_level",
        type=int,
        default=3,
        choices=range(4),
        help="LLVM optimization level",
    )
    parser.add_argument(
        "--parallelization-strategy",
        default="none",
        choices=get_args(ParallelizationStrategy),
        help="the sparsifier's parallelization-strategy (default: none)",
    )
    parser.add_argument(
        "--num-threads",
        type=int,
        default=None,
        help="threads for parallel loops (default: XSPARSE_NUM_THREADS, else the cores)",
    )
    parser.add_argument(
        "--shared-libs",
        default="",
        help="accepted for mlir-runner compatibility; xsparse links its own runtime",
    )
    args = parser.parse_args(argv)
    if args.num_threads is not None:
        if args.num_threads < 1:
            parser.error("--num-threads must be at least 1")
        threads.set_num_threads(args.num_threads)
    name = "<stdin>" if args.file == "-" else args.file
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file) as f:
                text = f.read()
    except OSError as e:
        print(f"xsparse-run: error: {e}", file=sys.stderr)
        return 1
    ctx = make_context()
    try:
        module = parse_module(ctx, text, name)
        for p in sparsifier_passes(args.parallelization_strategy):
            p.apply(ctx, module)
        lowered = lower_to_llvm(module)
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


if __name__ == "__main__":
    sys.exit(main())
