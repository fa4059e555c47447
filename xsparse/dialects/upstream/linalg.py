"""xDSL's `linalg` as MLIR 22 reads it: `linalg.generic` with its trait given
as an attribute alias, `linalg.index` verified as MLIR verifies it, and the
named dot, convolution, pooling and quantized matmul ops of MLIR's sparse
integration tests.

MLIR's sparse kernels are usually written `linalg.generic #trait ins(...) outs(...)`
with `#trait = {indexing_maps = [...], iterator_types = [...]}` (MLIR's
"Linalg Generic" documentation); xDSL 0.74's parser only takes the inline
dictionary.
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Callable, Sequence
from typing import ClassVar

from xdsl.builder import Builder
from xdsl.dialects import arith, linalg
from xdsl.dialects.builtin import (
    AnyFloat,
    ArrayAttr,
    ComplexType,
    DenseIntElementsAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    IntegerType,
    ShapedType,
    i64,
)
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.dialects.linalg.abstract_ops import NamedOperation
from xdsl.dialects.linalg.attrs import IteratorTypeAttr
from xdsl.ir import Attribute, BlockArgument, Dialect, Operation, Region, SSAValue
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xsparse.xdsl_adapter import dialect_with, peek, redefined_op


@redefined_op()
class GenericOp(linalg_ops.GenericOp):
    """`linalg.generic`, whose attribute dictionary may be an `#alias`, and
    whose indexing maps may not divide by zero."""

    @classmethod
    def parse(cls, parser: Parser) -> GenericOp:
        if peek(parser).kind != MLIRTokenKind.HASH_IDENT:
            return super().parse(parser)
        start = parser.pos
        trait = parser.parse_attribute()
        if not isinstance(trait, DictionaryAttr):
            parser.raise_error(
                "expected a dictionary attribute for the trait", start, parser.pos
            )
        entries: dict[str, Attribute] = dict(trait.data)

        def trait_entries_once() -> dict[str, Attribute]:
            # Only the generic's own dictionary comes from the alias.
            delattr(parser, "parse_optional_attr_dict")
            return entries

        parser.parse_optional_attr_dict = trait_entries_once
        try:
            return super().parse(parser)
        finally:
            if "parse_optional_attr_dict" in vars(parser):
                delattr(parser, "parse_optional_attr_dict")

    def verify_(self) -> None:
        """xDSL's verifier, where an indexing map that divides by zero
        (`d0 mod 0`, which xDSL evaluates to bound the loops) is a
        diagnostic, not a ZeroDivisionError."""
        try:
            linalg_ops.GenericOp.verify_(self)
        except ZeroDivisionError:
            raise VerifyException(
                "an indexing map divides by zero (`floordiv`, `ceildiv` or `mod` by 0)"
            ) from None


@redefined_op()
class IndexOp(linalg_ops.IndexOp):
    """`linalg.index`, whose dimension MLIR bounds by the loop count."""

    def verify_(self) -> None:
        """MLIR's checks (`IndexOp::verify`): a dimension from 0 to the
        number of loops of the enclosing op."""
        linalg_ops.IndexOp.verify_(self)
        dim = self.dim.value.data
        if dim < 0:
            raise VerifyException(
                "attribute 'dim' failed to satisfy constraint: 64-bit signless "
                "integer attribute whose minimum value is 0"
            )
        parent = self.parent_op()
        if isinstance(parent, linalg_ops.GenericOp) and dim >= len(
            parent.iterator_types
        ):
            raise VerifyException(
                f"expected dim ({dim}) to be lower than the number of loops "
                f"({len(parent.iterator_types)}) of the enclosing LinalgOp"
            )


@redefined_op()
class FillOp(linalg_ops.FillOp):
    """`linalg.fill` with a complex number too, as MLIR's takes any scalar
    (xDSL's takes integers and floats only)."""

    def verify_(self) -> None:
        for value in self.inputs:
            if not isinstance(value.type, AnyFloat | IntegerType | ComplexType):
                raise VerifyException(
                    f"Input type is {value.type} but must be a scalar: an integer, "
                    "a float or a complex number."
                )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        types = [
            t.get_element_type() if isinstance(t, ShapedType) else t
            for t in (v.type for v in (*inputs, *outputs))
        ]

        @Builder.implicit_region(types)
        def hidden_region(args: tuple[BlockArgument, ...]) -> None:
            linalg.YieldOp(args[0])

        return hidden_region


Layout = tuple[str | tuple[str, str], ...]
"""One operand's indices in a named op's loops: a loop's name, or, for a
windowed dimension, (output loop, window loop): `o * stride + w * dilation`."""


def _cast(value: SSAValue, to: Attribute) -> SSAValue:
    """`value` as `to`, as OpDSL's `cast_signed` converts a body argument to
    the output's element type (MLIR's generalized bodies)."""
    source = value.type
    if source == to:
        return value
    op: Operation
    if isinstance(source, IntegerType) and isinstance(to, IntegerType):
        wider = source.width.data < to.width.data
        op = arith.ExtSIOp(value, to) if wider else arith.TruncIOp(value, to)
    elif isinstance(source, IntegerType) and isinstance(to, AnyFloat):
        op = arith.SIToFPOp(value, to)
    elif isinstance(source, AnyFloat) and isinstance(to, AnyFloat):
        wider = source.bitwidth < to.bitwidth
        op = arith.ExtFOp(value, to) if wider else arith.TruncFOp(value, to)
    elif isinstance(source, AnyFloat) and isinstance(to, IntegerType):
        op = arith.FPToSIOp(value, to)
    else:
        raise ValueError(f"cannot cast {source} to {to}")
    return op.results[0]


class LayoutNamedOp(NamedOperation, ABC):
    """A named op of MLIR 22's OpDSL (`LinalgNamedStructuredOps.yaml`) given by
    its loops and the indices of its operands in them; generalized, it is the
    `linalg.generic` that `linalg-generalize-named-ops` prints: its loops are
    parallel where the output is indexed by them, reductions elsewhere, and its
    body is `out + in * filter` (`out + in` where `SUMS`: sum pooling, whose
    second operand only shapes the window), each input cast to the output's
    element type."""

    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True
    LOOPS: ClassVar[tuple[str, ...]]
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]]
    SUMS: ClassVar[bool] = False

    def window(self) -> tuple[Sequence[int], Sequence[int]]:
        """The strides and dilations of the windowed dimensions."""
        rank = sum(isinstance(index, tuple) for index in self.LAYOUTS[0])
        return (1,) * rank, (1,) * rank

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        strides, dilations = self.window()
        loop = {name: AffineDimExpr(i) for i, name in enumerate(self.LOOPS)}

        def scaled(expr: AffineExpr, factor: int) -> AffineExpr:
            return expr if factor == 1 else expr * factor

        maps: list[AffineMap] = []
        for layout in self.LAYOUTS:
            results: list[AffineExpr] = []
            windows = iter(zip(strides, dilations, strict=True))
            for index in layout:
                if isinstance(index, str):
                    results.append(loop[index])
                    continue
                (out, window), (stride, dilation) = index, next(windows)
                results.append(
                    scaled(loop[out], stride) + scaled(loop[window], dilation)
                )
            maps.append(AffineMap(len(self.LOOPS), 0, tuple(results)))
        return maps

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        output = self.LAYOUTS[2]
        return ArrayAttr(
            IteratorTypeAttr.parallel()
            if name in output
            else IteratorTypeAttr.reduction()
            for name in self.LOOPS
        )

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        types = [getattr(v.type, "element_type", v.type) for v in [*inputs, *outputs]]
        if len(types) != 3 or not all(
            isinstance(t, IntegerType | AnyFloat) for t in types
        ):
            raise ValueError("expected two inputs and one output of int or float")
        out_type = types[-1]
        add: Callable[[SSAValue, SSAValue], Operation]
        mul: Callable[[SSAValue, SSAValue], Operation]
        if isinstance(out_type, AnyFloat):
            add, mul = arith.AddfOp, arith.MulfOp
        else:
            add, mul = arith.AddiOp, arith.MuliOp

        @Builder.implicit_region(types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            value = _cast(args[0], out_type)
            if not cls.SUMS:
                value = mul(value, _cast(args[1], out_type)).results[0]
            linalg_ops.YieldOp(add(args[2], value))

        return body


class WindowedOp(LayoutNamedOp, ABC):
    """A named convolution or pooling op with `strides` and `dilations` (one
    each per windowed dimension, 1 where absent)."""

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    def window(self) -> tuple[Sequence[int], Sequence[int]]:
        ones = super().window()[0]
        return tuple(
            ones if attr is None else tuple(attr.get_values())
            for attr in (self.strides, self.dilations)
        )

    @classmethod
    def parse(cls, parser: Parser) -> WindowedOp:
        """xDSL's parse, the properties in MLIR's (sorted) printing order."""
        op = super().parse(parser)
        op.properties = dict(sorted(op.properties.items()))
        return op

    def verify_(self) -> None:
        rank = len(super().window()[0])
        for name in ("strides", "dilations"):
            attr = self.properties.get(name)
            if attr is None:
                continue
            assert isinstance(attr, DenseIntOrFPElementsAttr)
            if attr.get_element_type() != i64 or attr.get_shape() != (rank,):
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: 64-bit "
                    f"signless int elements attribute of shape [{rank}]"
                )
        super().verify_()


