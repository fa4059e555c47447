"""sparse_tensor ops over iteration spaces: extracting spaces and values, and
the `iterate` / `coiterate` loops (SparseTensorOps.td, "Sparse Tensor
Iteration Operations"; the RFC's set loops in MLIR's own syntax)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from typing_extensions import Self
from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
    i32,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    AnyAttr,
    AttrSizedOperandSegments,
    IRDLOperation,
    VarConstraint,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    Pure,
    RecursivelySpeculatable,
    RecursiveMemoryEffect,
    SingleBlockImplicitTerminator,
)
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.hints import isa

from xsparse.dialects.sparse_tensor.ops_common import (
    sparse_operand,
    sparse_type,
)
from xsparse.dialects.sparse_tensor.ops_storage import LevelAttr, level_attr
from xsparse.dialects.sparse_tensor.ops_yield import (
    YieldOp,
    YieldsToParent,
    ensure_yield,
)
from xsparse.dialects.sparse_tensor.types import (
    IteratorType,
    IterSpaceType,
    parse_level_range,
    print_level_range,
)
from xsparse.xdsl_adapter import share_ssa_name


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _mask(bits: Sequence[int]) -> int:
    return sum(1 << b for b in set(bits))


def _i64(value: int) -> IntegerAttr[IntegerType]:
    return IntegerAttr(value, IntegerType(64))


@irdl_custom_directive
class LevelRange(CustomDirective):
    """`lo` or `lo to hi` over two level properties: MLIR's `custom<LevelRange>`."""

    lo: AttributeVariable
    hi: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        lo, hi = parse_level_range(parser)
        self.lo.set(state, level_attr(lo))
        self.hi.set(state, level_attr(hi))

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        lo, hi = self.lo.get(op), self.hi.get(op)
        assert isa(lo, LevelAttr) and isa(hi, LevelAttr)
        state.print_whitespace(printer)
        print_level_range(printer, lo.value.data, hi.value.data)


@irdl_op_definition
class ExtractIterSpaceOp(IRDLOperation):
    """`sparse_tensor.extract_iteration_space` (ExtractIterSpaceOp)."""

    name = "sparse_tensor.extract_iteration_space"

    tensor = operand_def(TensorType)
    parent_iter = opt_operand_def(IteratorType)
    lo_lvl = prop_def(LevelAttr, prop_name="loLvl")
    hi_lvl = prop_def(LevelAttr, prop_name="hiLvl")
    extracted_space = result_def(IterSpaceType)

    traits = traits_def(Pure())

    custom_directives = (LevelRange,)
    assembly_format = (
        "$tensor (`at` $parent_iter^)? `lvls` `=` custom<LevelRange>($loLvl, $hiLvl)"
        " attr-dict `:` type($tensor) (`,` type($parent_iter)^)? `->`"
        " type($extracted_space)"
    )

    def __init__(
        self,
        tensor: SSAValue | Operation,
        parent_iter: SSAValue | Operation | None = None,
        lo_lvl: int = 0,
        hi_lvl: int | None = None,
    ):
        hi = lo_lvl + 1 if hi_lvl is None else hi_lvl
        enc = sparse_type(SSAValue.get(tensor)).encoding
        assert enc is not None
        super().__init__(
            operands=[tensor, parent_iter],
            properties={"loLvl": level_attr(lo_lvl), "hiLvl": level_attr(hi)},
            result_types=[IterSpaceType.get(enc, lo_lvl, hi)],
        )

    def verify_(self) -> None:
        stt = sparse_operand(self, 0)
        lo, hi = self.lo_lvl.value.data, self.hi_lvl.value.data
        assert stt.encoding is not None
        inferred = IterSpaceType.get(stt.encoding, lo, hi) if lo < hi else None
        if inferred is not None and inferred != self.extracted_space.type:
            raise VerifyException(
                f"inferred type(s) '{inferred}' are incompatible with return type(s) "
                f"of operation '{self.extracted_space.type}'",
            )
        if lo >= hi:
            raise VerifyException("expected smaller level low than level high")
        parent = self.parent_iter
        if (parent is not None) == (lo == 0):
            raise VerifyException(
                "parent iterator should be specified iff level lower bound equals 0",
            )
        if parent is not None:
            assert isinstance(parent.type, IteratorType)
            if parent.type.encoding != stt.encoding:
                raise VerifyException(
                    "mismatch in parent iterator encoding and iteration space encoding.",
                )
            if lo != parent.type.hi_lvl.data:
                raise VerifyException(
                    "parent iterator should be used to extract an iteration space from "
                    "a consecutive level.",
                )


