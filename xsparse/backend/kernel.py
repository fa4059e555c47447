"""`xsparse.compile`: MLIR text -> a native kernel called on numpy / scipy data.

The source is parsed and verified (a located `XSparseError` otherwise), run
through the sparsifier's passes down to the llvm dialect, JIT-compiled
(cached), and wrapped in a `Kernel` that turns its arguments into the calling
convention of `sparse-tensor-codegen`: numpy arrays for dense tensors (written
in place when they are `outs`), level buffers for sparse tensors
(`xsparse.dialects.sparse_tensor.storage`). Every argument is checked before
native code runs: dtypes, static shapes, and the sizes that the kernel's loops
share between operands.
"""

from __future__ import annotations

import functools
import hashlib
import json
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np
from xdsl.context import Context
from xdsl.dialects import func, get_all_dialects
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException

from xsparse.backend import jit
from xsparse.backend.abi import boundary_scalar
from xsparse.backend.index_bounds import (
    Dimension,
    IndexBound,
    bounds_from_json,
    bounds_to_json,
    index_bounds,
)
from xsparse.backend.lowering import lower_to_llvm
from xsparse.backend.outputs import finish_outputs, prepare_outputs, written_arguments
from xsparse.backend.runtime_errors import raise_pending
from xsparse.backend.sparse_storage import (
    ResultFromFields,
    SparseTensor,
    numpy_dtype,
)
from xsparse.diagnostics import (
    Spans,
    XSparseError,
    format_span,
    locate_error,
    parse_module_with_spans,
)
from xsparse.dialects.sparse_tensor.encoding import Encoding
from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.sparse_tensor.storage import (
    sparse_encoding,
)
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.transforms.pipeline import ParallelizationStrategy, sparsifier_passes
from xsparse.universe import XSPARSE_UNIVERSE
from xsparse.version import __version__


def make_context() -> Context:
    """A context with xDSL's dialects and xsparse's."""
    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    for name, factory in XSPARSE_UNIVERSE.all_dialects.items():
        if name not in ctx.registered_dialect_names:
            ctx.register_dialect(name, factory)
    return ctx


Size = Dimension | int
"""An argument dimension, or a size fixed in the kernel."""


def _operand_sizes(value: SSAValue, function: func.FuncOp) -> list[Size | None]:
    """Per dimension of a linalg.generic operand: the argument dimension it is,
    the argument dimension a `tensor.empty` took its size from (`tensor.dim`),
    or its static size; None where unknown."""
    t = value.type
    if not is_tensor_type(t):
        return []
    if isinstance(value, BlockArgument) and value.block is function.body.block:
        return [Dimension(value.index, d) for d in range(t.get_num_dims())]
    empty = value.owner
    if not isinstance(empty, TensorEmptyOp):
        return [None] * t.get_num_dims()
    dynamic = iter(empty.dynamic_sizes)
    return [
        size if size >= 0 else _argument_dimension(next(dynamic), function)
        for size in t.get_shape()
    ]


def _argument_dimension(size: SSAValue, function: func.FuncOp) -> Dimension | None:
    """The argument dimension `size` is, when it is `tensor.dim` of an argument."""
    dim = size.owner
    if not isinstance(dim, TensorDimOp):
        return None
    source, index = dim.source, constant_int(dim.index)
    if index is None or not isinstance(source, BlockArgument):
        return None
    return (
        Dimension(source.index, index) if source.block is function.body.block else None
    )


def shared_sizes(function: func.FuncOp) -> list[list[Size]]:
    """Groups of argument dimensions (and sizes fixed in the kernel) that a
    linalg.generic iterates with one loop, and so must be equal at run time
    (A's columns and x's length in SpMV; a `tensor.empty` output sized by
    `tensor.dim` of an argument or statically, whose loop the arguments drive)."""
    groups: list[list[Size]] = []
    for op in function.walk():
        if not isinstance(op, GenericOp):
            continue
        per_loop: dict[int, list[Size]] = {}
        for value, amap in zip(
            (*op.inputs, *op.outputs), op.indexing_maps.data, strict=True
        ):
            sizes = _operand_sizes(value, function)
            for size, result in zip(sizes, amap.data.results, strict=False):
                if size is not None and isinstance(result, AffineDimExpr):
                    group = per_loop.setdefault(result.position, [])
                    if size not in group:
                        group.append(size)
        groups.extend(
            g
            for g in per_loop.values()
            if len(g) > 1 and any(isinstance(s, Dimension) for s in g)
        )
    return groups


