"""`xsparse-opt`: mlir-opt's command line over xDSL's opt driver, with
xsparse's dialects, passes and targets (`xsparse.tools.opt_driver`).

    xsparse-opt [FILE|-] [-o FILE|-] [-p 'pass,pass{option=value}']
                [--pass-pipeline='builtin.module(...)'] [--split-input-file]
                [--verify-diagnostics] [--mlir-print-op-generic] [-t llvm]

`--version` answers before xDSL and the dialects load.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Sequence

from xsparse.tools.command_line import asks_for_version, version_line


def main(args: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if args is None else args)
    if asks_for_version(arguments):
        print(version_line("xsparse-opt"))
        return 0
    # xDSL builds thousands of classes on import; collecting garbage meanwhile
    # finds none and costs a sixth of the start-up time.
    gc.disable()
    try:
        from xsparse.tools.opt_driver import run
    finally:
        gc.enable()
    return run(arguments)


if __name__ == "__main__":
    sys.exit(main())
