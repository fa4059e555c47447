"""`python -m xsparse.backend FILE [-e main] [--emit-llvm]`: run a memref-level module.

Lowers FILE with `convert-to-llvm`, JIT-compiles it and calls the entry
function (no arguments, no results), as `mlir-runner -e main
-entry-point-result=void` does; `--emit-llvm` prints the LLVM IR instead.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from xdsl.parser import Parser

from xsparse.backend import jit, lower_to_llvm
from xsparse.dialect_registry import make_context


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xsparse.backend")
    parser.add_argument("file")
    parser.add_argument("-e", "--entry", default="main")
    parser.add_argument("--emit-llvm", action="store_true")
    args = parser.parse_args(argv)
    ctx = make_context()
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
