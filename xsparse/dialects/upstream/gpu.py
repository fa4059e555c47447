"""The `gpu` dialect as MLIR 22's sparse GPU code generation prints it.

`-sparse-gpu-codegen` (SparseGPUCodegen.cpp) outlines parallel loops into
kernels (`gpu.module`, `gpu.func`, `gpu.thread_id`, ..., `gpu.launch_func`,
with `gpu.wait`/`gpu.alloc`/`gpu.memcpy`/`gpu.dealloc` around them) or, with
`num-threads=0`, calls cuSPARSE through the sparse ops (`gpu.create_csr`,
`gpu.spmv`, `gpu.spgemm_*`, ...). xDSL 0.74 has the former without MLIR's
syntax (and `gpu.func`, `gpu.memcpy` and `gpu.dealloc` with other attributes
or operands than MLIR's) and none of the latter. The ops below mirror
GPUOps.td (https://mlir.llvm.org/docs/Dialects/GPU/); `GPU` is xDSL's `gpu` dialect
with them in place of xDSL's ops of the same name (xDSL's own is unchanged).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import gpu
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefLayoutAttr,
    MemRefType,
    NoneAttr,
    StridedLayoutAttr,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.builtin import ModuleOp as BuiltinModuleOp
from xdsl.dialects.gpu import AsyncTokenType, DimensionAttr
from xdsl.dialects.utils import EnumAttribute
from xdsl.ir import (
    Attribute,
    Dialect,
    OpaqueSyntaxAttribute,
    Operation,
    ParametrizedAttribute,
    TypeAttribute,
)
from xdsl.irdl import (
    AnyOf,
    AttrSizedOperandSegments,
    AttrSizedResultSegments,
    IRDLOperation,
    VarConstraint,
    attr_def,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    opt_attr_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    CustomDirective,
    ParsingState,
    PrintingState,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    CallableOpInterface,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from xsparse.xdsl_adapter import dialect_with

# ----------------------------------------------------------------------------
# Types and enum attributes of the sparse ops
# ----------------------------------------------------------------------------


@irdl_attr_definition
class SparseDnTensorHandleType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.sparse.dntensor_handle` (GPU_SparseDnTensorHandle)."""

    name = "gpu.sparse.dntensor_handle"


@irdl_attr_definition
class SparseSpMatHandleType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.sparse.spmat_handle` (GPU_SparseSpMatHandle)."""

    name = "gpu.sparse.spmat_handle"


@irdl_attr_definition
class SparseSpGEMMOpHandleType(ParametrizedAttribute, TypeAttribute):
    """`!gpu.sparse.spgemmop_handle` (GPU_SparseSpGEMMOpHandle)."""

    name = "gpu.sparse.spgemmop_handle"


def print_enum(printer: Printer, value: StrEnum) -> None:
    """An enum attribute's value as MLIR prints it, after a space: `{ TRANSPOSE}`
    in an op, `#gpu<mat_transpose_mode TRANSPOSE>` on its own."""
    printer.print_string(f" {value}")


class TransposeMode(StrEnum):
    NON_TRANSPOSE = "NON_TRANSPOSE"
    TRANSPOSE = "TRANSPOSE"
    CONJUGATE_TRANSPOSE = "CONJUGATE_TRANSPOSE"


class Prune2To4SpMatFlag(StrEnum):
    NONE = "NONE"
    PRUNE_ONLY = "PRUNE_ONLY"
    PRUNE_AND_CHECK = "PRUNE_AND_CHECK"


class SpGEMMWorkEstimationOrComputeKind(StrEnum):
    WORK_ESTIMATION = "WORK_ESTIMATION"
    COMPUTE = "COMPUTE"


@irdl_attr_definition
class TransposeModeAttr(EnumAttribute[TransposeMode], OpaqueSyntaxAttribute):
    """`#gpu<mat_transpose_mode TRANSPOSE>` (GPU_TransposeModeAttr)."""

    name = "gpu.mat_transpose_mode"

    def print_parameter(self, printer: Printer) -> None:
        print_enum(printer, self.data)


@irdl_attr_definition
class Prune2To4SpMatFlagAttr(EnumAttribute[Prune2To4SpMatFlag], OpaqueSyntaxAttribute):
    """`#gpu<prune_2to4_spmat_flag PRUNE_AND_CHECK>` (GPU_Prune2To4SpMatFlagAttr)."""

    name = "gpu.prune_2to4_spmat_flag"

    def print_parameter(self, printer: Printer) -> None:
        print_enum(printer, self.data)