@irdl_op_definition
class ExtractValOp(IRDLOperation):
    """`sparse_tensor.extract_value` (ExtractValOp): the value under an iterator."""

    name = "sparse_tensor.extract_value"

    T: ClassVar = VarConstraint("T", AnyAttr())

    tensor = operand_def(TensorType.constr(T))
    iterator = operand_def(IteratorType)
    result = result_def(T)

    traits = traits_def(Pure())

    assembly_format = (
        "$tensor `at` $iterator attr-dict `:` type($tensor) `,` type($iterator)"
    )

    def __init__(self, tensor: SSAValue | Operation, iterator: SSAValue | Operation):
        stt = sparse_type(SSAValue.get(tensor))
        super().__init__(operands=[tensor, iterator], result_types=[stt.element_type])

    def verify_(self) -> None:
        stt = sparse_operand(self, 0)
        it = self.iterator.type
        assert isinstance(it, IteratorType)
        if stt.encoding != it.encoding:
            raise VerifyException("mismatch in tensor encoding and iterator encoding.")
        if stt.lvl_rank != it.hi_lvl.data:
            raise VerifyException("must use last-level iterator to extract values. ")


# ----------------------------------------------------------------------------
# Loops
# ----------------------------------------------------------------------------


def _parse_defined_list(
    parser: Parser, delimiter: Parser.Delimiter
) -> tuple[int, list[Parser.UnresolvedArgument], int]:
    """`%a, _, %b`: MLIR's `parseOptionalDefinedList`; returns (bit set of the
    defined positions, their arguments, the list length)."""
    args: list[Parser.UnresolvedArgument] = []
    mask = 0
    count = 0

    def parse_one() -> None:
        nonlocal mask, count
        if parser.parse_optional_keyword("_") is None:
            args.append(parser.parse_argument(expect_type=False))
            mask |= 1 << count
        count += 1

    parser.parse_comma_separated_list(delimiter, parse_one)
    return mask, args, count


def _print_defined_list(
    printer: Printer, size: int, mask: int, args: Sequence[SSAValue]
) -> None:
    it = iter(args)
    printer.print_list(
        range(size),
        lambda i: (
            printer.print_ssa_value(next(it))
            if mask >> i & 1
            else printer.print_string("_")
        ),
    )


def _parse_loop_header(
    parser: Parser,
) -> tuple[
    int,
    list[Parser.UnresolvedArgument],
    list[Parser.UnresolvedArgument],
    list[UnresolvedOperand],
]:
    """`at(...)` and `iter_args(%a = %init, ...)`: (crd mask, crds, iter args, inits)."""
    crd_mask, crds = 0, []
    if parser.parse_optional_keyword("at"):
        crd_mask, crds, _ = _parse_defined_list(parser, parser.Delimiter.PAREN)
    iter_args: list[Parser.UnresolvedArgument] = []
    inits: list[UnresolvedOperand] = []
    if parser.parse_optional_keyword("iter_args"):

        def parse_one() -> None:
            iter_args.append(parser.parse_argument(expect_type=False))
            parser.parse_punctuation("=")
            inits.append(parser.parse_unresolved_operand())

        parser.parse_comma_separated_list(parser.Delimiter.PAREN, parse_one)
    return crd_mask, crds, iter_args, inits


