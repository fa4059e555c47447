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

import dataclasses
import functools
import hashlib
import json
import os
import threading
import warnings
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np
from xdsl.dialects import func
from xdsl.dialects.builtin import FunctionType, MemRefType, ModuleOp, TensorType
from xdsl.dialects.linalg.ops import GenericOp
from xdsl.dialects.tensor import DimOp as TensorDimOp
from xdsl.dialects.tensor import EmptyOp as TensorEmptyOp
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.ir.affine import AffineDimExpr
from xdsl.parser import Parser
from xdsl.utils.exceptions import DiagnosticException

from xsparse.backend import jit, kernel_metadata
from xsparse.backend.abi import (
    MemRefParam,
    NotContiguousError,
    boundary_scalar,
    scalar_converter,
    scalar_of,
)
from xsparse.backend.index_bounds import (
    Dimension,
    IndexBound,
    bounds_from_json,
    bounds_to_json,
    index_bounds,
)
from xsparse.backend.outputs import (
    argument_arrays,
    finish_outputs,
    output_bytes,
    prepare_outputs,
    release_saved,
    restore_outputs,
    save_outputs,
    worth_saving,
    written_arguments,
    written_memrefs,
)
from xsparse.backend.runtime_errors import raise_pending
from xsparse.backend.sparse_storage import (
    ResultFromFields,
    SparseTensor,
    compressed_2d_kind,
    default_encoding_text,
    format_name,
    numpy_dtype,
    parse_encoding,
)
from xsparse.backend.width_variants import (
    is_int32_compressed,
    narrowable_arguments,
    narrowed_source,
)
from xsparse.diagnostics import (
    TOO_DEEP,
    Spans,
    XSparseError,
    check_encodable,
    end_of_input,
    format_span,
    locate_error,
    parse_module_with_spans,
    run_deep,
)
from xsparse.dialect_registry import make_context
from xsparse.dialects.sparse_tensor.encoding import (
    Encoding,
    SparseTensorEncodingAttr,
    block_sizes,
)
from xsparse.dialects.sparse_tensor.ops_common import constant_int
from xsparse.dialects.sparse_tensor.storage import sparse_encoding, storage_fields
from xsparse.dialects.type_guards import is_memref_type, is_tensor_type
from xsparse.errors import ConversionWarning, UncheckedMemrefWarning
from xsparse.logs import COMPILE_LOGGER, log_time
from xsparse.version import __version__

if TYPE_CHECKING:
    from xsparse.transforms.pipeline import ParallelizationStrategy
from xsparse.xdsl_adapter import walk_iteratively

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
    for op in walk_iteratively(function):
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


