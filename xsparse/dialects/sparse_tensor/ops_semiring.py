"""sparse_tensor ops with regions over stored values: the semiring ops used in
`linalg.generic` (binary, unary, reduce, select), `foreach`, and their
terminator `yield` (SparseTensorOps.td, "Sparse Tensor Syntax Operations")."""

from __future__ import annotations

from collections.abc import Sequence

from typing_extensions import Self
from xdsl.dialects.builtin import (
    AffineMapAttr,
    IndexType,
    IntegerType,
    TensorType,
    UnitAttr,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import Pure, SingleBlockImplicitTerminator
from xdsl.utils.exceptions import VerifyException

from xsparse.dialects.sparse_tensor.ops_common import (
    parse_attr_dict,
    print_attr_dict,
    sparse_type,
)
from xsparse.dialects.sparse_tensor.ops_yield import (
    YieldOp,
    YieldsToParent,
    ensure_yield,
)


def prints_terminator(region: Region) -> bool:
    """ODS elides an implicit terminator without operands or attributes."""
    last = region.block.last_op if region.blocks else None
    return isinstance(last, YieldOp) and bool(last.operands or last.attributes)


def verify_formula(
    op: Operation,
    region: Region,
    name: str,
    inputs: Sequence[Attribute],
    output: Attribute,
) -> None:
    """MLIR's `verifyNumBlockArgs`: arguments, terminator and yielded type of a
    region's first block (the regions are not restricted to one block)."""
    block = region.blocks[0]
    if len(block.args) != len(inputs):
        raise VerifyException(
            f"{name} region must have exactly {len(inputs)} arguments"
        )
    for i, (arg, type) in enumerate(zip(block.args, inputs, strict=True)):
        if arg.type != type:
            raise VerifyException(f"{name} region argument {i + 1} type mismatch")
    last = block.last_op
    if last is None:
        raise VerifyException(f"{name} region must end with a terminator")
    if not isinstance(last, YieldOp):
        raise VerifyException(f"{name} region must end with sparse_tensor.yield")
    if len(last.values) != 1 or last.values[0].type != output:
        raise VerifyException(f"{name} region yield type mismatch")


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """`sparse_tensor.binary` (SparseTensor_BinaryOp): overlap/left/right cases."""

    name = "sparse_tensor.binary"

    x = operand_def()
    y = operand_def()
    left_identity = opt_prop_def(UnitAttr)
    right_identity = opt_prop_def(UnitAttr)
    output = result_def()
    overlap_region = region_def()
    left_region = region_def()
    right_region = region_def()

    traits = traits_def(Pure(), YieldsToParent())

    def __init__(
        self,
        x: SSAValue | Operation,
        y: SSAValue | Operation,
        output: Attribute,
        overlap: Region,
        left: Region | None,
        right: Region | None,
    ):
        """`None` for `left`/`right` stands for `identity`."""
        props: dict[str, Attribute] = {}
        if left is None:
            props["left_identity"] = UnitAttr()
        if right is None:
            props["right_identity"] = UnitAttr()
        super().__init__(
            operands=[x, y],
            result_types=[output],
            properties=props,
            regions=[overlap, left or Region(), right or Region()],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        x = parser.parse_unresolved_operand()
        parser.parse_punctuation(",")
        y = parser.parse_unresolved_operand()
        parser.parse_punctuation(":")
        props, attrs = parse_attr_dict(parser, ("left_identity", "right_identity"))
        x_type = parser.parse_type()
        parser.parse_punctuation(",")
        y_type = parser.parse_type()
        parser.parse_keyword("to")
        output = parser.parse_type()
        regions: list[Region] = []
        for case in ("overlap", "left", "right"):
            parser.parse_keyword(case)
            parser.parse_punctuation("=")
            if case != "overlap" and parser.parse_optional_keyword("identity"):
                props[f"{case}_identity"] = UnitAttr()
                regions.append(Region())
            else:
                regions.append(parser.parse_region())
        return cls.create(
            operands=parser.resolve_operands([x, y], [x_type, y_type], parser.pos),
            result_types=[output],
            properties=props,
            attributes=attrs,
            regions=regions,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list((self.x, self.y), printer.print_operand)
        printer.print_string(" :")
        print_attr_dict(printer, self, ("left_identity", "right_identity"))
        printer.print_string(f" {self.x.type}, {self.y.type} to {self.output.type}")
        cases = (
            ("overlap", self.overlap_region, False),
            ("left", self.left_region, self.left_identity is not None),
            ("right", self.right_region, self.right_identity is not None),
        )
        for case, region, identity in cases:
            printer.print_string(f"\n {case} = ")
            if identity:
                printer.print_string("identity")
            else:
                printer.print_region(region)

    def verify_(self) -> None:
        left, right, out = self.x.type, self.y.type, self.output.type
        if self.overlap_region.blocks:
            verify_formula(self, self.overlap_region, "overlap", (left, right), out)
        if self.left_region.blocks:
            verify_formula(self, self.left_region, "left", (left,), out)
        elif self.left_identity is not None and left != out:
            raise VerifyException(
                "left=identity requires first argument to have the same type as the output"
            )
        if self.right_region.blocks:
            verify_formula(self, self.right_region, "right", (right,), out)
        elif self.right_identity is not None and right != out:
            raise VerifyException(
                "right=identity requires second argument to have the same type as the output"
            )


@irdl_op_definition
class UnaryOp(IRDLOperation):
    """`sparse_tensor.unary` (SparseTensor_UnaryOp): present/absent cases."""

    name = "sparse_tensor.unary"

    x = operand_def()
    output = result_def()
    present_region = region_def()
    absent_region = region_def()

    traits = traits_def(Pure(), YieldsToParent())

    def __init__(
        self,
        x: SSAValue | Operation,
        output: Attribute,
        present: Region,
        absent: Region,
    ):
        super().__init__(operands=[x], result_types=[output], regions=[present, absent])

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        x = parser.parse_unresolved_operand()
        props, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        x_type = parser.parse_type()
        parser.parse_keyword("to")
        output = parser.parse_type()
        regions: list[Region] = []
        for case in ("present", "absent"):
            parser.parse_keyword(case)
            parser.parse_punctuation("=")
            regions.append(parser.parse_region())
        return cls.create(
            operands=[parser.resolve_operand(x, x_type)],
            result_types=[output],
            properties=props,
            attributes=attrs,
            regions=regions,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.x)
        print_attr_dict(printer, self)
        printer.print_string(f" : {self.x.type} to {self.output.type}")
        printer.print_string("\n present = ")
        printer.print_region(self.present_region)
        printer.print_string("\n absent = ")
        printer.print_region(self.absent_region)

    def verify_(self) -> None:
        out = self.output.type
        if self.present_region.blocks:
            verify_formula(self, self.present_region, "present", (self.x.type,), out)
        if not self.absent_region.blocks:
            return
        absent = self.absent_region.blocks[0]
        verify_formula(self, self.absent_region, "absent", (), out)
        last = absent.last_op
        assert isinstance(last, YieldOp)
        value = last.values[0]
        parent = self.parent_block()
        if isinstance(value, BlockArgument):
            if value.block is parent:
                raise VerifyException("absent region cannot yield linalg argument")
        elif isinstance(value.owner, Operation):
            from xdsl.dialects.arith import ConstantOp

            block = value.owner.parent_block()
            if not isinstance(value.owner, ConstantOp) and block in (absent, parent):
                raise VerifyException(
                    "absent region cannot yield locally computed value"
                )


class _FormulaOp(IRDLOperation):
    """Shared by `reduce` and `select`: operands, result and one formula region
    of the same type, as `$operands attr-dict : type $region`."""

    output = result_def()
    region = region_def("single_block")

    traits = traits_def(Pure(), YieldsToParent())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        operands = [parser.parse_unresolved_operand()]
        while parser.parse_optional_punctuation(","):
            operands.append(parser.parse_unresolved_operand())
        props, attrs = parse_attr_dict(parser, ())
        parser.parse_punctuation(":")
        type = parser.parse_type()
        region = parser.parse_region()
        return cls.create(
            operands=parser.resolve_operands(
                operands, [type] * len(operands), parser.pos
            ),
            result_types=[type],
            properties=props,
            attributes=attrs,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        print_attr_dict(printer, self)
        printer.print_string(f" : {self.output.type} ")
        printer.print_region(self.region)

    def verify_(self) -> None:
        for operand in self.operands:
            if operand.type != self.output.type:
                raise VerifyException(
                    f"'{self.name}' op requires the same type for all operands and results"
                )


@irdl_op_definition
class ReduceOp(_FormulaOp):
    """`sparse_tensor.reduce` (SparseTensor_ReduceOp): a custom reduction."""

    name = "sparse_tensor.reduce"

    x = operand_def()
    y = operand_def()
    identity = operand_def()

    def __init__(
        self,
        x: SSAValue | Operation,
        y: SSAValue | Operation,
        identity: SSAValue | Operation,
        region: Region,
    ):
        super().__init__(
            operands=[x, y, identity],
            result_types=[SSAValue.get(x).type],
            regions=[region],
        )

    def verify_(self) -> None:
        super().verify_()
        type = self.x.type
        verify_formula(self, self.region, "reduce", (type, type), type)


@irdl_op_definition
class SelectOp(_FormulaOp):
    """`sparse_tensor.select` (SparseTensor_SelectOp): keeps values whose formula is true."""

    name = "sparse_tensor.select"

    x = operand_def()

    def __init__(self, x: SSAValue | Operation, region: Region):
        super().__init__(
            operands=[x], result_types=[SSAValue.get(x).type], regions=[region]
        )

    def verify_(self) -> None:
        super().verify_()
        verify_formula(self, self.region, "select", (self.x.type,), IntegerType(1))


@irdl_op_definition
class ForeachOp(IRDLOperation):
    """`sparse_tensor.foreach` (SparseTensor_ForeachOp): visits the stored elements."""

    name = "sparse_tensor.foreach"

    tensor = operand_def(TensorType)
    init_args = var_operand_def()
    order = opt_prop_def(AffineMapAttr)
    loop_results = var_result_def()
    region = region_def("single_block")

    traits = traits_def(SingleBlockImplicitTerminator(YieldOp), YieldsToParent())

    def __init__(
        self,
        tensor: SSAValue | Operation,
        init_args: Sequence[SSAValue | Operation] = (),
        order: AffineMapAttr | None = None,
        region: Region | None = None,
    ):
        """Without `region`, the body block gets the coordinates, the value and
        the loop-carried values as arguments, and an empty `yield`."""
        tensor = SSAValue.get(tensor)
        inits = [SSAValue.get(v) for v in init_args]
        if region is None:
            stt = sparse_type(tensor)
            types = (
                [IndexType()] * stt.dim_rank
                + [stt.element_type]
                + [v.type for v in inits]
            )
            region = Region(Block(arg_types=types))
            if not inits:
                region.block.add_op(YieldOp())
        super().__init__(
            operands=[tensor, inits],
            result_types=[[v.type for v in inits]],
            properties={"order": order} if order is not None else {},
            regions=[region],
        )

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        parser.parse_keyword("in")
        tensor = parser.parse_unresolved_operand()
        inits: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("init"):
            inits = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        props, attrs = parse_attr_dict(parser, ("order",))
        parser.parse_punctuation(":")
        tensor_type = parser.parse_type()
        init_types: list[Attribute] = []
        if inits:
            parser.parse_punctuation(",")
            init_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        result_types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            result_types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        parser.parse_keyword("do")
        region = parser.parse_region()
        ensure_yield(region)
        return cls.create(
            operands=[
                parser.resolve_operand(tensor, tensor_type),
                *parser.resolve_operands(inits, init_types, parser.pos),
            ],
            result_types=result_types,
            properties=props,
            attributes=attrs,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" in ")
        printer.print_operand(self.tensor)
        if self.init_args:
            printer.print_string(" init(")
            printer.print_list(self.init_args, printer.print_operand)
            printer.print_string(")")
        print_attr_dict(printer, self)
        printer.print_string(f" : {self.tensor.type}")
        if self.init_args:
            printer.print_string(", ")
            printer.print_list(self.init_args.types, printer.print_attribute)
        if self.results:
            printer.print_string(" -> ")
            printer.print_list(self.result_types, printer.print_attribute)
        printer.print_string(" do ")
        printer.print_region(
            self.region, print_block_terminators=prints_terminator(self.region)
        )

    def verify_(self) -> None:
        stt = sparse_type(self.tensor)
        args = self.region.block.args
        if self.order is not None and self.order.data.num_dims != stt.lvl_rank:
            raise VerifyException(
                "Level traverse order does not match tensor's level rank"
            )
        if stt.dim_rank + 1 + len(self.init_args) != len(args):
            raise VerifyException("Unmatched number of arguments in the block")
        if len(self.results) != len(self.init_args):
            raise VerifyException("Mismatch in number of init arguments and results")
        if self.result_types != self.init_args.types:
            raise VerifyException("Mismatch in types of init arguments and results")
        last = self.region.block.last_op
        if not isinstance(last, YieldOp) or last.values.types != self.result_types:
            raise VerifyException("Mismatch in types of yield values and results")
        for d in range(stt.dim_rank):
            if not isinstance(args[d].type, IndexType):
                raise VerifyException(f"Expecting Index type for argument at index {d}")
        value = args[stt.dim_rank].type
        if value != stt.element_type:
            raise VerifyException(
                "Unmatched element type between input tensor and block argument, "
                f"expected:{stt.element_type}, got: {value}"
            )


SEMIRING_OPS: tuple[type[IRDLOperation], ...] = (
    BinaryOp,
    UnaryOp,
    ReduceOp,
    SelectOp,
    YieldOp,
    ForeachOp,
)