@irdl_attr_definition
class SpGEMMWorkEstimationOrComputeKindAttr(
    EnumAttribute[SpGEMMWorkEstimationOrComputeKind], OpaqueSyntaxAttribute
):
    """`#gpu<spgemm_work_estimation_or_compute_kind COMPUTE>`."""

    name = "gpu.spgemm_work_estimation_or_compute_kind"

    def print_parameter(self, printer: Printer) -> None:
        print_enum(printer, self.data)


NON_TRANSPOSE = TransposeModeAttr(TransposeMode.NON_TRANSPOSE)


# ----------------------------------------------------------------------------
# Custom directives (GPUDialect.cpp)
# ----------------------------------------------------------------------------


@irdl_custom_directive
class AsyncDependencies(CustomDirective):
    """`custom<AsyncDependencies>`: `async` when the op returns a token, then
    the tokens it waits for, `[%t0, %t1]`, if any. Like MLIR, a space is
    printed before it even when it prints nothing (`gpu.wait `)."""

    token: TypeDirective
    dependencies: VariadicOperandVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        is_async = parser.parse_optional_keyword("async") is not None
        self.token.set(state, [AsyncTokenType()] if is_async else [])
        tokens = parser.parse_optional_comma_separated_list(
            Parser.Delimiter.SQUARE, parser.parse_unresolved_operand
        )
        self.dependencies.set(state, tokens or [])
        self.dependencies.set_types(state, [AsyncTokenType()] * len(tokens or []))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        is_async = bool(self.token.get(op))
        tokens = self.dependencies.get(op)
        printer.print_string("async" if is_async else "")
        if tokens:
            printer.print_string(" [" if is_async else "[")
            printer.print_list(tokens, printer.print_ssa_value)
            printer.print_string("]")


@irdl_custom_directive
class LaunchDimType(CustomDirective):
    """`custom<LaunchDimType>`: `: type` of the launch sizes, unless `index`."""

    size_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        size_type = IndexType()
        if parser.parse_optional_punctuation(":") is not None:
            size_type = parser.parse_type()
        self.size_type.set(state, [size_type])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        (size_type,) = self.size_type.get(op)
        if size_type != IndexType():
            printer.print_string(": ")
            printer.print_attribute(size_type)


@irdl_custom_directive
class LaunchFuncOperands(CustomDirective):
    """`custom<LaunchFuncOperands>`: `args(%a : T, ...)`, if any."""

    operands: VariadicOperandVariable
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        def operand() -> tuple[UnresolvedOperand, Attribute]:
            value = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            return value, parser.parse_type()

        args: list[tuple[UnresolvedOperand, Attribute]] = []
        if parser.parse_optional_keyword("args") is not None:
            args = parser.parse_comma_separated_list(Parser.Delimiter.PAREN, operand)
        self.operands.set(state, [value for value, _ in args])
        self.types.set(state, [t for _, t in args])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        state.print_whitespace(printer)
        operands = self.operands.get(op)
        if not operands:
            return
        printer.print_string("args(")
        printer.print_list(
            operands,
            lambda v: (
                printer.print_ssa_value(v),
                printer.print_string(" : "),
                printer.print_attribute(v.type),
            ),
        )
        printer.print_string(")")


ASYNC = "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies)"
"""The async part of every host-side op's syntax."""


# ----------------------------------------------------------------------------
# Kernels
# ----------------------------------------------------------------------------


@irdl_op_definition
class ModuleOp(IRDLOperation):
    """`gpu.module @name { ... }` (GPU_GPUModuleOp), without targets."""

    name = "gpu.module"

    sym_name = prop_def(SymbolNameConstraint())
    bodyRegion = region_def("single_block")

    traits = traits_def(
        IsolatedFromAbove(), NoTerminator(), SymbolOpInterface(), SymbolTable()
    )

    assembly_format = "$sym_name attr-dict-with-keyword $bodyRegion"


def parse_results(parser: Parser) -> Sequence[Attribute]:
    """`-> T` or `-> (T, U)`, if there."""
    if parser.parse_optional_punctuation("->") is None:
        return ()
    results = parser.parse_optional_comma_separated_list(
        Parser.Delimiter.PAREN, parser.parse_type
    )
    return [parser.parse_type()] if results is None else results