class _KernelDoc:
    """`Kernel.__doc__`: the class's docstring read on the class, a kernel's
    `describe()` read on an instance (`help(kernel)`, `kernel.__doc__`),
    built only when read."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __get__(self, kernel: Kernel | None, owner: type | None = None) -> str:
        return self.text if kernel is None else kernel.describe()


class Kernel:
    # A descriptor where `object` declares a str: it reads as one (`_KernelDoc`).
    __doc__ = _KernelDoc(  # pyright: ignore[reportAssignmentType]
        """A compiled entry function, called with numpy arrays, scipy.sparse
    matrices and `SparseTensor`s; returns numpy arrays. A kernel's `repr` is
    its signature, its `__doc__` (`describe()`) says what each argument
    takes, which ones it writes in place and what it returns."""
    )

    compiled_from: tuple[str, str | None, CompileOptions] | None = None
    """The `compile` call that made the kernel (source, entry, options): what
    a pickled kernel carries (`__reduce__`); None for a kernel made otherwise."""

    def __init__(
        self,
        name: str,
        signature: FunctionType,
        native: Any,
        size_groups: list[list[Size]],
        bounds: Sequence[IndexBound] = (),
        written: Sequence[int] = (),
        checkers: dict[int, Any] | None = None,
        narrowable: Sequence[tuple[int, str]] = (),
        checked_native: Any = None,
        in_kernel_native: Any = None,
        restores_outputs: bool = False,
        saved_on_error: Sequence[int] = (),
        may_fail_allocation: bool = False,
    ) -> None:
        self.name = name
        self.written = tuple(written)
        """The positions of the arguments the kernel writes in place."""
        self.saved_on_error = tuple(saved_on_error) or (
            self.written if may_fail_allocation else ()
        )
        """The positions of the arguments (written tensors, written memrefs)
        a call copies first and puts back when the kernel reports an error
        while it runs, after it may have written them (`reports_while_running`),
        or when one of its heap allocations may fail (a MemoryError after
        writes); empty when every check the kernel relies on runs before it
        and it allocates nothing."""
        self._checkers: dict[int, Any] = checkers or {}
        """Per sparse argument position, its compiled checker (native_checks)."""
        self.narrowable = tuple(narrowable)
        """(position, 'csr' | 'csc') of the arguments an int32 scipy matrix
        narrows to a variant of the kernel (width_variants)."""
        self._variant_builder: Callable[[tuple[int, ...]], Kernel] | None = None
        self._variants: dict[tuple[int, ...], Kernel] = {}
        self.signature = signature
        self._native = native
        self._checked_native = checked_native if checkers else native
        """The kernel's entry that runs the checkers first (native_checks)."""
        self._in_kernel_native = in_kernel_native
        """The entry whose checkers leave the range of the coordinates the
        kernel only gathers with to the kernel (fused_checks), or None."""
        self._restores_outputs = restores_outputs and in_kernel_native is not None
        """The kernel puts back the arrays it wrote when its own range check
        fails (fused_checks): its in-kernel entry loses nothing of the caller's."""
        self._size_groups = size_groups
        self._bounds = tuple(bounds)
        self._inputs: list[Attribute] = list(signature.inputs.data)
        self._arguments = [
            _Argument(f"argument {position} of {name}()", t, position in self._checkers)
            for position, t in enumerate(self._inputs)
        ]
        self._groups = [
            tuple((d.arg, d.dim) if isinstance(d, Dimension) else (-1, d) for d in g)
            for g in size_groups
        ]
        self._where = [a.where for a in self._arguments]
        self._results = [ResultFromFields(t) for t in signature.outputs.data]
        self._sparse_results = any(r.encoding is not None for r in self._results)

    def __call__(
        self,
        *args: Any,
        validate: bool = True,
        strict: bool = False,
        scratch_outputs: bool = False,
    ) -> Any:
        """Call the kernel. Sparse arguments are checked in native code first
        (positions, coordinates' range and order, lengths: a ValueError
        names the argument); `validate=False` skips those checks, for
        buffers known to be valid (bad ones are then undefined behaviour).
        A sparse argument in another format than the kernel's is converted
        with a `ConversionWarning`; `strict=True` refuses it (TypeError).

        The range of coordinates the kernel only gathers with (SpMV's column
        indices) is checked by the kernel as it reads them, at no extra pass
        over them, where nothing of the caller's can be lost: when the
        kernel writes no argument in place, or with `scratch_outputs=True`
        (the in-place outputs hold nothing to keep; after a ValueError they
        hold partial results). Otherwise, a kernel that writes its outputs
        row by row in one loop (SpMV's y) saves each row as it starts it and
        puts them back itself if its check fails (fused_checks); for other
        kernels, where the arrays they write are small beside those
        coordinates, they are copied first and put back; else that check
        runs before the kernel too. A kernel that may report an error while
        it runs for other reasons (a sparse result's entries beyond its
        `posWidth`, a file it cannot read) copies the arguments it may
        write first and puts them back (`saved_on_error`). Either way a
        ValueError leaves every argument as it was."""
        kernel = self._chosen(args)
        must_save = bool(kernel.saved_on_error) and not scratch_outputs
        native = kernel._native
        save = False
        if validate:
            native = kernel._checked_native
            if kernel._in_kernel_native is not None and (
                scratch_outputs
                or not kernel.written
                or must_save
                or kernel._restores_outputs
                or (save := worth_saving(kernel.written, args))
            ):
                native = kernel._in_kernel_native
        if not kernel.written and not must_save:
            return kernel._call(args, native, strict)
        args, copies = prepare_outputs(kernel.written, kernel._where, args)
        slots, flat, _ = kernel._slots(args, strict)
        keep = kernel.saved_on_error if must_save else kernel.written if save else ()
        saved = save_outputs(keep, args) if keep else []
        try:
            result = kernel._run(native, slots, flat)
        except BaseException:
            restore_outputs(saved)
            raise
        finally:
            release_saved(saved)
        return finish_outputs(copies, result) if copies else result

    def call_zeroed(self, *args: Any, strict: bool = False) -> Any:
        """Call with the arrays the kernel writes in place zero-filled first,
        their old values unread (einsum's `out=`: the kernel accumulates
        into them). Every check runs before they are zeroed, so a refused
        call leaves them as they were: the Python checks, then the compiled
        checkers of the sparse arguments, then the zeroing and the kernel.
        Where a check can only fail while the kernel runs (its own range
        checks, when they cost more than a copy of the outputs or the
        outputs are small; an error the kernel reports), the outputs are
        copied first and put back."""
        kernel = self._chosen(args)
        args, copies = prepare_outputs(kernel.written, kernel._where, args)
        slots, flat, spans = kernel._slots(args, strict)
        in_kernel = kernel._in_kernel_native
        keep = kernel.saved_on_error or (
            kernel.written
            if in_kernel is not None
            and (
                output_bytes(kernel.written, args) <= SMALL_COPY
                or worth_saving(kernel.written, args)
            )
            else ()
        )
        saved = save_outputs(keep, args) if keep else []
        try:
            if keep:
                native = in_kernel if in_kernel is not None else kernel._checked_native
            else:
                native = kernel._native
                kernel._run_checkers(slots, spans)
            for position in kernel.written:
                out = args[position]
                if type(out) is np.ndarray:
                    out.fill(0)
                else:
                    for array in argument_arrays(out):
                        array.fill(0)
            result = kernel._run(native, slots, flat)
        except BaseException:
            restore_outputs(saved)
            raise
        finally:
            release_saved(saved)
        return finish_outputs(copies, result) if copies else result

    def _chosen(self, args: Sequence[Any]) -> Kernel:
        """The kernel to call with `args`: this one, or its variant for the
        int32 scipy matrices among them (width_variants)."""
        if len(args) != len(self._arguments):
            raise TypeError(
                f"{self.name}() takes {len(self._inputs)} arguments, got {len(args)}"
            )
        if self._variant_builder is None:
            return self
        narrow = tuple(
            p for p, kind in self.narrowable if is_int32_compressed(args[p], kind)
        )
        return (self._variant(narrow) if narrow else None) or self

    def _run_checkers(self, slots: Sequence[Any], spans: Sequence[int]) -> None:
        """Run the compiled checker of each sparse argument on its slots (the
        checks of the checked entry, before the caller writes anything);
        ValueError for the first that fails."""
        for position, checker in self._checkers.items():
            if checker.call_slots(slots[spans[position] : spans[position + 1]], ()):
                raise_pending()

    def __reduce__(self) -> tuple[Callable[..., Kernel], tuple[str, str | None]]:
        """A kernel pickles as the `compile` call that made it: unpickling
        compiles it again through `compile`'s caches (in the process, then on
        disk), so a process that unpickles it many times compiles it once."""
        if self.compiled_from is None:
            raise TypeError(
                f"kernel {self.name}() was not made by xsparse.compile: it does not pickle"
            )
        source, entry, options = self.compiled_from
        return functools.partial(compile, **dataclasses.asdict(options)), (
            source,
            entry,
        )

    @property
    def shared_sizes(self) -> list[tuple[tuple[int, int], ...]]:
        """The groups of (argument, dimension) that the kernel's loops share
        and a call compares (a size fixed in the kernel is (-1, size))."""
        return list(self._groups)

    @property
    def checks_range_in_kernel(self) -> bool:
        """Whether the kernel checks the range of some coordinates itself, as
        it gathers with them (`__call__`'s `scratch_outputs`)."""
        return self._in_kernel_native is not None

    def __repr__(self) -> str:
        """`<Kernel spmv(arg0: tensor<?x?xf64, #CSR>, ...) -> tensor<?xf64>>`;
        an encoding without a usual name is written out."""
        aliases: dict[str, str] = {}
        arguments = ", ".join(
            f"arg{k}: {self._type_text(t, aliases)}"
            + (" [written in place]" if k in self.written else "")
            for k, t in enumerate(self._inputs)
        )
        results = [self._type_text(t, aliases) for t in self.signature.outputs.data]
        text = f"<Kernel {self.name}({arguments}) -> {self._results_text(results)}>"
        for alias in sorted(aliases, key=len, reverse=True):  # #E10 before #E1
            if alias.startswith("#E"):
                text = text.replace(alias, aliases[alias])
        return text

    def describe(self) -> str:
        """What the kernel takes and returns (its `__doc__` on the instance)."""
        aliases: dict[str, str] = {}
        arguments = [
            f"  arg{k}: {self._type_text(t, aliases)}: {self._takes(k, t)}"
            for k, t in enumerate(self._inputs)
        ]
        outputs = self.signature.outputs.data
        results = [self._type_text(t, aliases) for t in outputs]
        kinds = [
            "a SparseTensor"
            if sparse_encoding(t) is not None
            else "a numpy array"
            if is_tensor_type(t) or is_memref_type(t)
            else "a number"
            for t in outputs
        ]
        returns = (
            f"{self._results_text(results)}: {self._results_text(kinds)}"
            if outputs
            else "None"
        )
        names = ", ".join(f"arg{k}" for k in range(len(self._inputs)))
        lines = [
            f"{self.name}({names}) -> {self._results_text(results)}, compiled by "
            "xsparse.compile.",
            "",
            "Arguments:",
            *arguments,
            f"Returns {returns}.",
            "",
        ]
        if aliases:
            lines += [*(f"{alias} = {text}" for alias, text in aliases.items()), ""]
        lines.append(
            "kernel(..., validate=False) skips the checks of sparse arguments "
            "(bad buffers are then undefined behaviour); strict=True refuses a "
            "sparse argument in another format than the kernel's instead of "
            "converting it with a ConversionWarning."
        )
        return "\n".join(lines)

    def _takes(self, position: int, arg_type: Attribute) -> str:
        """What argument `position` takes, for `describe`."""
        if sparse_encoding(arg_type) is not None:
            checked = " (checked on each call)" if position in self._checkers else ""
            return f"a SparseTensor or scipy.sparse matrix{checked}"
        if not (is_tensor_type(arg_type) or is_memref_type(arg_type)):
            return "a number"
        written = ", written in place" if position in self.written else ""
        return f"a numpy array{written}"

    @staticmethod
    def _results_text(results: Sequence[str]) -> str:
        return results[0] if len(results) == 1 else f"({', '.join(results)})"

    @staticmethod
    def _type_text(arg_type: Attribute, aliases: dict[str, str]) -> str:
        """`tensor<?x?xf64, #CSR>`: an encoding by an alias (its usual name,
        else `#E<n>`), recorded in `aliases` with its text."""
        encoding = sparse_encoding(arg_type)
        if encoding is None or not is_tensor_type(arg_type):
            return str(arg_type)
        text = str(SparseTensorEncodingAttr(encoding))
        name = format_name(encoding)
        if name == "bsr":
            blocks = block_sizes(encoding.dim_to_lvl) or ()
            name += "x".join(str(b) for b in blocks if b)
        if name is not None and (encoding.pos_width or encoding.crd_width):
            name += f"_pos{encoding.pos_width}_crd{encoding.crd_width}"
        alias = next((a for a, t in aliases.items() if t == text), None)
        if alias is None:
            unnamed = sum(a.startswith("#E") for a in aliases)
            alias = f"#{name.upper()}" if name else f"#E{unnamed}"
            aliases[alias] = text
        dims = ["?" if s < 0 else str(s) for s in arg_type.get_shape()]
        return f"tensor<{'x'.join([*dims, str(arg_type.element_type)])}, {alias}>"

    def checker(self, position: int) -> Any:
        """The compiled checker of sparse argument `position`: called with the
        argument's storage (`SparseTensor.storage()`), it reports bad buffers
        as the kernel call would (for measuring what the checks cost)."""
        return self._checkers[position]

    def build_variants_with(self, builder: Callable[[tuple[int, ...]], Kernel]) -> None:
        """`builder(positions)` compiles the variant of this kernel whose
        arguments at `positions` take 32-bit indices (width_variants)."""
        self._variant_builder = builder

    def _variant(self, narrow: tuple[int, ...]) -> Kernel | None:
        """The variant for 32-bit indices at `narrow`; None (from then on)
        when it does not compile: the kernel copies the indices instead."""
        variant = self._variants.get(narrow)
        if variant is None and self._variant_builder is not None:
            try:
                variant = self._variants[narrow] = self._variant_builder(narrow)
            except XSparseError:
                self._variant_builder = None
        return variant

    def _call(self, args: Sequence[Any], native: Any, strict: bool) -> Any:
        slots, flat, _ = self._slots(args, strict)
        return self._run(native, slots, flat)

    def _slots(
        self, args: Sequence[Any], strict: bool
    ) -> tuple[list[Any], list[Any], list[int]]:
        """The arguments checked in Python (types, formats, shapes, the sizes
        the loops share, index bounds) and expanded: the slots of the native
        call, the objects they were expanded from, and where each argument's
        slots start (one more entry: the end)."""
        shapes: list[tuple[int, ...] | None] = []
        slots: list[Any] = []
        flat: list[Any] = []
        spans: list[int] = []
        for argument, arg in zip(self._arguments, args, strict=True):
            shape, arg_slots, arg_flat = argument.convert(arg, strict)
            shapes.append(shape)
            spans.append(len(slots))
            slots += arg_slots
            flat += arg_flat
        spans.append(len(slots))
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
        return slots, flat, spans

    def _run(self, native: Any, slots: Sequence[Any], flat: Sequence[Any]) -> Any:
        result = native.call_slots(slots, flat)
        raise_pending()  # a failed check, or a failed runtime call (reading a file)
        if not self._sparse_results:
            return result
        fields: list[Any] = (
            list(cast(tuple[Any, ...], result))
            if isinstance(result, tuple)
            else [result]
        )
        results = [r.take(fields) for r in self._results]
        return results[0] if len(results) == 1 else tuple(results)

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
    """How one argument of a Kernel is checked and expanded into the slots of
    the calling convention (`abi`), with what can be known from its type
    computed once."""

    __slots__ = (
        "_encodings",
        "_fields",
        "_last_scipy",
        "_last_storage",
        "checked",
        "dtype",
        "encoding",
        "expand",
        "shape",
        "tensor_type",
        "where",
    )

    def __init__(self, where: str, arg_type: Attribute, checked: bool) -> None:
        self.where = where
        self.checked = checked
        """A compiled checker verifies the argument's buffers on each call, so
        a scipy matrix's are not checked in numpy first."""
        self.tensor_type: TensorType[Attribute] | None = (
            arg_type if is_tensor_type(arg_type) else None
        )
        self.encoding = sparse_encoding(arg_type)
        self.dtype: np.dtype[Any] | None = None
        self.shape: tuple[int, ...] = ()
        """The tensor type's shape (-1 where dynamic)."""
        self.expand: Callable[[object], tuple[Any, ...]] = _no_slots
        """A dense (or memref, or scalar) argument's slots."""
        self._fields: list[Callable[[object], tuple[Any, ...]] | None] = []
        """Per storage field of a sparse argument: its slots (None: a level size)."""
        if self.tensor_type is not None:
            element = self.tensor_type.element_type
            self.dtype = numpy_dtype(element)
            self.shape = tuple(self.tensor_type.get_shape())
            if self.encoding is None:
                memref_type = MemRefType(element, self.shape)
                self.expand = MemRefParam.of(where, memref_type, contiguous=True).expand
            else:
                self._fields = [
                    MemRefParam.of(
                        f"{where} ({f.kind} of level {f.level})", f.type
                    ).expand
                    if is_memref_type(f.type)
                    else None
                    for f in storage_fields(self.tensor_type)
                ]
        elif is_memref_type(arg_type):
            self.expand = MemRefParam.of(where, arg_type).expand
        else:
            self.expand = scalar_converter(where, scalar_of(arg_type))
        # Encodings of SparseTensors seen that equal `encoding` (by id; the
        # value keeps the object alive): comparing encodings is slow.
        self._encodings: dict[int, Encoding] = {}
        self._last_scipy: _SharedScipy | None = None
        self._last_storage: tuple[tuple[Any, ...], tuple[Any, ...]] | None = None
        """The last storage seen and its slots (the storage keeps the buffers
        alive, so the slots stay valid)."""

    def convert(
        self, arg: Any, strict: bool = False
    ) -> tuple[tuple[int, ...] | None, tuple[Any, ...], Sequence[Any]]:
        """The argument's shape (None for a scalar), its slots, and the objects
        they were expanded from (one per memref-level input)."""
        if self.encoding is None:
            if self.tensor_type is None:
                return None, self.expand(arg), (arg,)
            try:
                slots = self.expand(arg)
            except NotContiguousError:  # a tensor is a value: a row-major copy
                arg = np.ascontiguousarray(cast("np.ndarray[Any, Any]", arg))
                slots = self.expand(arg)
            return cast("tuple[int, ...]", arg.shape), slots, (arg,)
        tensor_type = self.tensor_type
        assert tensor_type is not None
        last = self._last_scipy
        if isinstance(arg, SparseTensor) and self._same_encoding(arg.encoding):
            tensor = arg
        elif last is not None and last.holds(arg):
            if last.converted is not None:
                return last.converted
            tensor = last.tensor
        else:
            shape = getattr(arg, "shape", None)
            if isinstance(shape, tuple):  # before converting: a wrong rank or size
                self._check_shape(cast("tuple[int, ...]", shape))
            tensor = as_sparse_tensor(
                arg, tensor_type, self.where, validate=not self.checked, strict=strict
            )
            if self.checked:
                self._last_scipy = _SharedScipy.of(arg, tensor, self.forget_scipy)
        if tensor.values.dtype != self.dtype:
            raise TypeError(
                f"{self.where}: expected {self.dtype} values, got {tensor.dtype}"
            )
        self._check_shape(tensor.shape)
        storage = tensor.storage_tuple()
        seen = self._last_storage
        if seen is not None and seen[0] is storage:
            return tensor.shape, seen[1], storage
        slots: tuple[Any, ...] = ()
        for expand, value in zip(self._fields, storage, strict=True):
            slots += (value,) if expand is None else expand(value)
        self._last_storage = (storage, slots)
        last = self._last_scipy
        if last is not None and last.tensor is tensor:
            # the tensor is private to `last`: nothing replaces its buffers
            last.converted = (tensor.shape, slots, storage)
        return tensor.shape, slots, storage

    def forget_scipy(self) -> None:
        self._last_scipy = None

    def _check_shape(self, shape: tuple[int, ...]) -> None:
        want = self.shape
        if len(shape) != len(want):
            raise ValueError(
                f"{self.where}: expected a rank-{len(want)} tensor, got shape {shape}"
            )
        for dim, (w, got) in enumerate(zip(want, shape, strict=True)):
            if w >= 0 and w != got:
                raise ValueError(
                    f"{self.where}: dimension {dim} must be {w}, got {got}"
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


SMALL_COPY = 16 << 10
"""Bytes of outputs whose copy (well under a microsecond) costs less than
calling the checkers on their own before the kernel (a few)."""


def _no_slots(value: object) -> tuple[Any, ...]:
    """The `expand` of a sparse argument, which expands its storage fields."""
    raise AssertionError("a sparse argument is expanded field by field")


class _SharedScipy:
    """The tensor made last from a scipy CSR/CSC matrix whose buffers it
    shares (views, no copy): a call with the same matrix and the same arrays
    takes it again. Safe because the compiled checker reads the buffers on
    every call; forgotten when the matrix is freed."""

    def __init__(
        self,
        matrix: Any,
        arrays: tuple[Any, Any, Any],
        tensor: SparseTensor,
        on_free: Callable[[], None],
    ):
        self.matrix = weakref.ref(matrix, lambda _: on_free())
        self.arrays = arrays
        self.shape = tensor.shape
        self.tensor = tensor
        self.converted: (
            tuple[tuple[int, ...], tuple[Any, ...], Sequence[Any]] | None
        ) = None
        """The tensor's shape, slots and storage, once a call expanded them
        (`_Argument.convert`)."""

    @staticmethod
    def of(
        matrix: Any, tensor: SparseTensor, on_free: Callable[[], None]
    ) -> _SharedScipy | None:
        arrays = tuple(
            getattr(matrix, name, None) for name in ("indptr", "indices", "data")
        )
        buffers = (tensor.positions[-1], tensor.coordinates[-1], tensor.values)
        if any(a is None or b is None for a, b in zip(arrays, buffers, strict=True)):
            return None
        if not all(
            np.may_share_memory(a, b) for a, b in zip(arrays, buffers, strict=True)
        ):
            return None  # a converted copy: later changes of the matrix are not in it
        try:
            return _SharedScipy(
                matrix, (arrays[0], arrays[1], arrays[2]), tensor, on_free
            )
        except TypeError:  # not weakly referable
            return None

    def holds(self, matrix: Any) -> bool:
        return (
            self.matrix() is matrix
            and matrix.indptr is self.arrays[0]
            and matrix.indices is self.arrays[1]
            and matrix.data is self.arrays[2]
            and matrix.shape == self.shape
        )


def as_sparse_tensor(
    arg: Any,
    tensor_type: TensorType[Attribute],
    where: str,
    *,
    validate: bool = True,
    strict: bool = False,
) -> SparseTensor:
    """The argument in the encoding the kernel expects: as it is where only
    the widths differ (scipy's int32 buffers are shared), else converted by
    the compiled `sparse_tensor.convert` (`_convert`) with a
    `ConversionWarning`, or refused when `strict`. `validate=False`: a scipy
    matrix's buffers are left to the compiled checker."""
    enc = sparse_encoding(tensor_type)
    assert enc is not None
    if isinstance(arg, SparseTensor):
        if arg.encoding == enc:
            return arg
        if _same_layout(arg.encoding, enc):
            coords, values = arg.to_coo()  # other widths: the same entries
            return SparseTensor.from_coo(
                coords, values, arg.shape, enc, dtype=arg.dtype
            )
        given = str(SparseTensorEncodingAttr(arg.encoding))
        _converting(where, f"SparseTensor of {given}", enc, strict)
        return _convert(arg, tensor_type, validate)
    try:
        import scipy.sparse as sp

        if sp.issparse(arg):
            natural = _natural_encoding(arg.format, getattr(arg, "blocksize", (1, 1)))
            if _same_layout(natural, enc) or _weaker_order(arg.format, enc):
                if _narrowed(arg, enc):
                    _converting(where, f"scipy {arg.format} matrix", enc, strict)
                return SparseTensor.from_scipy(arg, enc, validate=validate)
            _converting(where, f"scipy {arg.format} matrix", enc, strict)
            return _convert(_scipy_as_is(arg, natural), tensor_type, validate)
    except ImportError:  # pragma: no cover - scipy is a dependency
        pass
    if isinstance(arg, np.ndarray):
        _converting(where, "dense numpy array", enc, strict)
        return _convert(cast("np.ndarray[Any, Any]", arg), tensor_type, validate)
    raise TypeError(
        f"{where}: expected a SparseTensor, scipy.sparse matrix or numpy array, got {type(arg).__name__}"
    )


def _scipy_as_is(matrix: Any, natural: Encoding) -> SparseTensor:
    """A scipy matrix as a SparseTensor of its own format's encoding: CSR and
    CSC share their buffers; COO is made canonical first (duplicates summed,
    as scipy does, in scipy's own code), BSR goes through COO."""
    if matrix.format in ("csr", "csc"):
        return SparseTensor.from_scipy(matrix, natural)
    coo = matrix.tocoo(copy=True)
    coo.sum_duplicates()  # sorted by row, then column: the COO encoding's order
    coo_encoding = _natural_encoding("coo", (1, 1))
    return SparseTensor(
        coo_encoding,
        tuple(int(d) for d in coo.shape),
        [np.array([0, coo.nnz], np.int64), None],
        [np.asarray(coo.row, np.int64), np.asarray(coo.col, np.int64)],
        np.asarray(coo.data),
    )


def _convert(
    source: SparseTensor | np.ndarray[Any, Any],
    tensor_type: TensorType[Attribute],
    validate: bool,
) -> SparseTensor:
    """`source` in `tensor_type`'s encoding, by a kernel that is one
    `sparse_tensor.convert` (compiled once per pair of types, cached); by the
    Python builder where codegen has no such conversion (batch levels)."""
    if isinstance(source, SparseTensor):
        given = str(SparseTensorEncodingAttr(source.encoding))
        rank = len(source.shape)
    else:
        given, rank = "", source.ndim
    element = str(tensor_type.element_type)
    dims = "?x" * rank
    source_type = f"tensor<{dims}{element}{', #SRC' if given else ''}>"
    target_type = f"tensor<{dims}{element}, #DST>"
    target_encoding = sparse_encoding(tensor_type)
    assert target_encoding is not None
    target = str(SparseTensorEncodingAttr(target_encoding))
    text = (
        (f"#SRC = {given}\n" if given else "")
        + f"#DST = {target}\n"
        + f"func.func @convert(%t: {source_type}) -> {target_type} {{\n"
        + f"  %0 = sparse_tensor.convert %t : {source_type} to {target_type}\n"
        + f"  return %0 : {target_type}\n}}\n"
    )
    try:
        converter = compile(text, "convert")  # conversions on threads where they can
    except XSparseError:  # a conversion codegen lacks (batch levels): in Python
        if isinstance(source, SparseTensor):
            coords, values = source.to_coo()
            shape = source.shape
        else:
            return SparseTensor.from_dense(source, target_encoding)
        return SparseTensor.from_coo(
            coords, values, shape, target_encoding, dtype=values.dtype
        )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", ConversionWarning)
        return cast(SparseTensor, converter(source, validate=validate))


@functools.cache
def _natural_encoding(fmt: str, blocks: tuple[int, int]) -> Encoding:
    """The encoding of a scipy format (parsed once per format)."""
    return parse_encoding(default_encoding_text(fmt, blocks))


def _weaker_order(scipy_format: str, enc: Encoding) -> bool:
    """`enc` is scipy's CSR/CSC layout with a compressed level that is not
    ordered or not unique: scipy's buffers fit it whatever their order."""
    return scipy_format == compressed_2d_kind(enc, unordered=True)


def _same_layout(a: Encoding, b: Encoding) -> bool:
    """The same encoding but for the widths of positions and coordinates."""
    widthless = {"pos_width": 0, "crd_width": 0}
    return dataclasses.replace(a, **widthless) == dataclasses.replace(b, **widthless)


def _narrowed(matrix: Any, enc: Encoding) -> bool:
    """Whether a scipy CSR/CSC matrix's index arrays are wider than `enc`'s
    positions or coordinates (int64 ones for a 32-bit kernel): copied,
    narrowed, on every call."""
    if matrix.format not in ("csr", "csc"):
        return False
    widths = ((matrix.indptr, enc.pos_width), (matrix.indices, enc.crd_width))
    return any(0 < width < 8 * array.dtype.itemsize for array, width in widths)


def _converting(where: str, given: str, enc: Encoding, strict: bool) -> None:
    text = str(SparseTensorEncodingAttr(enc))
    message = f"{where}: a {given} is converted to {text} on every call"
    if strict:
        raise TypeError(
            f"{message.replace('is converted', 'would be converted')} (strict=True)"
        )
    warnings.warn(
        f"{message}; convert it once (SparseTensor.from_scipy / from_dense), "
        "or pass strict=True to refuse",
        ConversionWarning,
        stacklevel=6,
    )


NOT_COMPILER = (
    "frontend",
    "tools",
    "testing",
    "dask.py",
    "two_four.py",
    "composable.py",
)
"""xsparse's subpackages and modules outside the compiler (`compiler_fingerprint`)."""


@functools.cache
def compiler_fingerprint() -> str:
    """A hash of the compiler's sources: cached kernels are invalid once the
    compiler changes, whatever its version number says. The packages that
    never reach a kernel's code (`NOT_COMPILER`) are left out, so editing the
    front end (whose changes reach kernels through their source text, part
    of the key), the tools or the test generators keeps the cache."""
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        if path.relative_to(package).parts[0] in NOT_COMPILER:
            continue
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


_kernels: dict[str, Kernel] = {}
_kernels_lock = threading.Lock()


def _after_fork_in_child() -> None:
    """A thread of the parent may have held `_kernels_lock` (compiling): the
    child takes a new one; the dictionary it guards is whole."""
    global _kernels_lock
    _kernels_lock = threading.Lock()


os.register_at_fork(after_in_child=_after_fork_in_child)


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
    parallelization_strategy: ParallelizationStrategy = "any-storage-outer-loop",
    vl: int = 1,
    enable_simd_index32: bool = False,
    enable_vla_vectorization: bool = False,
    range_checks_in_kernel: bool = True,
) -> Kernel:
    """Compile MLIR text with the sparsifier and return its entry function as a Kernel.

    `entry` names the function to call; it may be omitted when the module has one
    public function. Raises XSparseError (with file:line:col) on invalid input.
    Loops run on threads (`xsparse.set_num_threads`) where MLIR's
    `any-storage-outer-loop` strategy finds them safe: the outermost loop
    whose iterations write distinct outputs; `parallelization_strategy="none"`
    keeps the kernel on the calling thread. Kernels are cached by source text
    and options: in this process, and on disk
    (the object code and the signatures), so a new process skips parsing,
    the passes and LLVM. `range_checks_in_kernel=False` leaves the range of
    the coordinates the kernel only gathers with to the checker that runs
    before it on every call (`Kernel.__call__`'s `scratch_outputs`).

    What a call checks is what the types say: tensor arguments (dtypes,
    shapes, the sizes loops share, every buffer of a sparse one). Kernels
    written at the memref level get no bounds checks, as in MLIR: a
    `memref.load`/`store` at an index past an array's end, or an array
    smaller than the loops assume, reads and writes out of bounds (a crash
    or corrupted memory). `compile` warns once per kernel
    (`xsparse.UncheckedMemrefWarning`) when the entry function takes
    memrefs from Python; write the kernel on tensors to have its arguments
    checked.

    Regions and brackets may nest about `xsparse.diagnostics.MAX_NESTING`
    levels deep (parsing and the passes run on a thread with a deep stack).
    """
    check_encodable(source, "<source>")
    options = CompileOptions(
        opt_level,
        fast_math,
        parallelization_strategy,
        vl,
        enable_simd_index32,
        enable_vla_vectorization,
        range_checks_in_kernel,
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
        ).encode("utf-8", "surrogatepass")
    ).hexdigest()
    with _kernels_lock:
        kernel = _kernels.get(key)
    if kernel is None:
        kernel = _load_kernel(key, options) or run_deep(
            lambda: _compile_kernel(key, source, entry, options)
        )
        kernel.compiled_from = (source, entry, options)
        if kernel.narrowable:
            name = kernel.name

            def variant(positions: tuple[int, ...]) -> Kernel:
                narrowed = narrowed_source(make_context(), source, name, positions)
                return compile(narrowed, name, **dataclasses.asdict(options))

            kernel.build_variants_with(variant)
        with _kernels_lock:
            _kernels[key] = kernel
        _warn_unchecked(kernel)
    return kernel


