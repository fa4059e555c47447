"""xsparse on Dask arrays of sparse chunks (`pip install xsparse[dask]`).

`einsum("ij,j->i", A, x)`, with `A` a `dask.array.Array` whose chunks are
scipy.sparse matrices (or pydata/sparse arrays, `xsparse.SparseTensor`s,
numpy arrays) and `x` a Dask or numpy array, returns a Dask array built by
`dask.array.blockwise`: one task per block of the result, calling
`xsparse.einsum` on its blocks of the operands. `blockwise(kernel, "i", A,
"ij", x, "j")` does the same with a kernel from `xsparse.compile`, in
`dask.array.blockwise`'s notation (an index string per operand); the
kernel's in-place output (SpMV's `y`) is made zero-filled for each block.
An index summed over (SpMV's `j`) that is split into several chunks gives
one partial result per chunk, added by Dask's tree reduction
(`dask.array.reduction`, `split_every` as Dask's). Results that are sparse
per chunk (elementwise products, sparse outputs) stay sparse chunks.

Nothing here schedules: the graph runs wherever the caller computes it (the
threaded scheduler, a `distributed.Client` of a LocalCluster, a cluster's
scheduler address, dask-jobqueue). A task carries how to compile its kernel
(the expression, or a kernel's `compiled_from`), never a compiled kernel,
so the scheduler, which unpickles the graph, compiles nothing; a worker
compiles a kernel on its first task and takes it from its process's caches
(or the disk cache) on the next ones.

Operands are checked when the graph is built: a Dask array whose meta is
not one of the chunk types above (TypeError), operands that disagree on an
index's size or chunks (ValueError: rechunk one like the other); a task
that meets a chunk of another type raises TypeError. Dask keeps a numpy
meta for an array of `SparseTensor` chunks (its meta must be sliceable):
the chunks stay `SparseTensor`s, and Dask concatenates them into one
(`compute()`) through the `concatenate_lookup` registered on import, beside
Dask `sizeof`s for `SparseTensor`s and scipy's sparse arrays. A worker
registers them when it first runs a task of this module; workers started
with `--preload xsparse.dask` (`LocalCluster(preload=["xsparse.dask"])`)
have them from the start, for chunks made before.
"""

from __future__ import annotations

import dataclasses
import functools
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, cast

import dask.array as da
import numpy as np
import scipy.sparse as sp
from dask.array.dispatch import concatenate_lookup
from dask.sizeof import sizeof
from xdsl.ir import Attribute

from xsparse.backend.kernel import CompileOptions, Kernel, compile
from xsparse.backend.sparse_storage import SparseTensor, numpy_dtype
from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.storage import sparse_encoding
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.frontend import api
from xsparse.frontend.expression import Access, walk
from xsparse.frontend.operands import is_pydata
from xsparse.frontend.results import Format
from xsparse.frontend.subscripts import parse_subscripts

__all__ = ["blockwise", "einsum"]

CHUNK_TYPES = (
    "numpy arrays, scipy.sparse matrices, pydata/sparse arrays or xsparse.SparseTensors"
)
"""What a chunk of an operand may be, for error messages."""


def einsum(
    subscripts: str,
    *operands: Any,
    format: Format = None,
    split_every: int | None = None,
    **compile_options: Any,
) -> da.Array:
    """`xsparse.einsum` on Dask arrays, chunk by chunk: a Dask array of the
    result, whose chunks are what `xsparse.einsum` returns for the operands'
    chunks (a numpy array for sparse @ dense and reductions, a sparse matrix
    of the first sparse operand's family for elementwise and sparse
    products, or `format=`'s). Operands are Dask arrays, or numpy arrays
    (chunked here like the Dask operands' indices); an index's chunks must
    agree across operands. Indices summed over and split into several
    chunks are added by a tree reduction (`split_every` as in
    `dask.array.reduction`). `compile_options` go to `xsparse.compile`."""
    where = f"xsparse.dask.einsum {subscripts!r}"
    assignment = parse_subscripts(subscripts, len(operands))
    accesses = sorted(
        (a for a in walk(assignment.rhs) if isinstance(a, Access)),
        key=lambda a: a.operand,
    )
    indices = ["".join(a.indices) for a in accesses]
    arrays = _dask_operands(operands, indices, where)
    block = functools.partial(_einsum_block, subscripts, format, compile_options)
    meta = block(*(cast(da.Array, a)._meta for a in arrays))
    pairs = list(zip(arrays, indices, strict=True))
    output = "".join(assignment.output)
    dtype = np.dtype(meta.dtype)
    return _contract(block, output, pairs, meta, dtype, split_every, "xsparse-einsum")


def _einsum_block(
    subscripts: str, format: Format, options: dict[str, Any], *blocks: Any
) -> Any:
    """`xsparse.einsum` on a block of each operand (a task of `einsum`)."""
    return api.einsum(subscripts, *blocks, format=format, **options)


