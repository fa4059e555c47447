"""`python -m xsparse.backend FILE [-e main] [--emit-llvm]`: run a memref-level module.

Lowers FILE with `convert-to-llvm`, JIT-compiles it and calls the entry
function (no arguments, no results), as `mlir-runner -e main
-entry-point-result=void` does; `--emit-llvm` prints the LLVM IR instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xdsl.context import Context
from xdsl.dialects import get_all_dialects
from xdsl.parser import Parser

from xsparse.backend import jit, lower_to_llvm
from xsparse.dialects import get_all_dialects as get_xsparse_dialects


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xsparse.backend")
    parser.add_argument("file")
    parser.add_argument("-e", "--entry", default="main")
    parser.add_argument("--emit-llvm", action="store_true")
    args = parser.parse_args(argv)
    ctx = Context()
    for name, factory in {**get_all_dialects(), **get_xsparse_dialects()}.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    with open(args.file) as f:
        module = Parser(ctx, f.read(), args.file).parse_module()
    lowered = lower_to_llvm(module)
    if args.emit_llvm:
        sys.stdout.write(lowered.llvm_ir())
        return 0
    jit.compile(lowered).function(args.entry)()
    return 0


if __name__ == "__main__":
    sys.exit(main())