def _warn_unchecked(kernel: Kernel) -> None:
    """`UncheckedMemrefWarning` for a kernel that takes memrefs from Python."""
    memrefs = [
        str(k) for k, t in enumerate(kernel.signature.inputs.data) if is_memref_type(t)
    ]
    if memrefs:
        warnings.warn(
            f"{kernel.name}() takes memrefs (argument {', '.join(memrefs)}): "
            "their accesses are not bounds-checked, as in MLIR; arrays smaller "
            "than the kernel's loops assume are read and written out of bounds",
            UncheckedMemrefWarning,
            stacklevel=3,
        )


@dataclass(frozen=True)
class CompileOptions:
    opt_level: int
    fast_math: bool
    parallelization_strategy: ParallelizationStrategy
    vl: int
    enable_simd_index32: bool
    enable_vla_vectorization: bool
    range_checks_in_kernel: bool


def _compile_kernel(
    key: str, source: str, entry: str | None, options: CompileOptions
) -> Kernel:
    # The compiler's stages load on the first miss only: a kernel found in a
    # cache is called without them (a first call in a new process).
    from xsparse.backend.lowering import lower_to_llvm
    from xsparse.backend.native_checks import (
        add_checkers,
        checker_guards,
        reports_while_running,
    )
    from xsparse.transforms.convert_to_llvm.allocation_failures import (
        may_fail_allocation,
    )
    from xsparse.transforms.pipeline import sparsifier_passes

    ctx = make_context()
    module, spans = parse_module_with_spans(ctx, source, "<source>")
    function = entry_function(module, entry, source)
    _check_boundary(function, spans)
    signature = function.function_type
    groups = shared_sizes(function)
    bounds = index_bounds(function)
    written = written_arguments(function)
    memrefs = written_memrefs(function)
    narrowable = narrowable_arguments(function, written)
    passes = sparsifier_passes(
        options.parallelization_strategy,
        vl=options.vl,
        enable_simd_index32=options.enable_simd_index32,
        enable_vla_vectorization=options.enable_vla_vectorization,
    )
    for p in passes:
        try:
            with log_time(COMPILE_LOGGER, "pass %s", p.name):
                p.apply(ctx, module)
        except DiagnosticException as e:  # a pass rejected the input
            raise XSparseError(locate_error(e, spans, "<source>")) from None
        except RecursionError:
            raise XSparseError(f"<source>: error: {TOO_DEEP} ({p.name})") from None
        except Exception as e:  # a bug in a pass: still a diagnostic, not a traceback
            message = (
                f"<source>: error: internal error in {p.name}: {type(e).__name__}: {e}"
            )
            raise XSparseError(message.split("\n", 1)[0]) from None
    name = function.sym_name.data
    saved_on_error = (*written, *memrefs) if reports_while_running(module, name) else ()
    checker_names = add_checkers(
        module, name, signature.inputs.data, options.range_checks_in_kernel
    )
    guards = checker_guards(signature.inputs.data, checker_names.full)
    in_kernel_guards = checker_guards(
        signature.inputs.data, checker_names.for_in_kernel_entry()
    )
    try:
        lowered = lower_to_llvm(module, in_place=True)
        compiled = jit.compile(
            lowered,
            opt_level=options.opt_level,
            fast_math=options.fast_math,
            guards={name: guards},
            in_kernel_guards={name: in_kernel_guards},
        )
    except DiagnosticException as e:  # an op no pass lowered
        raise XSparseError(locate_error(e, spans, "<source>")) from None
    except RuntimeError as e:  # LLVM refused the IR made of it: a bug of ours
        first = str(e).strip().split("\n")
        detail = " ".join(first[:2])
        raise XSparseError(
            f"<source>: error: internal error in the LLVM backend: {detail}"
        ) from None
    checkers = {p: compiled.function(n) for p, n in checker_names.full.items()}
    allocates = may_fail_allocation(lowered.module)
    kernel = Kernel(
        name,
        signature,
        compiled.function(name),
        groups,
        bounds,
        written,
        checkers,
        narrowable,
        compiled.function(name, checked=True) if guards else None,
        compiled.function(name, in_kernel=True) if in_kernel_guards else None,
        checker_names.restores_outputs,
        saved_on_error,
        allocates,
    )
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
        "narrowable": [list(n) for n in narrowable],
        "checkers": {
            str(p): [n, str(lowered.signatures[n])]
            for p, n in checker_names.full.items()
        },
        "in_kernel_checked": bool(in_kernel_guards),
        "restores_outputs": checker_names.restores_outputs,
        "saved_on_error": list(saved_on_error),
        "may_fail_allocation": allocates,
    }
    jit.store_text(f"{key}.kernel.json", json.dumps(meta))
    return kernel