def blockwise(
    kernel: Kernel,
    out_ind: str,
    *args: Any,
    split_every: int | None = None,
    validate: bool = True,
) -> da.Array:
    """A compiled kernel on Dask arrays, block by block, in
    `dask.array.blockwise`'s notation: `blockwise(spmv, "i", A, "ij", x,
    "j")` is `y = A @ x` with A chunked by rows and x broadcast. `args` are
    pairs of an operand and its index string, one pair per argument the
    kernel reads, in order; a scalar argument is passed with index None.
    The argument the kernel writes in place (its output) is not passed: it
    is made zero-filled for each block, shaped by `out_ind`. Indices summed
    over and split into several chunks give partial results that are added
    (the kernel must sum over them, as `arith.addf` reductions do), by a
    tree reduction (`split_every` as in `dask.array.reduction`).
    `validate=False` skips the per-chunk checks of sparse buffers
    (`Kernel.__call__`). The kernel must have been made by `xsparse.compile`
    (a task recompiles it from its `compiled_from`, once per worker)."""
    if not isinstance(kernel, Kernel):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            f"xsparse.dask.blockwise takes a Kernel (xsparse.compile), got {type(kernel).__name__}"
        )
    where = f"xsparse.dask.blockwise({kernel.name})"
    if kernel.compiled_from is None:
        raise TypeError(f"{where}: the kernel was not made by xsparse.compile")
    inputs: list[Attribute] = list(kernel.signature.inputs.data)
    outputs: list[Attribute] = list(kernel.signature.outputs.data)
    if len(kernel.written) > 1 or (not kernel.written and len(outputs) != 1):
        raise TypeError(
            f"{where}: xsparse.dask runs kernels with one result (one output "
            f"written in place, or one returned value), not {kernel!r}"
        )
    written = kernel.written[0] if kernel.written else None
    read = [p for p in range(len(inputs)) if p != written]
    if len(args) != 2 * len(read):
        made = (
            "" if written is None else f"; argument {written}, its output, is made here"
        )
        raise TypeError(
            f"{where}: takes {len(read)} pair(s) of an operand and its indices "
            f"(arguments {read}{made}), got {len(args)} value(s)"
        )
    operands = list(args[::2])
    indices = cast(list[str | None], list(args[1::2]))
    for k, (position, ind) in enumerate(zip(read, indices, strict=True)):
        _check_indices(inputs[position], ind, f"{where}: operand {k}")
    result_type = outputs[0] if written is None else inputs[written]
    _check_indices(result_type, out_ind, f"{where}: out_ind")
    arrays = _dask_operands(operands, indices, where)
    out_dims = tuple(_first_use(letter, indices, where) for letter in out_ind)
    dtype = numpy_dtype(_element_type(result_type))
    block = _KernelBlock(
        kernel.compiled_from,
        written,
        dtype,
        out_dims,
        tuple(sparse_encoding(inputs[p]) for p in read),
        validate,
    )
    meta = np.empty((0,) * len(out_ind), dtype)
    pairs = list(zip(arrays, indices, strict=True))
    token = f"xsparse-{kernel.name}"
    return _contract(block, out_ind, pairs, meta, dtype, split_every, token)


@dataclass(frozen=True)
class _KernelBlock:
    """One task of `blockwise`: the kernel on a block of each operand, into
    a zero-filled output block. It holds the kernel's `compiled_from`, not
    the kernel, and compiles it (from the caches) where it runs."""

    compiled_from: tuple[str, str | None, CompileOptions]
    written: int | None
    """The position of the output argument; None for a kernel returning its result."""
    dtype: np.dtype[Any]
    out_dims: tuple[tuple[int, int], ...]
    """Per output dimension: (operand, dimension) of the same size."""
    encodings: tuple[Encoding | None, ...]
    """Per operand: the kernel's encoding of it (pydata chunks are converted to it)."""
    validate: bool

    def __call__(self, *blocks: Any) -> Any:
        source, entry, options = self.compiled_from
        kernel = compile(source, entry, **dataclasses.asdict(options))
        args = list(blocks)
        for k, encoding in enumerate(self.encodings):
            if encoding is not None and is_pydata(args[k]):
                args[k] = _pydata_as_tensor(args[k], encoding)
        if self.written is not None:
            shape = tuple(args[k].shape[d] for k, d in self.out_dims)
            args.insert(self.written, np.zeros(shape, self.dtype))
        # The output block is this task's own: nothing in it to keep if the
        # kernel's range checks fail, so they run inside the kernel.
        return kernel(*args, validate=self.validate, scratch_outputs=True)