def _print_loop_header(
    printer: Printer,
    space_dim: int,
    crd_mask: int,
    crds: Sequence[SSAValue],
    iter_args: Sequence[SSAValue],
    inits: Sequence[SSAValue],
) -> None:
    if crd_mask:
        printer.print_string(" at(")
        _print_defined_list(printer, space_dim, crd_mask, crds)
        printer.print_string(")")
    if inits:
        printer.print_string(" iter_args(")
        pairs = list(zip(iter_args, inits, strict=True))
        printer.print_list(
            pairs,
            lambda p: (
                printer.print_ssa_value(p[0]),
                printer.print_string(" = "),
                printer.print_ssa_value(p[1]),
            ),
        )
        printer.print_string(")")


def _print_arrow_types(printer: Printer, types: Sequence[Attribute]) -> None:
    """MLIR's `printArrowTypeList`."""
    printer.print_string(" -> ")
    if len(types) == 1:
        printer.print_attribute(types[0])
    else:
        printer.print_string("(")
        printer.print_list(types, printer.print_attribute)
        printer.print_string(")")


def _verify_loop_values(
    op: Operation,
    inits: Sequence[SSAValue],
    iter_args: Sequence[SSAValue],
    yielded: Sequence[SSAValue],
    suffix: str,
    number_suffix: str,
) -> None:
    results = op.results
    if not len({len(inits), len(iter_args), len(yielded), len(results)}) == 1:
        raise VerifyException(
            f"number mismatch between iter args and results{number_suffix}"
        )
    for i, (init, it, y, r) in enumerate(
        zip(inits, iter_args, yielded, results, strict=True)
    ):
        if init.type != r.type:
            raise VerifyException(
                f"types mismatch between {i}th iter operand and defined value{suffix}",
            )
        if it.type != r.type:
            raise VerifyException(
                f"types mismatch between {i}th iter region arg and defined value{suffix}",
            )
        if y.type != r.type:
            raise VerifyException(
                f"types mismatch between {i}th yield value and defined value{suffix}",
            )


def _verify_loop_like(
    inits: Sequence[SSAValue],
    iter_args: Sequence[SSAValue],
    yielded: Sequence[SSAValue],
) -> None:
    """MLIR's `LoopLikeOpInterface` verifier, which runs before `IterateOp`'s own."""
    if len(inits) != len(iter_args):
        raise VerifyException(
            f"different number of inits and region iter_args: {len(inits)} != {len(iter_args)}"
        )
    if len(yielded) != len(iter_args):
        raise VerifyException(
            "different number of region iter_args and yielded values: "
            f"{len(iter_args)} != {len(yielded)}"
        )
    for i, (init, arg, y) in enumerate(zip(inits, iter_args, yielded, strict=True)):
        if init.type != arg.type:
            raise VerifyException(
                f"{i}-th init and {i}-th region iter_arg have different type: "
                f"'{init.type}' != '{arg.type}'"
            )
        if arg.type != y.type:
            raise VerifyException(
                f"{i}-th region iter_arg and {i}-th yielded value have different type: "
                f"'{arg.type}' != '{y.type}'"
            )


def _yielded(region: Region) -> Sequence[SSAValue]:
    last = region.block.last_op if region.blocks else None
    return last.values if isinstance(last, YieldOp) else ()