def _load_kernel(key: str, options: CompileOptions) -> Kernel | None:
    """A kernel compiled by an earlier process, from the disk cache; None (to
    compile it again) when it is not there or its metadata is unusable
    (`kernel_metadata`: removed, with a `CacheWarning`)."""
    entry = f"{key}.kernel.json"
    meta = kernel_metadata.load(entry)
    if meta is None:
        return None
    try:
        ctx = make_context()
        signature = Parser(ctx, meta["signature"]).parse_type()
        lowered = Parser(ctx, meta["lowered_signature"]).parse_type()
        assert isinstance(signature, FunctionType) and isinstance(lowered, FunctionType)
        kernel_metadata.check_positions(meta, signature.inputs.data)
        name: str = meta["name"]
        checker_names: dict[int, str] = {}
        signatures = {name: lowered}
        for position, (checker, text) in meta["checkers"].items():
            checker_type = Parser(ctx, text).parse_type()
            assert isinstance(checker_type, FunctionType)
            checker_names[int(position)] = checker
            signatures[checker] = checker_type
        module = jit.load(
            meta["module"],
            signatures,
            opt_level=options.opt_level,
            prints=meta["prints"],
        )
        if module is None:
            return None
        checkers = {p: module.function(n) for p, n in checker_names.items()}
        groups: list[list[Size]] = [
            [Dimension(a, d) if a >= 0 else d for a, d in group]
            for group in meta["shared_sizes"]
        ]
        bounds = bounds_from_json(meta["index_bounds"], ctx)
        written: list[int] = meta["written"]
        narrowable = [(int(p), str(kind)) for p, kind in meta["narrowable"]]
        return Kernel(
            name,
            signature,
            module.function(name),
            groups,
            bounds,
            written,
            checkers,
            narrowable,
            module.function(name, checked=True) if checkers else None,
            module.function(name, in_kernel=True)
            if meta["in_kernel_checked"]
            else None,
            bool(meta.get("restores_outputs", False)),
            [int(p) for p in meta["saved_on_error"]],
            meta["may_fail_allocation"],
        )
    except Exception as e:  # metadata that does not describe a kernel
        kernel_metadata.reject(entry, f"unusable: {type(e).__name__}: {e}")
        return None


def _check_boundary(function: func.FuncOp, spans: Spans) -> None:
    """The entry function's name is ASCII, and every argument and result is a
    scalar, tensor or memref of a type that numpy and the calling convention
    carry."""
    if not function.sym_name.data.isascii():  # llvmlite looks up ASCII names
        message = f"the entry function's name '{function.sym_name.data}' is not ASCII"
        raise XSparseError(format_span(spans[function], message))
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


def entry_function(module: ModuleOp, entry: str | None, source: str) -> func.FuncOp:
    """The function `entry` names, or the module's one public function with a
    body; XSparseError otherwise (at the end of `source` when there is none)."""
    functions = [
        op
        for op in module.ops
        if isinstance(op, func.FuncOp)
        and op.body.blocks
        and (op.sym_visibility is None or op.sym_visibility.data == "public")
    ]
    if entry is None:
        if not functions:
            message = "no public function with a body to compile"
            raise end_of_input(source, "<source>", message)
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