@irdl_op_definition
class FuncOp(IRDLOperation):
    """`gpu.func @name(%a: T, ...) [-> (R, ...)] [kernel] [attributes {...}]
    { ... }` (GPU_GPUFuncOp), without memory attributions."""

    name = "gpu.func"

    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    sym_name = attr_def(SymbolNameConstraint())
    kernel = opt_attr_def(UnitAttr, attr_name="gpu.kernel")
    workgroup_attributions = opt_attr_def(IntegerAttr)
    body = region_def()

    traits = traits_def(IsolatedFromAbove(), HasParent(ModuleOp), SymbolOpInterface())

    RESERVED: ClassVar = ("sym_name", "gpu.kernel", "workgroup_attributions")

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        name = parser.parse_symbol_name()
        args = parser.parse_comma_separated_list(
            Parser.Delimiter.PAREN,
            lambda: (parser.parse_argument(), parser.parse_optional_attr_dict()),
        )
        results = parse_results(parser)
        is_kernel = parser.parse_optional_keyword("kernel") is not None
        extra = parser.parse_optional_attr_dict_with_keyword(cls.RESERVED)
        arg_attrs = [DictionaryAttr(attrs) for _, attrs in args]
        return cls.build(
            properties={
                "function_type": FunctionType.from_lists(
                    [arg.type for arg, _ in args], results
                ),
                "arg_attrs": ArrayAttr(arg_attrs)
                if any(a.data for a in arg_attrs)
                else None,
            },
            attributes={
                "sym_name": name,
                "gpu.kernel": UnitAttr() if is_kernel else None,
                "workgroup_attributions": IntegerAttr(0, i64),
                **(extra.data if extra is not None else {}),
            },
            regions=[parser.parse_region([arg for arg, _ in args])],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        attrs = self.arg_attrs.data if self.arg_attrs else None
        for i, arg in enumerate(self.body.block.args):
            if i:
                printer.print_string(", ")
            printer.print_block_argument(arg)
            if attrs is not None and attrs[i].data:
                printer.print_op_attributes(attrs[i].data)
        printer.print_string(")")
        outputs = self.function_type.outputs.data
        if outputs:
            printer.print_string(" -> ")
            if len(outputs) > 1:
                printer.print_string("(")
            printer.print_list(outputs, printer.print_attribute)
            if len(outputs) > 1:
                printer.print_string(")")
        if self.kernel is not None:
            printer.print_string(" kernel")
        printer.print_op_attributes(
            self.attributes, reserved_attr_names=self.RESERVED, print_keyword=True
        )
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        inputs = self.function_type.inputs.data
        for i, (arg, expected) in enumerate(
            zip(self.body.block.args, inputs, strict=False)
        ):
            if arg.type != expected:
                raise VerifyException(
                    f"expected body region argument #{i} to be of type "
                    f"'{expected}', got '{arg.type}'"
                )
        if self.kernel is not None and self.function_type.outputs.data:
            raise VerifyException("expected void return type for kernel function")


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """`gpu.return %v : T` (GPU_ReturnOp)."""

    name = "gpu.return"

    args = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(FuncOp), Pure())

    assembly_format = "attr-dict ($args^ `:` type($args))?"


class IndexOp(IRDLOperation):
    """`gpu.<index op> x [upper_bound N]` (GPU_IndexOp)."""

    dimension = prop_def(DimensionAttr)
    upper_bound = opt_prop_def(IntegerAttr[IndexType])
    result = result_def(IndexType)

    traits = traits_def(Pure())

    # Two spaces before the dimension, as MLIR prints them (its enum printer
    # adds one of its own).
    assembly_format = "` ` $dimension (`upper_bound` $upper_bound^)? attr-dict"

    def verify_(self) -> None:
        """An upper bound that fits in 64 bits: MLIR's parser refuses an
        `index` attribute past them, xDSL's declarative format takes any."""
        bound = self.upper_bound
        if bound is not None and not -(2**63) <= bound.value.data < 2**63:
            raise VerifyException("integer constant out of range for attribute")


@irdl_op_definition
class BlockDimOp(IndexOp):
    """`gpu.block_dim x` (GPU_BlockDimOp)."""

    name = "gpu.block_dim"


@irdl_op_definition
class BlockIdOp(IndexOp):
    """`gpu.block_id x` (GPU_BlockIdOp)."""

    name = "gpu.block_id"


@irdl_op_definition
class GridDimOp(IndexOp):
    """`gpu.grid_dim x` (GPU_GridDimOp)."""

    name = "gpu.grid_dim"


@irdl_op_definition
class ThreadIdOp(IndexOp):
    """`gpu.thread_id x` (GPU_ThreadIdOp)."""

    name = "gpu.thread_id"