@irdl_op_definition
class IterateOp(IRDLOperation):
    """`sparse_tensor.iterate` (IterateOp): a loop over one iteration space.

    The body's arguments are the loop-carried values, the used coordinates
    (`crdUsedLvls`), then the iterator."""

    name = "sparse_tensor.iterate"

    iter_space = operand_def(IterSpaceType)
    init_args = var_operand_def()
    crd_used_lvls = prop_def(IntegerAttr[I64], prop_name="crdUsedLvls")
    loop_results = var_result_def()
    region = region_def("single_block")

    traits = lazy_traits_def(
        lambda: (
            RecursiveMemoryEffect(),
            RecursivelySpeculatable(),
            SingleBlockImplicitTerminator(YieldOp),
            YieldsToParent(),
        )
    )

    def __init__(
        self,
        iter_space: SSAValue | Operation,
        init_args: Sequence[SSAValue | Operation] = (),
        crd_used_lvls: Sequence[int] | None = None,
    ):
        """A loop with an empty body block; all coordinates are defined unless
        `crd_used_lvls` lists the levels (relative to the space) whose are."""
        space = SSAValue.get(iter_space)
        assert isinstance(space.type, IterSpaceType)
        inits = [SSAValue.get(v) for v in init_args]
        used = range(space.type.space_dim) if crd_used_lvls is None else crd_used_lvls
        mask = _mask(used)
        types = [v.type for v in inits] + [IndexType()] * len(_bits(mask))
        block = Block(arg_types=[*types, space.type.iterator_type()])
        if not inits:
            block.add_op(YieldOp())
        super().__init__(
            operands=[space, inits],
            properties={"crdUsedLvls": _i64(mask)},
            result_types=[[v.type for v in inits]],
            regions=[Region(block)],
        )

    @property
    def space_dim(self) -> int:
        type = self.iter_space.type
        assert isinstance(type, IterSpaceType)
        return type.space_dim

    @property
    def crd_mask(self) -> int:
        return self.crd_used_lvls.value.data

    @property
    def num_crds(self) -> int:
        return len(_bits(self.crd_mask))

    @property
    def iterator(self) -> SSAValue:
        return self.region.block.args[-1]

    @property
    def crds(self) -> Sequence[SSAValue]:
        args = self.region.block.args
        return args[len(args) - 1 - self.num_crds : -1]

    @property
    def region_iter_args(self) -> Sequence[SSAValue]:
        args = self.region.block.args
        return args[: max(len(args) - 1 - self.num_crds, 0)]

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        iterators = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_keyword("in")
        spaces = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        if len(iterators) != len(spaces):
            parser.raise_error(
                "mismatch in number of sparse iterators and sparse spaces"
            )
        crd_mask, crds, iter_args, inits = _parse_loop_header(parser)
        parser.parse_punctuation(":")
        space_types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        if len(space_types) != len(spaces):
            parser.raise_error(
                "mismatch in number of iteration space operands and iteration space types"
            )
        result_types: Sequence[Attribute] = ()
        if iter_args:
            parser.parse_punctuation("->")
            result_types = _parse_type_list(parser)
        if len(iterators) != 1:
            parser.raise_error("expected only one iterator/iteration space")
        space_type = space_types[0]
        if not isinstance(space_type, IterSpaceType):
            parser.raise_error(
                "expected sparse_tensor.iter_space type for iteration space operands"
            )
        if len(iter_args) != len(result_types):
            parser.raise_error(
                "mismatch in number of iteration arguments and return values"
            )
        args = [
            *(a.resolve(t) for a, t in zip(iter_args, result_types, strict=True)),
            *(c.resolve(IndexType()) for c in crds),
            iterators[0].resolve(space_type.iterator_type()),
        ]
        operands = [
            parser.resolve_operand(spaces[0], space_type),
            *parser.resolve_operands(inits, result_types, parser.pos),
        ]
        region = parser.parse_region(args)
        ensure_yield(region)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=operands,
            result_types=result_types,
            properties={"crdUsedLvls": _i64(crd_mask)},
            attributes=attrs,
            regions=[region],
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.iterator)
        printer.print_string(" in ")
        printer.print_operand(self.iter_space)
        _print_loop_header(
            printer,
            self.space_dim,
            self.crd_mask,
            self.crds,
            self.region_iter_args,
            self.init_args,
        )
        printer.print_string(f" : {self.iter_space.type} ")
        if self.init_args:
            _print_arrow_types(printer, self.init_args.types)
        printer.print_string(" ")
        printer.print_region(
            self.region,
            print_entry_block_args=False,
            print_block_terminators=bool(self.init_args),
        )
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        _verify_loop_like(self.init_args, self.region_iter_args, _yielded(self.region))
        if len(self.init_args) != len(self.results):
            raise VerifyException(
                "mismatch in number of loop-carried values and defined values"
            )
        if self.crd_mask.bit_length() > self.space_dim:
            raise VerifyException("required out-of-bound coordinates")
        space = self.iter_space.type
        assert isinstance(space, IterSpaceType)
        args = self.region.block.args
        if not args or args[-1].type != space.iterator_type():
            raise VerifyException("mismatch in iterator and iteration space type")
        if len(self.region_iter_args) != len(self.results):
            raise VerifyException(
                "mismatch in number of basic block args and defined values"
            )
        _verify_loop_values(
            self, self.init_args, self.region_iter_args, _yielded(self.region), "", "."
        )


