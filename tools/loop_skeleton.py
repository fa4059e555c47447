#!/usr/bin/env python3
"""Print the loop structure of an MLIR module: the nesting of scf.for, scf.parallel, scf.while
and scf.if (with non-empty else; `scf.if %true` is looked through), one per
line, indented by depth. xsparse's size-hint loops (`xsparse.size_hint`),
which MLIR does not emit, are left out.

Used to compare xsparse's sparsification output with mlir-opt-22's on the same
kernel: `xsparse-opt ... | tools/loop_skeleton.py` against
`mlir-opt-22 ... | tools/loop_skeleton.py`.
"""

from __future__ import annotations

import sys

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import IntegerAttr, IntegerType
from xdsl.ir import Operation, SSAValue

from xsparse.diagnostics import XSparseError, parse_module
from xsparse.dialect_registry import make_context
from xsparse.transforms.sparsifier.output_sizing import SIZE_HINT_ATTR

LOOPS = (scf.ForOp, scf.ParallelOp, scf.WhileOp, scf.IfOp)


def _is_true(value: SSAValue) -> bool:
    owner = value.owner
    return (
        isinstance(owner, arith.ConstantOp)
        and isinstance(owner.value, IntegerAttr)
        and owner.value.value.data in (1, -1)
        and owner.value.type == IntegerType(1)
    )


def skeleton(op: Operation, depth: int = 0) -> list[str]:
    """The loop-structure lines of `op` and everything nested in it."""
    lines: list[str] = []
    inner = depth
    if isinstance(op, scf.IfOp) and _is_true(op.cond):
        # `scf.if %true` (MLIR 22 emits some) is structure-free: its then-block.
        return [
            line
            for child in op.true_region.block.ops
            for line in skeleton(child, depth)
        ]
    if SIZE_HINT_ATTR in op.attributes:
        return []  # xsparse's own size-hint loop, before MLIR's loop nest
    if isinstance(op, LOOPS):
        lines.append("  " * depth + op.name.removeprefix("scf."))
        inner = depth + 1
    for i, region in enumerate(op.regions):
        if isinstance(op, scf.IfOp) and i == 1:
            if all(len(block.ops) <= 1 for block in region.blocks):
                continue  # an empty else
            lines.append("  " * depth + "else")
        for block in region.blocks:
            for child in block.ops:
                lines.extend(skeleton(child, inner))
    return lines


def main() -> int:
    ctx = make_context(allow_unregistered=True)
    text = sys.stdin.read()
    try:
        module = parse_module(ctx, text, "<stdin>")
    except XSparseError as e:
        print(e, file=sys.stderr)
        return 1
    print("\n".join(skeleton(module)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