@irdl_op_definition
class LaunchFuncOp(IRDLOperation):
    """`gpu.launch_func async [%t] @module::@kernel blocks in (...) threads in
    (...) args(...)` (GPU_LaunchFuncOp)."""

    name = "gpu.launch_func"

    T: ClassVar = VarConstraint("T", AnyOf.get(IndexType, i32, i64))

    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(T)
    gridSizeY = operand_def(T)
    gridSizeZ = operand_def(T)
    blockSizeX = operand_def(T)
    blockSizeY = operand_def(T)
    blockSizeZ = operand_def(T)
    clusterSizeX = opt_operand_def(T)
    clusterSizeY = opt_operand_def(T)
    clusterSizeZ = opt_operand_def(T)
    dynamicSharedMemorySize = opt_operand_def(i32)
    kernelOperands = var_operand_def()
    asyncObject = opt_operand_def()
    asyncToken = opt_result_def(AsyncTokenType)

    kernel = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives = (AsyncDependencies, LaunchDimType, LaunchFuncOperands)

    assembly_format = (
        f"{ASYNC} (`<` $asyncObject^ `:` type($asyncObject) `>`)? $kernel"
        " (`clusters` `in` ` ` `(` $clusterSizeX^ `,` $clusterSizeY `,` $clusterSizeZ `)`)?"
        " `blocks` `in` ` ` `(` $gridSizeX `,` $gridSizeY `,` $gridSizeZ `)`"
        " `threads` `in` ` ` `(` $blockSizeX `,` $blockSizeY `,` $blockSizeZ `)`"
        " custom<LaunchDimType>(type($gridSizeX))"
        " (`dynamic_shared_memory_size` $dynamicSharedMemorySize^)?"
        " custom<LaunchFuncOperands>($kernelOperands, type($kernelOperands))"
        " attr-dict"
    )

    def verify_(self) -> None:
        """`LaunchFuncOp::verify` and what the `gpu.container_module` attribute
        checks of each launch (`GPUDialect::verifyOperationAttribute`): the
        kernel is a `kernel` function of a `gpu.module` of the closest module,
        and takes the launch's operands."""
        module = self.parent_op()
        while module is not None and not isinstance(module, BuiltinModuleOp):
            module = module.parent_op()
        if module is None:
            raise VerifyException("expected to belong to a module")
        if "gpu.container_module" not in module.attributes:
            raise VerifyException(
                "expected the closest surrounding module to have the "
                "'gpu.container_module' attribute"
            )
        container_name = self.kernel.root_reference.data
        container = SymbolTable.lookup_symbol(module, StringAttr(container_name))
        if container is None:
            raise VerifyException(f"kernel container '{container_name}' is undefined")
        if not isinstance(container, ModuleOp):
            raise VerifyException(f"kernel module '{container_name}' is undefined")
        kernel = _lookup_nested(container, self.kernel)
        if kernel is None:
            raise VerifyException(f"kernel function '{self.kernel}' is undefined")
        if not isinstance(kernel, FuncOp) and not kernel.has_trait(CallableOpInterface):
            raise VerifyException(
                f"referenced kernel '{self.kernel}' is not a function"
            )
        if "gpu.kernel" not in kernel.attributes:
            raise VerifyException(
                "kernel function is missing the 'gpu.kernel' attribute"
            )
        if not isinstance(kernel, FuncOp):
            return
        expected = kernel.function_type.inputs.data
        if len(self.kernelOperands) != len(expected):
            raise VerifyException(
                f"got {len(self.kernelOperands)} kernel operands but expected "
                f"{len(expected)}"
            )
        for i, (operand, type) in enumerate(
            zip(self.kernelOperands, expected, strict=True)
        ):
            if operand.type != type:
                raise VerifyException(f"type of function argument {i} does not match")


def _lookup_nested(container: ModuleOp, kernel: SymbolRefAttr) -> Operation | None:
    """The op `kernel` (`@container::@name...`) names in `container`; the
    container itself when `kernel` has no nested reference, as MLIR's
    `lookupSymbol` from the enclosing module finds it."""
    if not kernel.nested_references.data:
        return container
    root, *rest = kernel.nested_references.data
    return SymbolTable.lookup_symbol(container, SymbolRefAttr(root, rest))


# ----------------------------------------------------------------------------
# Host-side memory and synchronization
# ----------------------------------------------------------------------------


@irdl_op_definition
class WaitOp(IRDLOperation):
    """`gpu.wait async [%t0, %t1]` (GPU_WaitOp)."""

    name = "gpu.wait"

    asyncDependencies = var_operand_def(AsyncTokenType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} attr-dict"