class Kernel:
    """A compiled entry function, called with numpy arrays, scipy.sparse matrices
    and `SparseTensor`s; returns numpy arrays."""

    def __init__(
        self,
        name: str,
        signature: FunctionType,
        native: Any,
        size_groups: list[list[Size]],
        bounds: Sequence[IndexBound] = (),
        written: Sequence[int] = (),
    ) -> None:
        self.name = name
        self.written = tuple(written)
        """The positions of the arguments the kernel writes in place."""
        self.signature = signature
        self._native = native
        self._size_groups = size_groups
        self._bounds = tuple(bounds)
        self._inputs: list[Attribute] = list(signature.inputs.data)
        self._arguments = [
            _Argument(f"argument {position} of {name}()", t)
            for position, t in enumerate(self._inputs)
        ]
        self._groups = [
            tuple((d.arg, d.dim) if isinstance(d, Dimension) else (-1, d) for d in g)
            for g in size_groups
        ]
        self._where = [a.where for a in self._arguments]
        self._results = [ResultFromFields(t) for t in signature.outputs.data]
        self._sparse_results = any(r.encoding is not None for r in self._results)

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self._arguments):
            raise TypeError(
                f"{self.name}() takes {len(self._inputs)} arguments, got {len(args)}"
            )
        if not self.written:
            return self._call(args)
        args, copies = prepare_outputs(self.written, self._where, args)
        result = self._call(args)
        return finish_outputs(copies, result) if copies else result

    def _call(self, args: Sequence[Any]) -> Any:
        shapes: list[tuple[int, ...] | None] = []
        flat: list[Any] = []
        for argument, arg in zip(self._arguments, args, strict=False):
            shape, values = argument.convert(arg)
            shapes.append(shape)
            flat += values
        for group in self._groups:
            size: int | None = None
            for position, dim in group:
                shape = shapes[position] if position >= 0 else (dim,)
                if shape is None:
                    continue
                value = shape[dim] if position >= 0 else dim
                if size is None:
                    size = value
                elif value != size:
                    self._check_sizes(shapes)
        for bound in self._bounds:
            bound.check(self.name, shapes)
        result = self._native(*flat)
        raise_pending()  # a failure of a runtime call (e.g. reading a file)
        if not self._sparse_results:
            return result
        fields: list[Any] = (
            list(cast(tuple[Any, ...], result))
            if isinstance(result, tuple)
            else [result]
        )
        results = [r.take(fields) for r in self._results]
        return results[0] if len(results) == 1 else tuple(results)

    def _convert(
        self, position: int, arg: Any, arg_type: Attribute
    ) -> tuple[tuple[int, ...] | None, list[Any]]:
        """Argument `position` checked and flattened into the native function's
        arguments; its dimension sizes (None for a scalar)."""
        del arg_type  # the type of argument `position`, known since __init__
        return self._arguments[position].convert(arg)

    def _check_sizes(self, shapes: Sequence[tuple[int, ...] | None]) -> None:
        for group in self._size_groups:
            sizes: dict[str, int] = {}
            for d in group:
                if not isinstance(d, Dimension):
                    sizes["a size fixed in the kernel"] = d
                elif (shape := shapes[d.arg]) is not None:
                    sizes[f"argument {d.arg} dimension {d.dim}"] = shape[d.dim]
            if len(set(sizes.values())) > 1:
                detail = ", ".join(f"{where} is {s}" for where, s in sizes.items())
                raise ValueError(
                    f"{self.name}(): operands disagree on a loop's size: {detail}"
                )