@irdl_op_definition
class DotOp(LayoutNamedOp):
    """`linalg.dot`: `out() += a(k) * b(k)`."""

    name = "linalg.dot"
    LOOPS: ClassVar[tuple[str, ...]] = ("k",)
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (("k",), ("k",), ())


@irdl_op_definition
class Conv1DOp(LayoutNamedOp):
    """`linalg.conv_1d`: `out(w) += in(w + kw) * filter(kw)`."""

    name = "linalg.conv_1d"
    LOOPS: ClassVar[tuple[str, ...]] = ("w", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = ((("w", "kw"),), ("kw",), ("w",))


@irdl_op_definition
class Conv2DOp(LayoutNamedOp):
    """`linalg.conv_2d`: `out(h, w) += in(h + kh, w + kw) * filter(kh, kw)`."""

    name = "linalg.conv_2d"
    LOOPS: ClassVar[tuple[str, ...]] = ("h", "w", "kh", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        (("h", "kh"), ("w", "kw")),
        ("kh", "kw"),
        ("h", "w"),
    )


@irdl_op_definition
class Conv3DOp(LayoutNamedOp):
    """`linalg.conv_3d`: `out(d, h, w) += in(d + kd, h + kh, w + kw) *
    filter(kd, kh, kw)`."""

    name = "linalg.conv_3d"
    LOOPS: ClassVar[tuple[str, ...]] = ("d", "h", "w", "kd", "kh", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        (("d", "kd"), ("h", "kh"), ("w", "kw")),
        ("kd", "kh", "kw"),
        ("d", "h", "w"),
    )


@irdl_op_definition
class Conv1DNwcWcfOp(WindowedOp):
    """`linalg.conv_1d_nwc_wcf`: `out(n, w, f) += in(n, w * s + kw * d, c) *
    filter(kw, c, f)`."""

    name = "linalg.conv_1d_nwc_wcf"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "w", "f", "kw", "c")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", ("w", "kw"), "c"),
        ("kw", "c", "f"),
        ("n", "w", "f"),
    )


