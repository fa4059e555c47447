"""Kernels specialized for the index widths of the scipy matrices they get.

scipy keeps CSR/CSC indices as int32 (int64 only past 2**31 entries), while
a kernel written with `posWidth`/`crdWidth` left at `index` reads 64-bit
positions and coordinates: each call would copy the matrix's indices. For
an argument of such a CSR or CSC encoding, a call with an int32 scipy matrix
instead runs a variant of the kernel whose encoding for that argument has
`posWidth = 32, crdWidth = 32`: compiled once (like any kernel, cached in the
process and on disk), it reads scipy's buffers as they are.

An argument is narrowed only where nothing the kernel returns or writes has
its encoding (a result's positions must stay as wide as the user asked).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp

from xsparse.backend.sparse_storage import compressed_2d_kind
from xsparse.diagnostics import parse_module_with_spans
from xsparse.dialects.sparse_tensor.encoding import SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.storage import sparse_encoding


def narrowable_arguments(
    function: func.FuncOp, written: Sequence[int]
) -> tuple[tuple[int, str], ...]:
    """(position, 'csr' | 'csc') of the arguments whose encoding is scipy's
    CSR or CSC layout with index widths, and is on no result or written
    argument."""
    inputs = function.function_type.inputs.data
    kept = [inputs[p] for p in written]
    kept += list(function.function_type.outputs.data)
    kept_encodings = [sparse_encoding(t) for t in kept]
    narrowable: list[tuple[int, str]] = []
    for position, t in enumerate(inputs):
        enc = sparse_encoding(t)
        if enc is None or enc.pos_width or enc.crd_width or enc in kept_encodings:
            continue
        kind = compressed_2d_kind(enc)
        if kind is not None:
            narrowable.append((position, kind))
    return tuple(narrowable)


def is_int32_compressed(arg: Any, kind: str) -> bool:
    """A scipy CSR/CSC matrix of format `kind` with int32 index arrays
    (duck-typed: no scipy import on the call path)."""
    try:
        return (
            arg.format == kind
            and arg.indptr.dtype.itemsize == 4
            and arg.indices.dtype.itemsize == 4
        )
    except AttributeError:
        return False


def narrowed_source(
    ctx: Context, source: str, entry: str, positions: Sequence[int]
) -> str:
    """The kernel's module with the encodings of the arguments at
    `positions` given 32-bit positions and coordinates (everywhere they
    occur: the argument's value flows through the body with its type);
    `entry`: the kernel's function."""
    module, _ = parse_module_with_spans(ctx, source, "<source>")
    function = _function(module, entry)
    text = str(module)
    inputs = function.function_type.inputs.data
    for position in positions:
        attr = inputs[position]
        encoding = getattr(attr, "encoding", None)
        assert isinstance(encoding, SparseTensorEncodingAttr)
        narrow = dataclasses.replace(encoding.data, pos_width=32, crd_width=32)
        # The encoding's body, also where iterator and iteration-space types
        # print it without the `#sparse_tensor.encoding` prefix.
        old_body, new_body = _body(encoding), _body(SparseTensorEncodingAttr(narrow))
        text = text.replace(old_body, new_body)
    return text


def _body(encoding: SparseTensorEncodingAttr) -> str:
    """`{ map = ... }` of `#sparse_tensor.encoding<{ map = ... }>`."""
    text = str(encoding)
    return text[text.index("<") + 1 : -1]


def _function(module: ModuleOp, entry: str) -> func.FuncOp:
    for op in module.ops:
        if isinstance(op, func.FuncOp) and op.sym_name.data == entry:
            return op
    raise AssertionError(f"the kernel's function '{entry}' is in its source")