@irdl_op_definition
class AllocOp(IRDLOperation):
    """`gpu.alloc async [%t] host_shared (%sizes)[%symbols] : memref<...>`
    (GPU_AllocOp)."""

    name = "gpu.alloc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dynamicSizes = var_operand_def(IndexType)
    symbolOperands = var_operand_def(IndexType)
    hostShared = opt_prop_def(UnitAttr)
    memref = result_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} (` ` `host_shared` $hostShared^)? ` ` `(` $dynamicSizes `)`"
        " (`` `[` $symbolOperands^ `]`)? attr-dict `:` type($memref)"
    )

    def verify_(self) -> None:
        """A size per dynamic dimension, a symbol per symbol of the layout."""
        memref = self.memref.type
        assert isinstance(memref, MemRefType)
        dynamic = sum(1 for d in memref.get_shape() if d == DYNAMIC_INDEX)
        if len(self.dynamicSizes) != dynamic:
            raise VerifyException(
                f"incorrect number of dynamic sizes, has {len(self.dynamicSizes)}, "
                f"expected {dynamic}"
            )
        symbols = _layout_symbols(memref.layout)
        if len(self.symbolOperands) != symbols:
            raise VerifyException(
                "symbol operand count does not equal memref symbol count"
            )


def _layout_symbols(layout: Attribute) -> int:
    """The symbols of a memref layout's affine map: those of the map, or, for
    `strided<...>`, one per dynamic stride and one for a dynamic offset
    (MLIR's `makeStridedLinearLayoutMap`)."""
    if isinstance(layout, NoneAttr):
        return 0
    if isinstance(layout, StridedLayoutAttr):
        strides = sum(isinstance(s, NoneAttr) for s in layout.strides.data)
        return strides + isinstance(layout.offset, NoneAttr)
    if isinstance(layout, MemRefLayoutAttr):
        return layout.get_affine_map().num_symbols
    return 0


@irdl_op_definition
class DeallocOp(IRDLOperation):
    """`gpu.dealloc async [%t] %m : memref<...>` (GPU_DeallocOp)."""

    name = "gpu.dealloc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} $memref attr-dict `:` type($memref)"


@irdl_op_definition
class MemcpyOp(IRDLOperation):
    """`gpu.memcpy async [%t] %dst, %src : T, U` (GPU_MemcpyOp)."""

    name = "gpu.memcpy"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dst = operand_def(MemRefType)
    src = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} $dst `,` $src `:` type($dst) `,` type($src) attr-dict"

    def verify_(self) -> None:
        """The same element type, and shapes that agree where both are static."""
        dst, src = self.dst.type, self.src.type
        assert isinstance(dst, MemRefType) and isinstance(src, MemRefType)
        if dst.element_type != src.element_type:
            raise VerifyException("arguments have incompatible element type")
        dst_shape, src_shape = dst.get_shape(), src.get_shape()
        if len(dst_shape) != len(src_shape) or any(
            d != s and DYNAMIC_INDEX not in (d, s)
            for d, s in zip(dst_shape, src_shape, strict=True)
        ):
            raise VerifyException("arguments have incompatible shape")


# ----------------------------------------------------------------------------
# Sparse matrices and dense tensors (cuSPARSE)
# ----------------------------------------------------------------------------


@irdl_op_definition
class CreateDnTensorOp(IRDLOperation):
    """`gpu.create_dn_tensor async [%t] %mem, %dims : index, ... into memref<...>`
    (GPU_CreateDnTensorOp)."""

    name = "gpu.create_dn_tensor"

    asyncDependencies = var_operand_def(AsyncTokenType)
    memref = operand_def(MemRefType)
    dims = var_operand_def(IndexType)
    dnTensor = result_def(SparseDnTensorHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $memref `,` $dims attr-dict `:` type($dims) `into` type($memref)"
    )


@irdl_op_definition
class DestroyDnTensorOp(IRDLOperation):
    """`gpu.destroy_dn_tensor async [%t] %dn` (GPU_DestroyDnTensorOp)."""

    name = "gpu.destroy_dn_tensor"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dnTensor = operand_def(SparseDnTensorHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} $dnTensor attr-dict"


@irdl_op_definition
class CreateCooOp(IRDLOperation):
    """`gpu.create_coo async [%t] %rows, %cols, %nnz, %rowIdxs, %colIdxs,
    %values : T, U, V` (GPU_CreateCooOp)."""

    name = "gpu.create_coo"

    asyncDependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    rowIdxs = operand_def(MemRefType)
    colIdxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $rows `,` $cols `,` $nnz `,` $rowIdxs `,` $colIdxs `,` $values"
        " attr-dict `:` type($rowIdxs) `,` type($colIdxs) `,` type($values)"
    )