@irdl_op_definition
class Conv2DNhwcHwcfOp(WindowedOp):
    """`linalg.conv_2d_nhwc_hwcf`, whose `strides` and `dilations` MLIR makes
    optional (xDSL's requires them)."""

    name = "linalg.conv_2d_nhwc_hwcf"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "h", "w", "f", "kh", "kw", "c")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", ("h", "kh"), ("w", "kw"), "c"),
        ("kh", "kw", "c", "f"),
        ("n", "h", "w", "f"),
    )


@irdl_op_definition
class Conv2DNchwFchwOp(WindowedOp):
    """`linalg.conv_2d_nchw_fchw`, whose `strides` and `dilations` MLIR makes
    optional (xDSL's requires them)."""

    name = "linalg.conv_2d_nchw_fchw"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "f", "h", "w", "c", "kh", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", "c", ("h", "kh"), ("w", "kw")),
        ("f", "c", "kh", "kw"),
        ("n", "f", "h", "w"),
    )


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(WindowedOp):
    """`linalg.conv_3d_ndhwc_dhwcf`."""

    name = "linalg.conv_3d_ndhwc_dhwcf"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "d", "h", "w", "f", "kd", "kh", "kw", "c")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", ("d", "kd"), ("h", "kh"), ("w", "kw"), "c"),
        ("kd", "kh", "kw", "c", "f"),
        ("n", "d", "h", "w", "f"),
    )


@irdl_op_definition
class DepthwiseConv1DNwcWcOp(WindowedOp):
    """`linalg.depthwise_conv_1d_nwc_wc`: one filter per channel."""

    name = "linalg.depthwise_conv_1d_nwc_wc"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "w", "c", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", ("w", "kw"), "c"),
        ("kw", "c"),
        ("n", "w", "c"),
    )


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(WindowedOp):
    """`linalg.depthwise_conv_2d_nhwc_hwc`: one filter per channel."""

    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "h", "w", "c", "kh", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", ("h", "kh"), ("w", "kw"), "c"),
        ("kh", "kw", "c"),
        ("n", "h", "w", "c"),
    )