class _Argument:
    """How one argument of a Kernel is checked and flattened, with what can be
    known from its type computed once."""

    __slots__ = (
        "_encodings",
        "dtype",
        "encoding",
        "rank",
        "static_dims",
        "tensor_type",
        "where",
    )

    def __init__(self, where: str, arg_type: Attribute) -> None:
        self.where = where
        self.tensor_type: TensorType[Attribute] | None = (
            arg_type if is_tensor_type(arg_type) else None
        )
        self.encoding = sparse_encoding(arg_type)
        self.dtype: np.dtype[Any] | None = None
        self.rank = 0
        self.static_dims: tuple[tuple[int, int], ...] = ()
        if self.tensor_type is not None:
            self.dtype = numpy_dtype(self.tensor_type.element_type)
            shape = self.tensor_type.get_shape()
            self.rank = len(shape)
            self.static_dims = tuple((d, s) for d, s in enumerate(shape) if s >= 0)
        # Encodings of SparseTensors seen that equal `encoding` (by id; the
        # value keeps the object alive): comparing encodings is slow.
        self._encodings: dict[int, Encoding] = {}

    def convert(self, arg: Any) -> tuple[tuple[int, ...] | None, list[Any]]:
        tensor_type = self.tensor_type
        if tensor_type is None:
            return None, [arg]
        dtype = self.dtype
        if self.encoding is not None:
            if isinstance(arg, SparseTensor) and self._same_encoding(arg.encoding):
                tensor = arg
            else:
                tensor = as_sparse_tensor(arg, tensor_type, self.where)
            if tensor.values.dtype != dtype:
                raise TypeError(
                    f"{self.where}: expected {dtype} values, got {tensor.dtype}"
                )
            self._check_shape(tensor.shape)
            return tensor.shape, tensor.storage()
        if not isinstance(arg, np.ndarray):
            raise TypeError(
                f"{self.where}: expected a numpy array for {tensor_type}, "
                f"got {type(arg).__name__}"
            )
        if arg.dtype != dtype:
            raise TypeError(f"{self.where}: expected dtype {dtype}, got {arg.dtype}")
        shape = cast("tuple[int, ...]", arg.shape)
        self._check_shape(shape)
        if not arg.flags.c_contiguous:  # a tensor is a value: a row-major copy
            return shape, [np.ascontiguousarray(cast("np.ndarray[Any, Any]", arg))]
        return shape, [arg]

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        if len(shape) != self.rank:
            raise ValueError(
                f"{self.where}: expected a rank-{self.rank} tensor, got shape {shape}"
            )
        for dim, want in self.static_dims:
            if shape[dim] != want:
                raise ValueError(
                    f"{self.where}: dimension {dim} must be {want}, got {shape[dim]}"
                )

    def _same_encoding(self, encoding: Encoding) -> bool:
        if encoding is self.encoding or self._encodings.get(id(encoding)) is encoding:
            return True
        if encoding != self.encoding:
            return False
        if len(self._encodings) >= 64:
            self._encodings.clear()
        self._encodings[id(encoding)] = encoding
        return True


def as_sparse_tensor(
    arg: Any, tensor_type: TensorType[Attribute], where: str
) -> SparseTensor:
    """The argument in the encoding the kernel expects (converted if needed)."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    if isinstance(arg, SparseTensor):
        if arg.encoding == enc:
            return arg
        coords, values = arg.to_coo()
        return SparseTensor.from_coo(coords, values, arg.shape, enc, dtype=arg.dtype)
    try:
        import scipy.sparse as sp

        if sp.issparse(arg):
            return SparseTensor.from_scipy(arg, enc)
    except ImportError:  # pragma: no cover - scipy is a dependency
        pass
    if isinstance(arg, np.ndarray):
        return SparseTensor.from_dense(cast("np.ndarray[Any, Any]", arg), enc)
    raise TypeError(
        f"{where}: expected a SparseTensor, scipy.sparse matrix or numpy array, got {type(arg).__name__}"
    )


@functools.cache
def compiler_fingerprint() -> str:
    """A hash of xsparse's own sources: cached kernels are invalid once the
    compiler changes, whatever its version number says."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


_kernels: dict[str, Kernel] = {}
_kernels_lock = threading.Lock()


def clear_memory_caches() -> None:
    """Forget the kernels and compiled modules of this process (the disk cache
    stays): the next `compile` of a source loads it from disk or recompiles."""
    with _kernels_lock:
        _kernels.clear()
    jit.clear_memory_cache()


def compile(
    source: str,
    entry: str | None = None,
    *,
    opt_level: int = 3,
    fast_math: bool = False,
    parallelization_strategy: ParallelizationStrategy = "none",
    vl: int = 1,
    enable_simd_index32: bool = False,
    enable_vla_vectorization: bool = False,
) -> Kernel:
    """Compile MLIR text with the sparsifier and return its entry function as a Kernel.

    `entry` names the function to call; it may be omitted when the module has one
    public function. Raises XSparseError (with file:line:col) on invalid input.
    Kernels are cached by source text and options: in this process, and on disk
    (the object code and the signatures), so a new process skips parsing,
    the passes and LLVM.
    """
    options = CompileOptions(
        opt_level,
        fast_math,
        parallelization_strategy,
        vl,
        enable_simd_index32,
        enable_vla_vectorization,
    )
    key = hashlib.sha256(
        "\0".join(
            [
                compiler_fingerprint(),
                jit.host_description(),
                repr(options),
                entry or "",
                source,
            ]
        ).encode()
    ).hexdigest()
    with _kernels_lock:
        kernel = _kernels.get(key)
    if kernel is None:
        kernel = _load_kernel(key, options) or _compile_kernel(
            key, source, entry, options
        )
        with _kernels_lock:
            _kernels[key] = kernel
    return kernel