def _parse_type_list(parser: Parser) -> Sequence[Attribute]:
    """A type, or a parenthesized list of types (MLIR's `parseArrowTypeList` tail)."""
    if parser.parse_optional_punctuation("("):
        types = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_type
        )
        parser.parse_punctuation(")")
        return types
    return [parser.parse_type()]


@irdl_op_definition
class CoIterateOp(IRDLOperation):
    """`sparse_tensor.coiterate` (SparseTensor_CoIterateOp): a loop over the union
    of several iteration spaces, one region per case of defined iterators.

    Each case's arguments are the loop-carried values, the used coordinates,
    then the iterators of the spaces the case defines. Unlike MLIR 22, whose
    lowering of `iter_args` through `coiterate` is incomplete, every
    well-formed loop with loop-carried values verifies here."""

    name = "sparse_tensor.coiterate"

    iter_spaces = var_operand_def(IterSpaceType)
    init_args = var_operand_def()
    crd_used_lvls = prop_def(IntegerAttr[I64], prop_name="crdUsedLvls")
    cases = prop_def(ArrayAttr[IntegerAttr[I64]])
    loop_results = var_result_def()
    case_regions = var_region_def("single_block")

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(
        lambda: (
            RecursiveMemoryEffect(),
            SingleBlockImplicitTerminator(YieldOp),
            YieldsToParent(),
        )
    )

    def __init__(
        self,
        iter_spaces: Sequence[SSAValue | Operation],
        init_args: Sequence[SSAValue | Operation],
        cases: Sequence[Sequence[int]],
        crd_used_lvls: Sequence[int] | None = None,
    ):
        """One empty case region per entry of `cases` (the indices of the spaces
        whose iterators it defines); coordinates as in `IterateOp`."""
        spaces = [SSAValue.get(s) for s in iter_spaces]
        space_types = [t for s in spaces if isinstance(t := s.type, IterSpaceType)]
        assert len(space_types) == len(spaces)
        inits = [SSAValue.get(v) for v in init_args]
        used = (
            range(space_types[0].space_dim) if crd_used_lvls is None else crd_used_lvls
        )
        mask = _mask(used)
        head = [v.type for v in inits] + [IndexType()] * len(_bits(mask))
        regions: list[Region] = []
        for case in cases:
            its = [t.iterator_type() for i, t in enumerate(space_types) if i in case]
            block = Block(arg_types=[*head, *its])
            if not inits:
                block.add_op(YieldOp())
            regions.append(Region(block))
        super().__init__(
            operands=[spaces, inits],
            properties={
                "crdUsedLvls": _i64(mask),
                "cases": ArrayAttr([_i64(_mask(c)) for c in cases]),
            },
            result_types=[[v.type for v in inits]],
            regions=[regions],
        )

    @property
    def space_dim(self) -> int:
        type = self.iter_spaces[0].type
        assert isinstance(type, IterSpaceType)
        return type.space_dim

    @property
    def crd_mask(self) -> int:
        return self.crd_used_lvls.value.data

    def region_iter_args(self, r: int) -> Sequence[SSAValue]:
        return self.case_regions[r].block.args[: len(self.init_args)]

    def region_crds(self, r: int) -> Sequence[SSAValue]:
        n = len(self.init_args)
        return self.case_regions[r].block.args[n : n + len(_bits(self.crd_mask))]

    def region_iterators(self, r: int) -> Sequence[SSAValue]:
        n = len(_bits(self.cases.data[r].value.data))
        args = self.case_regions[r].block.args
        return args[len(args) - n :] if n else ()

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        spaces = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_unresolved_operand
        )
        crd_mask, crds, iter_args, inits = _parse_loop_header(parser)
        parser.parse_punctuation(":")
        space_types = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, parser.parse_type
        )
        if len(space_types) != len(spaces):
            parser.raise_error(
                "mismatch in number of iteration space operands and iteration space types"
            )
        result_types: Sequence[Attribute] = ()
        if iter_args:
            parser.parse_punctuation("->")
            result_types = _parse_type_list(parser)
        space_values = parser.resolve_operands(spaces, space_types, parser.pos)
        if len(iter_args) != len(result_types):
            parser.raise_error(
                "mismatch in number of iteration arguments and return values"
            )
        init_values = parser.resolve_operands(inits, result_types, parser.pos)
        cases: list[IntegerAttr[IntegerType]] = []
        regions: list[Region] = []
        while parser.parse_optional_keyword("case"):
            pos = parser.pos
            mask, its, count = _parse_defined_list(parser, parser.Delimiter.NONE)
            if count > len(spaces):
                parser.raise_error("parsed more value than expected.", pos)
            cases.append(_i64(mask))
            its_types = [space_types[i] for i in _bits(mask)]
            if not all(isinstance(t, IterSpaceType) for t in its_types):
                parser.raise_error(
                    "expected sparse_tensor.iter_space type for iteration space operands"
                )
            args = [
                *(a.resolve(t) for a, t in zip(iter_args, result_types, strict=True)),
                *(c.resolve(IndexType()) for c in crds),
                *(
                    a.resolve(t.iterator_type())  # pyright: ignore[reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownArgumentType]
                    for a, t in zip(its, its_types, strict=True)
                ),
            ]
            region = parser.parse_region(args)
            ensure_yield(region)
            regions.append(region)
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=[*space_values, *init_values],
            result_types=result_types,
            properties={
                "crdUsedLvls": _i64(crd_mask),
                "cases": ArrayAttr(cases),
                "operandSegmentSizes": _segments(len(space_values), len(init_values)),
            },
            attributes=attrs,
            regions=regions,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" (")
        printer.print_list(self.iter_spaces, printer.print_operand)
        printer.print_string(")")
        crds = self.region_crds(0) if self.case_regions else ()
        iter_args = self.region_iter_args(0) if self.case_regions else ()
        if self.case_regions:
            _print_loop_header(
                printer, self.space_dim, self.crd_mask, crds, iter_args, self.init_args
            )
        printer.print_string(" : (")
        printer.print_list(self.iter_spaces.types, printer.print_attribute)
        printer.print_string(")")
        if self.init_args:
            _print_arrow_types(printer, self.init_args.types)
        # Sibling regions share the header's names, as MLIR prints them.
        for r in range(1, len(self.case_regions)):
            shared = [*self.region_iter_args(r), *self.region_crds(r)]
            for arg, first in zip(shared, [*iter_args, *crds], strict=True):
                share_ssa_name(printer, arg, first)
        for r, region in enumerate(self.case_regions):
            printer.print_string("\ncase ")
            _print_defined_list(
                printer,
                len(self.iter_spaces),
                self.cases.data[r].value.data,
                self.region_iterators(r),
            )
            printer.print_string(" ")
            printer.print_region(
                region,
                print_entry_block_args=False,
                print_block_terminators=bool(self.init_args),
            )
        if self.attributes:
            printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        if len(self.init_args) != len(self.results):
            raise VerifyException(
                "mismatch in number of loop-carried values and defined values"
            )
        if self.crd_mask.bit_length() > self.space_dim:
            raise VerifyException("required out-of-bound coordinates")
        for r, region in enumerate(self.case_regions):
            iter_args = self.region_iter_args(r)
            if len(iter_args) != len(self.results):
                raise VerifyException(
                    "mismatch in number of basic block args and defined values"
                )
            _verify_loop_values(
                self,
                self.init_args,
                iter_args,
                _yielded(region),
                f" on {r}th region",
                f" on {r}th region",
            )
        masks = [c.value.data for c in self.cases.data]
        if len(set(masks)) != len(self.case_regions):
            raise VerifyException("contains duplicated cases.")


def _segments(*sizes: int) -> Attribute:
    return DenseArrayBase.from_list(i32, sizes)


ITERATION_OPS: tuple[type[IRDLOperation], ...] = (
    ExtractIterSpaceOp,
    ExtractValOp,
    IterateOp,
    CoIterateOp,
)
