#!/usr/bin/env python3
"""Print the multiset of vector-dialect op names of each function of an MLIR file.

`vector_ops.py FILE` (or stdin) prints `@function vector.op count` lines, sorted,
so that the output of mlir-opt-22 and xsparse-opt on the same kernel and
options can be compared with `diff` (the lit tests of sparse-vectorization).
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

FUNCTION = re.compile(r"func\.func\s+(?:private\s+)?@([\w$.]+)")
OP = re.compile(r"^\s*(?:%[\w#:, %]+=\s*)?\"?(vector\.\w+)")


def vector_ops(text: str) -> list[str]:
    """`@f vector.op n` for every vector op kind of every function, sorted."""
    counts: Counter[tuple[str, str]] = Counter()
    function = "<module>"
    for line in text.splitlines():
        found = FUNCTION.search(line)
        if found:
            function = found.group(1)
        op = OP.match(line)
        if op:
            counts[(function, op.group(1))] += 1
    return [f"@{f} {op} {n}" for (f, op), n in sorted(counts.items())]


if __name__ == "__main__":
    text = Path(sys.argv[1]).read_text() if len(sys.argv) > 1 else sys.stdin.read()
    print("\n".join(vector_ops(text)))
