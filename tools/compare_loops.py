#!/usr/bin/env python3
"""Compare the loop structure of xsparse's and mlir-opt-22's sparsification.

usage: compare_loops.py [--options "opt=value ..."] KERNEL.mlir...   (exit 1 and a diff on the first mismatch)

Each kernel goes through `xsparse-opt -p sparse-reinterpret-map,sparsification`
and `mlir-opt-22 --sparse-reinterpret-map --sparsification` (both with the
sparsification options given); the scf loop
nestings (tools/loop_skeleton.py) must be equal.
"""

from __future__ import annotations

import difflib
import subprocess
import sys
from pathlib import Path

SKELETON = [sys.executable, str(Path(__file__).with_name("loop_skeleton.py"))]


def loops(command: list[str]) -> str:
    ir = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return subprocess.run(
        SKELETON, input=ir, capture_output=True, text=True, check=True
    ).stdout


def main(args: list[str]) -> int:
    options = ""
    if args[:1] == ["--options"]:
        options, args = args[1], args[2:]
    ours_pass = f"sparsification{{{options}}}" if options else "sparsification"
    theirs_pass = f"--sparsification={options}" if options else "--sparsification"
    for kernel in args:
        ours = loops(
            ["xsparse-opt", kernel, "-p", f"sparse-reinterpret-map,{ours_pass}"]
        )
        theirs = loops(["mlir-opt-22", "--sparse-reinterpret-map", theirs_pass, kernel])
        if ours != theirs:
            sys.stdout.writelines(
                difflib.unified_diff(
                    theirs.splitlines(True),
                    ours.splitlines(True),
                    "mlir-opt-22",
                    "xsparse",
                )
            )
            print(f"loop structures differ for {kernel}")
            return 1
        print(f"same loops: {Path(kernel).name} ({len(ours.splitlines())} loop ops)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
