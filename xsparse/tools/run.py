"""`xsparse-run FILE [-e main]`: compile with the sparsifier and run a function.

The counterpart of `mlir-opt --sparsifier FILE | mlir-runner -e main
-entry-point-result=void`: the entry function takes no arguments and returns
nothing; what it prints (`vector.print`, `printMemref*`, `sparse_tensor.print`)
goes to stdout in mlir-runner's format. FILE `-` is stdin.

`--parallelization-strategy` is the sparsifier's option (default `none`, as
in MLIR); parallel loops, from it or written as `scf.parallel`, run on
`--num-threads` threads (default: `XSPARSE_NUM_THREADS`, else the cores).

`--version` answers before xDSL and the backend load
(`xsparse.tools.run_driver` does the work).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from xsparse.tools.command_line import asks_for_version, version_line


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    if asks_for_version(arguments):
        print(version_line("xsparse-run"))
        return 0
    from xsparse.tools.run_driver import run

    return run(arguments)


if __name__ == "__main__":
    sys.exit(main())