@irdl_op_definition
class PoolingNhwcSumOp(WindowedOp):
    """`linalg.pooling_nhwc_sum`: `out(n, h, w, c) += in(n, h * s + kh * d,
    w * s + kw * d, c)` over a window shaped like the second operand."""

    name = "linalg.pooling_nhwc_sum"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "h", "w", "c", "kh", "kw")
    LAYOUTS: ClassVar[tuple[Layout, Layout, Layout]] = (
        ("n", ("h", "kh"), ("w", "kw"), "c"),
        ("kh", "kw"),
        ("n", "h", "w", "c"),
    )
    SUMS: ClassVar[bool] = True


@irdl_op_definition
class QuantizedMatmulOp(NamedOperation):
    """`linalg.quantized_matmul`: `out(m, n) += (a(m, k) - a_zp) * (b(k, n) -
    b_zp)`, each operand and zero point cast (signed) to the output's element
    type; the zero points are scalars (MLIR 22's OpDSL)."""

    name = "linalg.quantized_matmul"
    PRINT_ATTRS_IN_FRONT: ClassVar[bool] = True

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        m, n, k = (AffineDimExpr(i) for i in range(3))
        scalar = AffineMap(3, 0, ())
        return (
            AffineMap(3, 0, (m, k)),
            AffineMap(3, 0, (k, n)),
            scalar,
            scalar,
            AffineMap(3, 0, (m, n)),
        )

    def get_iterator_types(self) -> ArrayAttr[IteratorTypeAttr]:
        parallel, reduction = IteratorTypeAttr.parallel(), IteratorTypeAttr.reduction()
        return ArrayAttr((parallel, parallel, reduction))

    @classmethod
    def get_hidden_region(
        cls, inputs: Sequence[SSAValue], outputs: Sequence[SSAValue]
    ) -> Region:
        types = [getattr(v.type, "element_type", v.type) for v in [*inputs, *outputs]]
        if len(types) != 5 or not all(
            isinstance(t, IntegerType | AnyFloat) for t in types
        ):
            raise ValueError(
                "expected four inputs (two operands, two zero points) and one "
                "output of int or float"
            )
        out_type = types[-1]
        sub: Callable[[SSAValue, SSAValue], Operation]
        mul: Callable[[SSAValue, SSAValue], Operation]
        add: Callable[[SSAValue, SSAValue], Operation]
        if isinstance(out_type, AnyFloat):
            sub, mul, add = arith.SubfOp, arith.MulfOp, arith.AddfOp
        else:
            sub, mul, add = arith.SubiOp, arith.MuliOp, arith.AddiOp

        @Builder.implicit_region(types)
        def body(args: tuple[BlockArgument, ...]) -> None:
            a = sub(_cast(args[0], out_type), _cast(args[2], out_type)).results[0]
            b = sub(_cast(args[1], out_type), _cast(args[3], out_type)).results[0]
            linalg_ops.YieldOp(add(args[4], mul(a, b)))

        return body

    def verify_(self) -> None:
        if len(self.inputs) != 4 or len(self.outputs) != 1:
            raise VerifyException(
                "expected 4 inputs (a, b and their zero points) and 1 output"
            )
        for zero_point in self.inputs[2:]:
            if not isinstance(zero_point.type, IntegerType | AnyFloat):
                raise VerifyException(
                    f"expected a scalar zero point, got {zero_point.type}"
                )
        super().verify_()


NAMED_OPS: tuple[type[LayoutNamedOp], ...] = (
    DotOp,
    Conv1DOp,
    Conv2DOp,
    Conv3DOp,
    Conv1DNwcWcfOp,
    Conv2DNhwcHwcfOp,
    Conv2DNchwFchwOp,
    Conv3DNdhwcDhwcfOp,
    DepthwiseConv1DNwcWcOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNhwcSumOp,
)
"""MLIR 22's named ops that its sparse integration tests use and xDSL lacks
(or, for the two NHWC/NCHW convolutions, reads with `strides` and
`dilations` required)."""

OPS: tuple[type[Operation], ...] = (
    GenericOp,
    IndexOp,
    FillOp,
    *NAMED_OPS,
    QuantizedMatmulOp,
)

Linalg: Dialect = dialect_with(linalg.Linalg, OPS)
"""xDSL's `linalg` with the ops above in place of its own."""