def _pydata_as_tensor(array: Any, encoding: Encoding) -> SparseTensor:
    """A pydata/sparse chunk as a SparseTensor in the kernel's encoding."""
    coo = array.asformat("coo")
    coords = np.asarray(coo.coords).T
    return SparseTensor.from_coo(
        coords, np.asarray(coo.data), coo.shape, encoding, dtype=coo.dtype
    )


def _element_type(t: Attribute) -> Attribute:
    return t.element_type if is_tensor_type(t) or is_memref_type(t) else t


def _check_indices(t: Attribute, ind: str | None, where: str) -> None:
    """`ind` fits a kernel argument of type `t`: one letter per dimension of
    a tensor or memref, None for a scalar."""
    if not (is_tensor_type(t) or is_memref_type(t)):
        if ind is not None:
            raise ValueError(f"{where}: a scalar ({t}) takes index None, not {ind!r}")
        return
    if not isinstance(ind, str) or len(ind) != t.get_num_dims():
        raise ValueError(
            f"{where}: {t} takes a string of {t.get_num_dims()} index letter(s), got {ind!r}"
        )


def _first_use(
    letter: str, indices: Sequence[str | None], where: str
) -> tuple[int, int]:
    """(operand, dimension) of the first operand indexed by `letter`."""
    for k, ind in enumerate(indices):
        if ind is not None and letter in ind:
            return k, ind.index(letter)
    raise ValueError(f"{where}: output index {letter!r} indexes no operand")


def _dask_operands(
    operands: Sequence[Any], indices: Sequence[str | None], where: str
) -> list[Any]:
    """The operands as Dask arrays (numpy ones chunked like the Dask ones'
    indices; scalars, with index None, as they are), after checking their
    chunk types, ranks, and that each index has one size and one chunking."""
    chunks: dict[str, tuple[tuple[int, ...], str]] = {}
    # The Dask operands first: a numpy operand takes their chunks.
    for k in sorted(
        range(len(operands)), key=lambda k: not isinstance(operands[k], da.Array)
    ):
        ind = indices[k]
        if ind is None:
            continue
        name = f"operand {k}"
        given = _operand_chunks(operands[k], f"{where}: {name}")
        if len(given) != len(ind):
            raise ValueError(
                f"{where}: {name} has {len(given)} dimension(s), its indices "
                f"{ind!r} {len(ind)}"
            )
        for dim, (letter, sizes) in enumerate(zip(ind, given, strict=True)):
            place = f"{name} (dimension {dim})"
            first, first_place = chunks.setdefault(letter, (sizes, place))
            if sum(first) != sum(sizes):
                raise ValueError(
                    f"{where}: index {letter!r} has size {sum(first)} in "
                    f"{first_place} but {sum(sizes)} in {place}"
                )
            if first != sizes and isinstance(operands[k], da.Array):
                raise ValueError(
                    f"{where}: index {letter!r} is chunked {first} in "
                    f"{first_place} but {sizes} in {place}; rechunk one like "
                    "the other (dask.array.Array.rechunk)"
                )
    return [
        da.from_array(o, chunks=cast(Any, tuple(chunks[c][0] for c in ind)))
        if isinstance(o, np.ndarray) and ind is not None
        else o
        for o, ind in zip(operands, indices, strict=True)
    ]


def _operand_chunks(operand: Any, where: str) -> tuple[tuple[int, ...], ...]:
    """A Dask array's chunks (after checking its meta's type), or a numpy
    array's shape as one chunk per dimension."""
    if isinstance(operand, da.Array):
        meta = cast(object, operand._meta)
        if not _is_chunk(meta):
            raise TypeError(
                f"{where} has chunks of type {type(meta).__name__} (its "
                f"meta); xsparse.dask takes {CHUNK_TYPES}"
            )
        return cast(tuple[tuple[int, ...], ...], operand.chunks)
    if isinstance(operand, np.ndarray):
        return tuple((int(n),) for n in cast(tuple[int, ...], operand.shape))
    raise TypeError(
        f"{where} is a {type(operand).__name__}; pass a dask.array.Array "
        "(dask.array.from_array(..., asarray=False), from_delayed, map_blocks) "
        "or a numpy array"
    )


def _is_chunk(value: object) -> bool:
    """A chunk xsparse takes (a numpy scalar: a 0-d result's chunk)."""
    return (
        isinstance(value, (np.ndarray, np.generic, SparseTensor))
        or sp.issparse(value)
        or is_pydata(value)
    )


def _on_chunks(block: Any, depths: tuple[int | None, ...], *values: Any) -> Any:
    """A task: `block` on a chunk of each operand, unwrapped from the lists
    of one chunk that Dask hands per index summed over in a single chunk
    (`depths` of them; None for a scalar, passed as it is) and checked."""
    return block(
        *(
            value if depth is None else _chunk(value, k, depth)
            for k, (value, depth) in enumerate(zip(values, depths, strict=True))
        )
    )


