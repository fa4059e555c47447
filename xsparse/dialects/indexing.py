"""The `indexing` dialect: index sets as values and loops over them.

Mirrors the RFC "Structured Codegen Beyond Rectangular Arrays" (seed 003),
sections "Control-Flow To Iterate Over More Powerful Tensor and Buffer Types"
(set loops over unions, intersections and differences of index sets) and
"Index Semantics Capturing Ops" (linearize / delinearize), with the loop shaped
like MLIR 22's `sparse_tensor.coiterate` (one region per presence case).

A value of type `!indexing.set` is a finite set of (coordinate, position) pairs
of `index` values. Sets are built from two kinds of *leaves*:

- `indexing.range %lo to %hi`: the coordinates lo..hi-1, each with position
  equal to its coordinate (a dense level);
- `indexing.stored %crd[%lo to %hi]`: the coordinates crd[p] for p in [lo, hi),
  each with position p (a compressed, singleton or n:m level under one parent);

combined by `indexing.union`, `indexing.intersect` and `indexing.difference`.
`indexing.foreach` iterates such a set expression and gives its body, at every
coordinate, the position of each leaf that holds the coordinate.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    IndexType,
    IntegerType,
    MemRefType,
    UnitAttr,
    i64,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Dialect,
    Operation,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException


@irdl_attr_definition
class SetType(ParametrizedAttribute, TypeAttribute):
    """`!indexing.set`: a set of (coordinate, position) index pairs (RFC: index sets)."""

    name = "indexing.set"


# ---------------------------------------------------------------------------
# Leaves
# ---------------------------------------------------------------------------


@irdl_op_definition
class RangeOp(IRDLOperation):
    """`indexing.range` (RFC: linspace over a half-open interval): a dense level.

    `%s = indexing.range %lo to %hi : !indexing.set` is the set of coordinates
    lo, lo+1, ..., hi-1 in increasing order, each with position equal to the
    coordinate. Empty when hi <= lo.
    """

    name = "indexing.range"

    lo = operand_def(IndexType)
    hi = operand_def(IndexType)
    result = result_def(SetType)

    assembly_format = "$lo `to` $hi attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, lo: SSAValue | Operation, hi: SSAValue | Operation):
        super().__init__(operands=[lo, hi], result_types=[SetType()])


@irdl_op_definition
class StoredOp(IRDLOperation):
    """`indexing.stored` (RFC: index sets of sparse storage): one parent's segment of a level.

    `%s = indexing.stored %crd[%lo to %hi] : memref<?xT> -> !indexing.set` is
    the set of pairs (crd[p], p) for p in [lo, hi), where T is `index` or an
    integer type read as unsigned. Without attributes the segment is ordered
    (crd strictly increasing over [lo, hi)); `nonordered` drops the order and
    `nonunique` allows a coordinate to repeat (then each repetition is its own
    element, with its own position). `segmented` (with `nonunique`, ordered) is
    MLIR's iteration of a nonunique level (COO): one element per run of equal
    coordinates, whose position is the run's first position; the run ends at
    `indexing.segment_end`.
    """

    name = "indexing.stored"

    coordinates = operand_def(MemRefType)
    lo = operand_def(IndexType)
    hi = operand_def(IndexType)
    nonordered = opt_prop_def(UnitAttr)
    nonunique = opt_prop_def(UnitAttr)
    segmented = opt_prop_def(UnitAttr)
    result = result_def(SetType)

    assembly_format = (
        "$coordinates `[` $lo `to` $hi `]` (`nonordered` $nonordered^)?"
        " (`nonunique` $nonunique^)? (`segmented` $segmented^)? attr-dict"
        " `:` type($coordinates) `->` type($result)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        coordinates: SSAValue | Operation,
        lo: SSAValue | Operation,
        hi: SSAValue | Operation,
        ordered: bool = True,
        unique: bool = True,
        segmented: bool = False,
    ):
        props: dict[str, Attribute] = {}
        if not ordered:
            props["nonordered"] = UnitAttr()
        if not unique:
            props["nonunique"] = UnitAttr()
        if segmented:
            props["segmented"] = UnitAttr()
        super().__init__(
            operands=[coordinates, lo, hi], result_types=[SetType()], properties=props
        )

    @property
    def is_ordered(self) -> bool:
        return self.nonordered is None

    @property
    def is_unique(self) -> bool:
        return self.nonunique is None

    @property
    def is_segmented(self) -> bool:
        return self.segmented is not None

    def verify_(self) -> None:
        if self.is_segmented and (self.is_unique or not self.is_ordered):
            raise VerifyException("'segmented' needs an ordered 'nonunique' set")
        crd_type = cast(MemRefType, self.coordinates.type)
        if crd_type.get_num_dims() != 1:
            raise VerifyException(f"expects a 1-D coordinates memref, got {crd_type}")
        if not isinstance(crd_type.element_type, IndexType | IntegerType):
            raise VerifyException(
                f"expects index or integer coordinates, got {crd_type.element_type}"
            )


@irdl_op_definition
class SegmentEndOp(IRDLOperation):
    """`indexing.segment_end`: the end of a run of equal coordinates (MLIR's COO segments).

    `%q = indexing.segment_end %crd[%p to %hi] : memref<?xT>` is the first
    position q in (p, hi] with q == hi or crd[q] != crd[p]: positions [p, q)
    hold the same coordinate. p must be below hi.
    """

    name = "indexing.segment_end"

    coordinates = operand_def(MemRefType)
    pos = operand_def(IndexType)
    hi = operand_def(IndexType)
    result = result_def(IndexType)

    assembly_format = (
        "$coordinates `[` $pos `to` $hi `]` attr-dict `:` type($coordinates)"
    )
    traits = traits_def(Pure())

    def __init__(
        self,
        coordinates: SSAValue | Operation,
        pos: SSAValue | Operation,
        hi: SSAValue | Operation,
    ):
        super().__init__(operands=[coordinates, pos, hi], result_types=[IndexType()])


# ---------------------------------------------------------------------------
# Set algebra
# ---------------------------------------------------------------------------


class SetAlgebraOp(IRDLOperation):
    """Shared definition of the binary set operations."""

    lhs = operand_def(SetType)
    rhs = operand_def(SetType)
    result = result_def(SetType)

    assembly_format = "$lhs `,` $rhs attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(self, lhs: SSAValue | Operation, rhs: SSAValue | Operation):
        super().__init__(operands=[lhs, rhs], result_types=[SetType()])

    def holds(self, lhs: bool, rhs: bool) -> bool:
        """Whether a coordinate is in the result, given whether it is in each operand."""
        raise NotImplementedError


@irdl_op_definition
class UnionOp(SetAlgebraOp):
    """`indexing.union` (RFC: union of index sets): coordinates in lhs or in rhs.

    A coordinate in both operands is one element of the union, carrying the
    positions of both; the union of ordered sets is ordered.
    """

    name = "indexing.union"

    def holds(self, lhs: bool, rhs: bool) -> bool:
        return lhs or rhs


@irdl_op_definition
class IntersectOp(SetAlgebraOp):
    """`indexing.intersect` (RFC: intersection of index sets): coordinates in lhs and in rhs."""

    name = "indexing.intersect"

    def holds(self, lhs: bool, rhs: bool) -> bool:
        return lhs and rhs


@irdl_op_definition
class DifferenceOp(SetAlgebraOp):
    """`indexing.difference` (RFC: difference of index sets): coordinates in lhs, not in rhs."""

    name = "indexing.difference"

    def holds(self, lhs: bool, rhs: bool) -> bool:
        return lhs and not rhs


LeafOp = RangeOp | StoredOp
"""The ops a set expression bottoms out in."""


def set_leaves(value: SSAValue) -> list[LeafOp]:
    """The leaves of the set expression rooted at `value`, left to right (depth first).

    Raises VerifyException when the expression is not made of
    range/stored/union/intersect/difference ops.
    """
    op = value.owner
    if isinstance(op, RangeOp | StoredOp):
        return [op]
    if isinstance(op, SetAlgebraOp):
        return set_leaves(op.lhs) + set_leaves(op.rhs)
    raise VerifyException(
        "expects a set built from indexing.range, indexing.stored, "
        "indexing.union, indexing.intersect and indexing.difference"
    )


def set_holds(value: SSAValue, present: Sequence[bool]) -> bool:
    """Whether the set expression at `value` holds a coordinate at which the leaves
    marked in `present` (leaf order) hold it and the others do not."""

    def walk(v: SSAValue, first: int) -> tuple[bool, int]:
        op = v.owner
        if isinstance(op, SetAlgebraOp):
            lhs, first = walk(op.lhs, first)
            rhs, first = walk(op.rhs, first)
            return op.holds(lhs, rhs), first
        return present[first], first + 1

    return walk(value, 0)[0]


# ---------------------------------------------------------------------------
# The loop
# ---------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """`indexing.yield` (MLIR: sparse_tensor.yield): the iter_args of the next iteration."""

    name = "indexing.yield"

    values = var_operand_def()

    assembly_format = "attr-dict ($values^ `:` type($values))?"
    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(IterateOp), Pure()))

    def __init__(self, *values: SSAValue | Operation):
        super().__init__(operands=[values])


@irdl_op_definition
class IterateOp(IRDLOperation):
    """`indexing.foreach` (RFC: set-based loop; MLIR: sparse_tensor.coiterate).

    ```
    %r = indexing.foreach %set iter_args(%init) : !indexing.set -> (f64)
    case %pa, _ at(%c) (%acc: f64) { ... indexing.yield %x : f64 }
    case _, %pb at(%c) (%acc: f64) { ... indexing.yield %y : f64 }
    ```

    Visits the coordinates of `%set` (the root of a tree of union / intersect /
    difference over range / stored leaves, numbered left to right) in
    increasing order when all leaves are ordered, once per element. At each
    coordinate, the leaves that hold it form its *presence pattern*; the case
    whose pattern is exactly that one runs, with block arguments (coordinate,
    the position in each present leaf in leaf order, iter_args), and yields the
    iter_args of the next coordinate. Coordinates whose pattern no case lists
    leave the iter_args unchanged. The results are the final iter_args.
    A case lists present leaves as their position names and absent ones as `_`;
    every case must be a pattern the set expression can hold (intersect needs
    both sides, difference a - b needs a and not b, union at least one).
    """

    name = "indexing.foreach"

    set = operand_def(SetType)
    iter_args = var_operand_def()
    cases = prop_def(ArrayAttr[DenseArrayBase])
    res = var_result_def()
    case_regions = var_region_def("single_block")

    traits = traits_def()

    def __init__(
        self,
        set_value: SSAValue | Operation,
        iter_args: Sequence[SSAValue],
        cases: Sequence[Sequence[int]],
        regions: Sequence[Region] | None = None,
    ):
        types = [a.type for a in iter_args]
        if regions is None:
            regions = [
                Region(Block(arg_types=[IndexType()] * (1 + len(case)) + types))
                for case in cases
            ]
        super().__init__(
            operands=[set_value, iter_args],
            result_types=[types],
            properties={
                "cases": ArrayAttr(
                    DenseArrayBase.from_list(i64, list(case)) for case in cases
                )
            },
            regions=[list(regions)],
        )

    # Accessors -------------------------------------------------------------

    def leaves(self) -> list[LeafOp]:
        """The leaf ops of the iterated set, in leaf order."""
        return set_leaves(self.set)

    def case_leaves(self, i: int) -> tuple[int, ...]:
        """The leaves present in case `i`, increasing."""
        return cast(DenseArrayBase[IntegerType], self.cases.data[i]).get_values()

    def case_block(self, i: int) -> Block:
        return self.regions[i].block

    def case_coordinate(self, i: int) -> BlockArgument:
        return self.case_block(i).args[0]

    def case_positions(self, i: int) -> tuple[BlockArgument, ...]:
        """The position block arguments of case `i`, one per present leaf."""
        return self.case_block(i).args[1 : 1 + len(self.case_leaves(i))]

    def case_iter_args(self, i: int) -> tuple[BlockArgument, ...]:
        return self.case_block(i).args[1 + len(self.case_leaves(i)) :]

    # Verification ----------------------------------------------------------

    def verify_(self) -> None:
        num_leaves = len(self.leaves())
        if len(self.cases.data) != len(self.regions):
            raise VerifyException(
                f"has {len(self.regions)} regions but {len(self.cases.data)} cases"
            )
        if not self.regions:
            raise VerifyException("expects at least one case")
        types = [a.type for a in self.iter_args]
        if [r.type for r in self.res] != types:
            raise VerifyException("result types must match the iter_args types")
        seen: set[tuple[int, ...]] = set()
        for i in range(len(self.regions)):
            case = self.case_leaves(i)
            if any(not 0 <= leaf < num_leaves for leaf in case) or list(case) != sorted(
                set(case)
            ):
                raise VerifyException(
                    f"case {i}: leaves must be distinct, increasing and below "
                    f"{num_leaves}, got {list(case)}"
                )
            if case in seen:
                raise VerifyException(f"case {i}: pattern {list(case)} listed twice")
            seen.add(case)
            present = [leaf in case for leaf in range(num_leaves)]
            if not set_holds(self.set, present):
                raise VerifyException(
                    f"case {i}: presence pattern {_pattern_text(present)} is not "
                    "satisfiable by the set expression"
                )
            expected = [IndexType()] * (1 + len(case)) + types
            block = self.case_block(i)
            if [a.type for a in block.args] != expected:
                raise VerifyException(
                    f"case {i}: block arguments must be (coordinate, {len(case)} "
                    f"position(s), iter_args) of types "
                    f"({', '.join(str(t) for t in expected)})"
                )
            term = block.last_op
            if not isinstance(term, YieldOp):
                raise VerifyException(f"case {i}: must end with 'indexing.yield'")
            if [v.type for v in term.values] != types:
                raise VerifyException(
                    f"case {i}: 'indexing.yield' types must match the iter_args types"
                )

    # Custom syntax ---------------------------------------------------------

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_ssa_value(self.set)
        if self.iter_args:
            printer.print_string(" iter_args")
            with printer.in_parens():
                printer.print_list(self.iter_args, printer.print_ssa_value)
        printer.print_string(" : ")
        printer.print_attribute(self.set.type)
        if self.res:
            printer.print_string(" -> ")
            with printer.in_parens():
                printer.print_list(self.result_types, printer.print_attribute)
        printer.print_op_attributes(self.attributes, print_keyword=True)
        num_leaves = len(self.leaves())
        for i in range(len(self.regions)):
            # Sibling cases are numbered alike, as MLIR numbers sibling regions.
            printer.enter_scope()
            printer.print_string("\ncase ")
            names = dict(zip(self.case_leaves(i), self.case_positions(i), strict=True))
            for leaf in range(num_leaves):
                printer.print_string(", " if leaf else "")
                if leaf in names:
                    printer.print_ssa_value(names[leaf])
                else:
                    printer.print_string("_")
            printer.print_string(" at(")
            printer.print_ssa_value(self.case_coordinate(i))
            printer.print_string(")")
            if self.iter_args:
                printer.print_string(" ")
                with printer.in_parens():
                    printer.print_list(
                        self.case_iter_args(i), printer.print_block_argument
                    )
            printer.print_string(" ")
            printer.print_region(self.regions[i], print_entry_block_args=False)
            printer.exit_scope()

    @classmethod
    def parse(cls, parser: Parser) -> IterateOp:
        set_operand = parser.parse_unresolved_operand()
        iter_operands: list[UnresolvedOperand] = []
        if parser.parse_optional_keyword("iter_args"):
            iter_operands = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
        parser.parse_punctuation(":")
        set_value = parser.resolve_operand(set_operand, parser.parse_type())
        types: list[Attribute] = []
        if parser.parse_optional_punctuation("->"):
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.PAREN, parser.parse_type
            )
        if len(types) != len(iter_operands):
            parser.raise_error(
                f"expected one result type per iter_arg ({len(iter_operands)}), "
                f"got {len(types)}"
            )
        iter_args = [
            parser.resolve_operand(o, t)
            for o, t in zip(iter_operands, types, strict=True)
        ]
        attrs = parser.parse_optional_attr_dict_with_keyword()
        cases: list[list[int]] = []
        regions: list[Region] = []
        while parser.parse_optional_keyword("case"):
            slots = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE,
                lambda: (
                    None
                    if parser.parse_optional_keyword("_")
                    else parser.parse_argument(expect_type=False)
                ),
            )
            leaves = [i for i, slot in enumerate(slots) if slot is not None]
            names = [slot for slot in slots if slot is not None]
            parser.parse_keyword("at")
            parser.parse_punctuation("(")
            crd = parser.parse_argument(expect_type=False)
            parser.parse_punctuation(")")
            block_iter_args: list[Parser.Argument] = []
            if iter_args:
                block_iter_args = parser.parse_comma_separated_list(
                    Parser.Delimiter.PAREN, parser.parse_argument
                )
            args = [crd.resolve(IndexType())]
            args += [n.resolve(IndexType()) for n in names]
            args += block_iter_args
            regions.append(parser.parse_region(args))
            cases.append(leaves)
        op = cls(set_value, iter_args, cases, regions)
        if attrs is not None:
            op.attributes |= attrs.data
        return op


def _pattern_text(present: Sequence[bool]) -> str:
    return "(" + ", ".join("present" if p else "_" for p in present) + ")"


# ---------------------------------------------------------------------------
# Linearize / delinearize
# ---------------------------------------------------------------------------


@irdl_op_definition
class LinearizeOp(IRDLOperation):
    """`indexing.linearize` (RFC: linearize_index): row-major linear index of a multi-index.

    `%l = indexing.linearize %i0, ..., %ik by (%n0, ..., %nk) : index` is
    ((i0 * n1 + i1) * n2 + ...) * nk + ik; defined when 0 <= ij < nj for all j
    (n0 only bounds i0 and does not enter the sum).
    """

    name = "indexing.linearize"

    indices = var_operand_def(IndexType)
    basis = var_operand_def(IndexType)
    result = result_def(IndexType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    assembly_format = "$indices `by` ` ` `(` $basis `)` attr-dict `:` type($result)"
    traits = traits_def(Pure())

    def __init__(
        self,
        indices: Sequence[SSAValue | Operation],
        basis: Sequence[SSAValue | Operation],
    ):
        super().__init__(operands=[indices, basis], result_types=[IndexType()])

    def verify_(self) -> None:
        if len(self.indices) != len(self.basis) or not self.basis:
            raise VerifyException(
                f"expects as many indices as basis sizes (at least one), "
                f"got {len(self.indices)} and {len(self.basis)}"
            )


@irdl_op_definition
class DelinearizeOp(IRDLOperation):
    """`indexing.delinearize` (RFC: delinearize_index): the inverse of linearize.

    `%m:k = indexing.delinearize %l by (%n0, ..., %nk) : index, ...` gives
    ij = (l floordiv (n(j+1) * ... * nk)) mod nj, and i0 = l floordiv (n1 * ... * nk);
    defined when 0 <= l < n0 * ... * nk.
    """

    name = "indexing.delinearize"

    linear = operand_def(IndexType)
    basis = var_operand_def(IndexType)
    multi_index = var_result_def(IndexType)

    assembly_format = "$linear `by` ` ` `(` $basis `)` attr-dict `:` type($multi_index)"
    traits = traits_def(Pure())

    def __init__(
        self, linear: SSAValue | Operation, basis: Sequence[SSAValue | Operation]
    ):
        super().__init__(
            operands=[linear, basis], result_types=[[IndexType()] * len(basis)]
        )

    def verify_(self) -> None:
        if len(self.multi_index) != len(self.basis) or not self.basis:
            raise VerifyException(
                f"expects one result per basis size (at least one), "
                f"got {len(self.multi_index)} and {len(self.basis)}"
            )


Indexing = Dialect(
    "indexing",
    [
        RangeOp,
        StoredOp,
        SegmentEndOp,
        UnionOp,
        IntersectOp,
        DifferenceOp,
        IterateOp,
        YieldOp,
        LinearizeOp,
        DelinearizeOp,
    ],
    [SetType],
)