@irdl_op_definition
class CreateCsrOp(IRDLOperation):
    """`gpu.create_csr async [%t] %rows, %cols, %nnz, %rowPos, %colIdxs,
    %values : T, U, V` (GPU_CreateCsrOp)."""

    name = "gpu.create_csr"

    asyncDependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    rowPos = operand_def(MemRefType)
    colIdxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $rows `,` $cols `,` $nnz `,` $rowPos `,` $colIdxs `,` $values"
        " attr-dict `:` type($rowPos) `,` type($colIdxs) `,` type($values)"
    )


@irdl_op_definition
class CreateCscOp(IRDLOperation):
    """`gpu.create_csc async [%t] %rows, %cols, %nnz, %colPos, %rowIdxs,
    %values : T, U, V` (GPU_CreateCscOp)."""

    name = "gpu.create_csc"

    asyncDependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    nnz = operand_def(IndexType)
    colPos = operand_def(MemRefType)
    rowIdxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $rows `,` $cols `,` $nnz `,` $colPos `,` $rowIdxs `,` $values"
        " attr-dict `:` type($colPos) `,` type($rowIdxs) `,` type($values)"
    )


@irdl_op_definition
class CreateBsrOp(IRDLOperation):
    """`gpu.create_bsr async [%t] %brows, %bcols, %bnnz, %rBlockSize,
    %cBlockSize, %bRowPos, %bColIdxs, %values : T, U, V` (GPU_CreateBsrOp)."""

    name = "gpu.create_bsr"

    asyncDependencies = var_operand_def(AsyncTokenType)
    brows = operand_def(IndexType)
    bcols = operand_def(IndexType)
    bnnz = operand_def(IndexType)
    rBlockSize = operand_def(IndexType)
    cBlockSize = operand_def(IndexType)
    bRowPos = operand_def(MemRefType)
    bColIdxs = operand_def(MemRefType)
    values = operand_def(MemRefType)
    spmat = result_def(SparseSpMatHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $brows `,` $bcols `,` $bnnz `,` $rBlockSize `,` $cBlockSize `,`"
        " $bRowPos `,` $bColIdxs `,` $values attr-dict"
        " `:` type($bRowPos) `,` type($bColIdxs) `,` type($values)"
    )


@irdl_op_definition
class Create2To4SpMatOp(IRDLOperation):
    """`gpu.create_2to4_spmat async [%t] {PRUNE_AND_CHECK} %rows, %cols, %mem
    : memref<...>` (GPU_Create2To4SpMatOp)."""

    name = "gpu.create_2to4_spmat"

    asyncDependencies = var_operand_def(AsyncTokenType)
    rows = operand_def(IndexType)
    cols = operand_def(IndexType)
    memref = operand_def(MemRefType)
    pruneFlag = prop_def(Prune2To4SpMatFlagAttr)
    spMat = result_def(SparseSpMatHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} `{{` $pruneFlag `}}` $rows `,` $cols `,` $memref attr-dict"
        " `:` type($memref)"
    )


@irdl_op_definition
class DestroySpMatOp(IRDLOperation):
    """`gpu.destroy_sp_mat async [%t] %spmat` (GPU_DestroySpMatOp)."""

    name = "gpu.destroy_sp_mat"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmat = operand_def(SparseSpMatHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} $spmat attr-dict"


# ----------------------------------------------------------------------------
# SpMV, SpMM, SDDMM, SpGEMM
# ----------------------------------------------------------------------------


@irdl_op_definition
class SpMVBufferSizeOp(IRDLOperation):
    """`gpu.spmv_buffer_size async [%t] %spmatA{MODE}, %dnX, %dnY into f32`
    (GPU_SpMVBufferSizeOp)."""

    name = "gpu.spmv_buffer_size"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmatA = operand_def(SparseSpMatHandleType)
    dnX = operand_def(SparseDnTensorHandleType)
    dnY = operand_def(SparseDnTensorHandleType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    bufferSz = result_def(IndexType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnX `,` $dnY attr-dict"
        " `into` $computeType"
    )


@irdl_op_definition
class SpMVOp(IRDLOperation):
    """`gpu.spmv async [%t] %spmatA{MODE}, %dnX, %dnY, %buffer : memref<...>
    into f32` (GPU_SpMVOp)."""

    name = "gpu.spmv"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmatA = operand_def(SparseSpMatHandleType)
    dnX = operand_def(SparseDnTensorHandleType)
    dnY = operand_def(SparseDnTensorHandleType)
    buffer = operand_def(MemRefType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnX `,` $dnY `,` $buffer"
        " attr-dict `:` type($buffer) `into` $computeType"
    )


@irdl_op_definition
class SpMMBufferSizeOp(IRDLOperation):
    """`gpu.spmm_buffer_size async [%t] %spmatA{MODE}, %dnmatB{MODE}, %dnmatC
    : index, ... into f32` (GPU_SpMMBufferSizeOp)."""

    name = "gpu.spmm_buffer_size"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmatA = operand_def(SparseSpMatHandleType)
    dnmatB = operand_def(SparseDnTensorHandleType)
    dnmatC = operand_def(SparseDnTensorHandleType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    modeB = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    bufferSzs = var_result_def(IndexType)
    asyncToken = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedResultSegments(as_property=True),)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)?"
        " `,` $dnmatC attr-dict `:` type($bufferSzs) `into` $computeType"
    )


