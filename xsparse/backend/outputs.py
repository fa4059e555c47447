"""The arguments a kernel writes, and numpy's rules for them at a call.

A kernel updates a tensor argument in place where it is the `outs` of a linalg
op or the destination of an insertion (the buffer reuse of MLIR's one-shot
bufferization). At a call, as numpy's ufuncs treat `out=`: a read-only array
is refused before native code runs; an input that overlaps a written argument
is read as if copied first; a written array that is not row-major contiguous
is written through a temporary that is copied back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np
from xdsl.dialects import func, scf, tensor
from xdsl.dialects.linalg.abstract_ops import LinalgStructuredOperation
from xdsl.ir import SSAValue

from xsparse.dialects.sparse_tensor.ops_conversion import ReinterpretMapOp
from xsparse.dialects.type_guards import is_tensor_type


def _aliases(value: SSAValue) -> list[SSAValue]:
    """`value` and the values that are the same tensor: casts, reinterpreted
    maps and loop-carried copies of it."""
    found = [value]
    for current in found:
        for use in current.uses:
            op = use.operation
            if isinstance(op, tensor.CastOp | ReinterpretMapOp):
                found.append(op.results[0])
            elif isinstance(op, scf.ForOp) and use.index >= 3:
                position = use.index - 3
                found += [op.body.block.args[1 + position], op.results[position]]
    return found


def _writes(value: SSAValue) -> bool:
    """Whether `value` is the `outs` of a linalg op (its operands after the
    inputs) or the destination of an insertion (operand 1)."""
    for use in value.uses:
        op = use.operation
        if isinstance(op, LinalgStructuredOperation) and use.index >= len(op.inputs):
            return True
        if isinstance(op, tensor.InsertOp | tensor.InsertSliceOp) and use.index == 1:
            return True
    return False


def written_arguments(function: func.FuncOp) -> tuple[int, ...]:
    """The positions of the tensor arguments that `function` may write."""
    return tuple(
        arg.index
        for arg in function.body.block.args
        if is_tensor_type(arg.type) and any(_writes(v) for v in _aliases(arg))
    )


@dataclass
class CallOutputs:
    """numpy's rules for one call's written arguments."""

    written: tuple[int, ...]
    where: Sequence[str]
    copies: list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]] = field(
        default_factory=lambda: []
    )

    def prepare(self, args: Sequence[Any]) -> list[Any]:
        """The arguments to pass: written arrays checked (and made contiguous
        through a temporary), inputs that overlap them copied."""
        prepared = list(args)
        for position in self.written:
            out = _array(args[position])
            if out is None:
                continue
            if not out.flags.writeable:
                raise ValueError(
                    f"{self.where[position]}: the kernel writes this array in "
                    "place, but it is read-only"
                )
            for other, arg in enumerate(args):
                array = _array(arg)
                if (
                    other != position
                    and array is not None
                    and np.may_share_memory(array, out)
                ):
                    prepared[other] = np.array(array, copy=True)
            if not out.flags.c_contiguous:
                temporary = np.ascontiguousarray(out)
                self.copies.append((out, temporary))
                prepared[position] = temporary
        return prepared

    def finish(self, result: Any) -> Any:
        """Copy the temporaries back; the result with each temporary replaced
        by the caller's array."""
        for out, temporary in self.copies:
            np.copyto(out, temporary)
        if not self.copies:
            return result
        if isinstance(result, tuple):
            items = cast(tuple[Any, ...], result)
            return tuple(self._callers(r) for r in items)
        return self._callers(result)

    def _callers(self, value: Any) -> Any:
        """The caller's array where `value` is the buffer of a temporary."""
        array = _array(value)
        for out, temporary in self.copies:
            if (
                array is not None
                and array.shape == temporary.shape
                and np.may_share_memory(array, temporary)
            ):
                return out
        return value


def _array(value: Any) -> np.ndarray[Any, Any] | None:
    return (
        cast("np.ndarray[Any, Any]", value) if isinstance(value, np.ndarray) else None
    )