def _chunk(value: Any, operand: int, depth: int) -> Any:
    for _ in range(depth):
        value = cast(list[Any], value)[0]
    if not _is_chunk(value):
        raise TypeError(
            f"a chunk of operand {operand} is a {type(value).__name__}; "
            f"xsparse.dask takes {CHUNK_TYPES}"
        )
    return value


def _contract(
    block: Any,
    output: str,
    pairs: Sequence[tuple[Any, str | None]],
    meta: Any,
    dtype: np.dtype[Any],
    split_every: int | None,
    token: str,
) -> da.Array:
    """`block` on every block of the result (`dask.array.blockwise`); the
    summed indices split into several chunks get one partial result per
    chunk, added by `dask.array.reduction`'s tree."""
    split = "".join(
        dict.fromkeys(
            letter
            for array, ind in pairs
            if ind is not None
            for letter, blocks in zip(ind, array.numblocks, strict=True)
            if letter not in output and blocks > 1
        )
    )
    task_ind = output + split
    depths = tuple(
        None if ind is None else sum(letter not in task_ind for letter in ind)
        for _, ind in pairs
    )
    tasks = cast(
        da.Array,
        da.blockwise(
            functools.partial(_on_chunks, block, depths),
            task_ind,
            *(x for pair in pairs for x in pair),
            concatenate=False,
            adjust_chunks=dict.fromkeys(split, 1),
            dtype=dtype,
            meta=meta if not split else np.empty((0,) * len(task_ind), dtype),
            token=token,
        ),
    )
    if not split:
        return tasks
    return cast(
        da.Array,
        da.reduction(
            tasks,
            _keep,
            _add,
            axis=tuple(range(len(output), len(task_ind))),
            dtype=dtype,
            split_every=split_every,
            concatenate=False,
            meta=meta,
            name=f"{token}-sum",
        ),
    )


def _keep(partial: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    """The reduction's `chunk` step: a partial result is already reduced."""
    return partial


def _add(partials: Any, axis: tuple[int, ...], keepdims: bool) -> Any:
    """The reduction's `combine` and `aggregate` steps: the sum of the
    partial results (nested lists of them), of the first one's format."""
    flat = list(_flatten(partials))
    total = functools.reduce(operator.add, flat)
    if sp.issparse(total) and total.format != flat[0].format:
        return total.asformat(flat[0].format)  # coo + coo is a csr
    return total


def _flatten(value: Any) -> Any:
    if isinstance(value, list):
        for item in cast(list[Any], value):
            yield from _flatten(item)
    else:
        yield value


def _concatenate_tensors(
    tensors: Sequence[SparseTensor], axis: int = 0
) -> SparseTensor:
    """`SparseTensor` chunks joined along `axis` into one, in the first
    chunk's encoding (Dask's `concatenate_lookup` for them)."""
    first = tensors[0]
    shape = list(first.shape)
    shape[axis] = 0
    coords: list[np.ndarray[Any, Any]] = []
    values: list[np.ndarray[Any, Any]] = []
    for tensor in tensors:
        if len(tensor.shape) != len(shape) or any(
            s != t
            for d, (s, t) in enumerate(zip(shape, tensor.shape, strict=True))
            if d != axis
        ):
            raise ValueError(
                f"cannot concatenate SparseTensors of shapes {first.shape} and "
                f"{tensor.shape} along axis {axis}"
            )
        c, v = tensor.to_coo()
        c = c.copy()
        c[:, axis] += shape[axis]
        shape[axis] += tensor.shape[axis]
        coords.append(c)
        values.append(v)
    return SparseTensor.from_coo(
        np.concatenate(coords),
        np.concatenate(values),
        shape,
        first.encoding,
        dtype=first.dtype,
    )


def _tensor_bytes(tensor: SparseTensor) -> int:
    """A SparseTensor's buffers' size (Dask's `sizeof`: a worker's memory
    accounting, and the scheduler's cost of moving a chunk)."""
    buffers = [tensor.values, *tensor.positions, *tensor.coordinates]
    return sum(b.nbytes for b in buffers if b is not None)


def _scipy_array_bytes(array: Any) -> int:
    """A scipy sparse array's buffers' size. Dask's `sizeof` knows scipy's
    sparse matrices, not its sparse arrays (`csr_array`: 56 bytes), and its
    scheduler then moves a large chunk to the worker holding x rather than
    run the task where the chunk is."""
    fields = cast(dict[str, object], vars(array))
    return sum(cast(int, sizeof(value)) for value in fields.values())


concatenate_lookup.register(SparseTensor, _concatenate_tensors)
sizeof.register(SparseTensor, _tensor_bytes)
sizeof.register(sp.sparray, _scipy_array_bytes)
