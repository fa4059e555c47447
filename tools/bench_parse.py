"""`xsparse-opt` against `mlir-opt-22` on large inputs: time and peak memory
of parsing, verifying and printing (no passes), and the ratios.

    python tools/bench_parse.py [--scale 1.0] [--only chain,string,dense]

The inputs (issue 37): a function of 10^5 additions in a chain, a 50 MB
string attribute, a 3M-element `dense<[...]>` constant; `--scale` shrinks
them all. Each tool runs in a fresh child; its peak RSS is the child's
`ru_maxrss`. The goal is a ratio within 3 in time and memory, and a peak RSS
under 10 times the input.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

MLIR_OPT = "mlir-opt-22"


def chain(size: int) -> str:
    """A function of `size` additions, each of the one before."""
    lines = ["func.func @f(%a: f64) -> f64 {", "  %v0 = arith.addf %a, %a : f64"]
    lines += [f"  %v{i} = arith.addf %v{i - 1}, %a : f64" for i in range(1, size)]
    return "\n".join([*lines, f"  return %v{size - 1} : f64", "}", ""])


def string(size: int) -> str:
    """A function with a string attribute of `size` bytes."""
    return f'func.func @f() attributes {{s = "{"a" * size}"}} {{\n  return\n}}\n'


def dense(size: int) -> str:
    """A function returning a `dense<[...]>` constant of `size` f64 elements."""
    elements = ", ".join(f"{i % 1000}.5" for i in range(size))
    t = f"tensor<{size}xf64>"
    return (
        f"func.func @f() -> {t} {{\n  %c = arith.constant dense<[{elements}]> : {t}\n"
        f"  return %c : {t}\n}}\n"
    )


INPUTS: dict[str, tuple[Callable[[int], str], int]] = {
    "chain": (chain, 100_000),
    "string": (string, 50 << 20),
    "dense": (dense, 3_000_000),
}


MEASURER = """
import resource, subprocess, sys, time
start = time.perf_counter()
status = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL).returncode
seconds = time.perf_counter() - start
print(seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, status)
"""
"""Runs a command as its only child: the child's own peak RSS."""


def measure(command: list[str]) -> tuple[float, float]:
    """Seconds and peak RSS (MiB) of `command`."""
    out = subprocess.run(
        [sys.executable, "-c", MEASURER, *command], capture_output=True, text=True
    )
    seconds, peak, status = out.stdout.split()
    if status != "0":
        print(f"{command[-1]}: exit {status}: {out.stderr[-300:]}", file=sys.stderr)
    return float(seconds), int(peak) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", default=",".join(INPUTS))
    args = parser.parse_args()
    xsparse_opt = [sys.executable, "-m", "xsparse.tools.opt"]
    has_mlir = shutil.which(MLIR_OPT) is not None
    print(
        f"{'input':<8} {'MB':>7} {'xsparse s':>10} {'MiB':>8} {'mlir s':>8} "
        f"{'MiB':>8} {'time x':>7} {'mem x':>6} {'RSS/input':>9}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for name in args.only.split(","):
            make, size = INPUTS[name]
            path = Path(folder) / f"{name}.mlir"
            path.write_text(make(max(1, int(size * args.scale))))
            megabytes = path.stat().st_size / 2**20
            ours = measure([*xsparse_opt, str(path), "-o", "-"])
            theirs = measure([MLIR_OPT, str(path)]) if has_mlir else None
            row = f"{name:<8} {megabytes:>7.1f} {ours[0]:>10.2f} {ours[1]:>8.0f}"
            if theirs is not None:
                row += f" {theirs[0]:>8.2f} {theirs[1]:>8.0f}"
                row += f" {ours[0] / theirs[0]:>7.1f} {ours[1] / theirs[1]:>6.1f}"
            row += f" {ours[1] / max(megabytes, 1e-9):>9.1f}"
            print(row, flush=True)


if __name__ == "__main__":
    main()