@dataclass(frozen=True)
class CompileOptions:
    opt_level: int
    fast_math: bool
    parallelization_strategy: ParallelizationStrategy
    vl: int
    enable_simd_index32: bool
    enable_vla_vectorization: bool


def _compile_kernel(
    key: str, source: str, entry: str | None, options: CompileOptions
) -> Kernel:
    ctx = make_context()
    module, spans = parse_module_with_spans(ctx, source, "<source>")
    function = _entry_function(module, entry)
    _check_boundary(function, spans)
    signature = function.function_type
    groups = shared_sizes(function)
    bounds = index_bounds(function)
    written = written_arguments(function)
    passes = sparsifier_passes(
        options.parallelization_strategy,
        vl=options.vl,
        enable_simd_index32=options.enable_simd_index32,
        enable_vla_vectorization=options.enable_vla_vectorization,
    )
    for p in passes:
        try:
            p.apply(ctx, module)
        except DiagnosticException as e:  # a pass rejected the input
            raise XSparseError(locate_error(e, spans, "<source>")) from None
        except Exception as e:  # a bug in a pass: still a diagnostic, not a traceback
            message = (
                f"<source>: error: internal error in {p.name}: {type(e).__name__}: {e}"
            )
            raise XSparseError(message.split("\n", 1)[0]) from None
    name = function.sym_name.data
    try:
        lowered = lower_to_llvm(module, in_place=True)
        compiled = jit.compile(
            lowered, opt_level=options.opt_level, fast_math=options.fast_math
        )
    except DiagnosticException as e:  # an op no pass lowered
        raise XSparseError(locate_error(e, spans, "<source>")) from None
    kernel = Kernel(name, signature, compiled.function(name), groups, bounds, written)
    meta = {
        "name": name,
        "module": compiled.key,
        "prints": compiled.prints,
        "signature": str(signature),
        "lowered_signature": str(lowered.signatures[name]),
        "shared_sizes": [
            [[d.arg, d.dim] if isinstance(d, Dimension) else [-1, d] for d in group]
            for group in groups
        ],
        "index_bounds": bounds_to_json(bounds),
        "written": list(written),
    }
    jit.store_text(f"{key}.kernel.json", json.dumps(meta))
    return kernel


def _load_kernel(key: str, options: CompileOptions) -> Kernel | None:
    """A kernel compiled by an earlier process, from the disk cache."""
    text = jit.load_text(f"{key}.kernel.json")
    if text is None:
        return None
    try:
        meta = json.loads(text)
        ctx = make_context()
        signature = Parser(ctx, meta["signature"]).parse_type()
        lowered = Parser(ctx, meta["lowered_signature"]).parse_type()
        assert isinstance(signature, FunctionType) and isinstance(lowered, FunctionType)
        name: str = meta["name"]
        module = jit.load(
            meta["module"],
            {name: lowered},
            opt_level=options.opt_level,
            prints=meta["prints"],
        )
        if module is None:
            return None
        groups: list[list[Size]] = [
            [Dimension(a, d) if a >= 0 else d for a, d in group]
            for group in meta["shared_sizes"]
        ]
        bounds = bounds_from_json(meta["index_bounds"], ctx)
        written: list[int] = meta["written"]
        return Kernel(name, signature, module.function(name), groups, bounds, written)
    except Exception:  # a stale or damaged entry: compile again
        return None


def _check_boundary(function: func.FuncOp, spans: Spans) -> None:
    """Every argument and result of the entry function is a scalar, tensor or
    memref of a type that numpy and the calling convention carry."""
    signature = function.function_type
    kinds = [("argument", t) for t in signature.inputs.data]
    kinds += [("result", t) for t in signature.outputs.data]
    for position, (kind, t) in enumerate(kinds):
        scalar = t.element_type if is_tensor_type(t) or is_memref_type(t) else t
        if boundary_scalar(scalar) is None:
            if kind == "result":
                position -= len(signature.inputs)
            message = (
                f"'{function.name}' op {kind} #{position} of type {t} cannot "
                f"cross the Python boundary (no numpy/native slot for {scalar})"
            )
            raise XSparseError(format_span(spans[function], message))


def _entry_function(module: ModuleOp, entry: str | None) -> func.FuncOp:
    functions = [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and op.body.blocks
        and (op.sym_visibility is None or op.sym_visibility.data == "public")
    ]
    if entry is None:
        if len(functions) != 1:
            names = ", ".join(f.sym_name.data for f in functions)
            raise XSparseError(
                f"<source>: error: name the entry function (one of: {names})"
            )
        return functions[0]
    for f in functions:
        if f.sym_name.data == entry:
            return f
    raise XSparseError(f"<source>: error: no public function '{entry}'")