@irdl_op_definition
class SpMMOp(IRDLOperation):
    """`gpu.spmm async [%t] %spmatA{MODE}, %dnmatB{MODE}, %dnmatC, %buffers
    : memref<...>, ... into f32` (GPU_SpMMOp)."""

    name = "gpu.spmm"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmatA = operand_def(SparseSpMatHandleType)
    dnmatB = operand_def(SparseDnTensorHandleType)
    dnmatC = operand_def(SparseDnTensorHandleType)
    buffers = var_operand_def(MemRefType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    modeB = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    asyncToken = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)?"
        " `,` $dnmatC `,` $buffers attr-dict `:` type($buffers) `into` $computeType"
    )


@irdl_op_definition
class SDDMMBufferSizeOp(IRDLOperation):
    """`gpu.sddmm_buffer_size async [%t] %dnmatA{MODE}, %dnmatB{MODE}, %spmatC
    into f32` (GPU_SDDMMBufferSizeOp)."""

    name = "gpu.sddmm_buffer_size"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dnmatA = operand_def(SparseDnTensorHandleType)
    dnmatB = operand_def(SparseDnTensorHandleType)
    spmatC = operand_def(SparseSpMatHandleType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    modeB = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    bufferSz = result_def(IndexType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $dnmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)?"
        " `,` $spmatC attr-dict `into` $computeType"
    )


@irdl_op_definition
class SDDMMOp(IRDLOperation):
    """`gpu.sddmm async [%t] %dnmatA{MODE}, %dnmatB{MODE}, %spmatC, %buffer
    : memref<...> into f32` (GPU_SDDMMOp)."""

    name = "gpu.sddmm"

    asyncDependencies = var_operand_def(AsyncTokenType)
    dnmatA = operand_def(SparseDnTensorHandleType)
    dnmatB = operand_def(SparseDnTensorHandleType)
    spmatC = operand_def(SparseSpMatHandleType)
    buffer = operand_def(MemRefType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    modeB = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $dnmatA (`{{` $modeA^ `}}`)? `,` $dnmatB (`{{` $modeB^ `}}`)?"
        " `,` $spmatC `,` $buffer attr-dict `:` type($buffer) `into` $computeType"
    )


@irdl_op_definition
class SpGEMMCreateDescrOp(IRDLOperation):
    """`gpu.spgemm_create_descr async [%t]` (GPU_SpGEMMCreateDescrOp)."""

    name = "gpu.spgemm_create_descr"

    asyncDependencies = var_operand_def(AsyncTokenType)
    desc = result_def(SparseSpGEMMOpHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} attr-dict"


@irdl_op_definition
class SpGEMMDestroyDescrOp(IRDLOperation):
    """`gpu.spgemm_destroy_descr async [%t] %desc` (GPU_SpGEMMDestroyDescrOp)."""

    name = "gpu.spgemm_destroy_descr"

    asyncDependencies = var_operand_def(AsyncTokenType)
    desc = operand_def(SparseSpGEMMOpHandleType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} $desc attr-dict"


@irdl_op_definition
class SpGEMMWorkEstimationOrComputeOp(IRDLOperation):
    """`gpu.spgemm_work_estimation_or_compute async [%t] {COMPUTE} %spmatA{MODE},
    %spmatB{MODE}, %spmatC, %desc, %size, %buffer : f32 into memref<...>`
    (GPU_SpGEMMWorkEstimationOrComputeOp)."""

    name = "gpu.spgemm_work_estimation_or_compute"

    asyncDependencies = var_operand_def(AsyncTokenType)
    desc = operand_def(SparseSpGEMMOpHandleType)
    spmatA = operand_def(SparseSpMatHandleType)
    spmatB = operand_def(SparseSpMatHandleType)
    spmatC = operand_def(SparseSpMatHandleType)
    bufferSz = operand_def(IndexType)
    buffer = operand_def(MemRefType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    modeB = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    kind = prop_def(SpGEMMWorkEstimationOrComputeKindAttr)
    bufferSzNew = result_def(IndexType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} `{{` $kind `}}` $spmatA (`{{` $modeA^ `}}`)? `,`"
        " $spmatB (`{` $modeB^ `}`)? `,` $spmatC `,` $desc `,` $bufferSz `,`"
        " $buffer attr-dict `:` $computeType `into` type($buffer)"
    )


