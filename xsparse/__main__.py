"""`python -m xsparse --version`: the versions of xsparse and of what it
builds on (xDSL, llvmlite and the LLVM that llvmlite bundles); `--help`
names the command-line tools and the Python API."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from importlib.metadata import version
from typing import cast

from xsparse.version import __version__

DESCRIPTION = """\
xsparse: a sparse tensor compiler on xDSL. From Python: `import xsparse`
(xsparse.einsum, xsparse.evaluate, xsparse.compile, xsparse.SparseTensor,
xsparse.read_mtx, ...). From the shell: `xsparse-opt FILE -p PASSES` runs
passes as mlir-opt does, `xsparse-run FILE` compiles a file with the
sparsifier pipeline and runs its @main as mlir-runner does."""


def version_line() -> str:
    """`xsparse 0.1.0 (xDSL 0.74.0, llvmlite 0.50.0, LLVM 22.1.0)`."""
    import llvmlite.binding as llvm

    llvm_version_info = cast("tuple[int, int, int]", llvm.llvm_version_info)
    llvm_version = ".".join(map(str, llvm_version_info))
    return (
        f"xsparse {__version__} (xDSL {version('xdsl')}, "
        f"llvmlite {version('llvmlite')}, LLVM {llvm_version})"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m xsparse", description=DESCRIPTION)
    parser.add_argument(
        "--version",
        action="store_true",
        help="print the versions of xsparse, xDSL, llvmlite and LLVM, and exit",
    )
    if parser.parse_args(argv).version:
        print(version_line())
    else:
        parser.print_help()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