@irdl_op_definition
class SpGEMMCopyOp(IRDLOperation):
    """`gpu.spgemm_copy async [%t] %spmatA{MODE}, %spmatB{MODE}, %spmatC, %desc
    : f32` (GPU_SpGEMMCopyOp)."""

    name = "gpu.spgemm_copy"

    asyncDependencies = var_operand_def(AsyncTokenType)
    desc = operand_def(SparseSpGEMMOpHandleType)
    spmatA = operand_def(SparseSpMatHandleType)
    spmatB = operand_def(SparseSpMatHandleType)
    spmatC = operand_def(SparseSpMatHandleType)
    modeA = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    modeB = prop_def(TransposeModeAttr, default_value=NON_TRANSPOSE)
    computeType = prop_def(TypeAttribute)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $spmatA (`{{` $modeA^ `}}`)? `,` $spmatB (`{{` $modeB^ `}}`)?"
        " `,` $spmatC `,` $desc attr-dict `:` $computeType"
    )


@irdl_op_definition
class SpMatGetSizeOp(IRDLOperation):
    """`%rows, %cols, %nnz, %t = gpu.spmat_get_size async [%t0] %spmat`
    (GPU_SpMatGetSizeOp)."""

    name = "gpu.spmat_get_size"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmat = operand_def(SparseSpMatHandleType)
    rows = result_def(IndexType)
    cols = result_def(IndexType)
    nnz = result_def(IndexType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = f"{ASYNC} $spmat attr-dict"


@irdl_op_definition
class SetCsrPointersOp(IRDLOperation):
    """`gpu.set_csr_pointers async [%t] %spmat, %positions, %coordinates,
    %values : T, U, V` (GPU_SetCsrPointersOp)."""

    name = "gpu.set_csr_pointers"

    asyncDependencies = var_operand_def(AsyncTokenType)
    spmat = operand_def(SparseSpMatHandleType)
    positions = operand_def(MemRefType)
    coordinates = operand_def(MemRefType)
    values = operand_def(MemRefType)
    asyncToken = opt_result_def(AsyncTokenType)

    custom_directives = (AsyncDependencies,)

    assembly_format = (
        f"{ASYNC} $spmat `,` $positions `,` $coordinates `,` $values attr-dict"
        " `:` type($positions) `,` type($coordinates) `,` type($values)"
    )


GPU_EXTENSION_OPS: tuple[type[IRDLOperation], ...] = (
    ModuleOp,
    FuncOp,
    ReturnOp,
    BlockDimOp,
    BlockIdOp,
    GridDimOp,
    ThreadIdOp,
    LaunchFuncOp,
    WaitOp,
    AllocOp,
    DeallocOp,
    MemcpyOp,
    CreateDnTensorOp,
    DestroyDnTensorOp,
    CreateCooOp,
    CreateCsrOp,
    CreateCscOp,
    CreateBsrOp,
    Create2To4SpMatOp,
    DestroySpMatOp,
    SpMVBufferSizeOp,
    SpMVOp,
    SpMMBufferSizeOp,
    SpMMOp,
    SDDMMBufferSizeOp,
    SDDMMOp,
    SpGEMMCreateDescrOp,
    SpGEMMDestroyDescrOp,
    SpGEMMWorkEstimationOrComputeOp,
    SpGEMMCopyOp,
    SpMatGetSizeOp,
    SetCsrPointersOp,
)
GPU_EXTENSION_ATTRS: tuple[type[Attribute], ...] = (
    SparseDnTensorHandleType,
    SparseSpMatHandleType,
    SparseSpGEMMOpHandleType,
    TransposeModeAttr,
    Prune2To4SpMatFlagAttr,
    SpGEMMWorkEstimationOrComputeKindAttr,
)


GPU: Dialect = dialect_with(gpu.GPU, GPU_EXTENSION_OPS, GPU_EXTENSION_ATTRS)
"""xDSL's `gpu` with the ops and attributes above in place of its own."""
