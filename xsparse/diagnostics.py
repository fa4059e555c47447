"""Located diagnostics: `file:line:col: error: message`, the source line and a caret.

Parsing records where every operation starts, so that a verifier failure
found after parsing (or after a pass) still points at the source text.
"""

from __future__ import annotations

import io
import math
import os
import re
import sys
import threading
from collections.abc import Callable, Iterator
from typing import TypeVar, cast

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyDenseElement,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    RankedStructure,
    ShapedType,
    TensorType,
    VectorType,
)
from xdsl.ir import (
    Attribute,
    Block,
    BlockArgument,
    Operation,
    OpResult,
    Region,
    SSAValue,
)
from xdsl.ir.affine import AffineMap
from xdsl.parser import Parser
from xdsl.parser.core import ForwardDeclaredValue
from xdsl.passes import ModulePass
from xdsl.printer import Printer
from xdsl.traits import NoTerminator, SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import DiagnosticException, ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind

from xsparse.errors import XSparseError, format_parse_error, format_span
from xsparse.shaped_types import check_parsed
from xsparse.xdsl_adapter import AdaptedParser, Position, peek, resume_from

Spans = dict[Operation, Span]
"""Where each parsed operation starts. The references are strong: an op a pass
replaced keeps its span, and what replaced it (`func.func` -> `llvm.func`)
finds it by symbol name."""


HEX_LITERAL = re.compile(r"(-?)\s*(0[xX][0-9a-fA-F]+)")
"""A hexadecimal literal and the minus before it, if any."""
DENSE_ELEMENT = re.compile(
    r"true|false|-?0[xX][0-9a-fA-F]+|-?\d+\.?\d*(?:[eE][+-]?\d+)?"
)
"""An element of a dense literal; `"0x..."`, its hex-string form, is no element."""
DENSE_TYPE = re.compile(r'<(?:[^<>"]++|"[^"]*+")*+>\s*:')
"""A dense literal's elements and the colon before its type (possessive: no
backtracking state kept per character)."""
DECIMAL = r"-?[0-9]+(?:\.[0-9]*(?:[eE][-+]?[0-9]+)?)?"
"""An integer or float literal as MLIR's lexer reads one."""
FLAT_DENSE = re.compile(rf"<\s*\[(\s*{DECIMAL}(?:\s*,\s*{DECIMAL})*+\s*)\]\s*>")
"""A dense literal that is one flat list of decimal numbers (possessive: no
backtracking state kept per element)."""
INTEGER = re.compile(r"\s*-?[0-9]+\s*")
BULK_DENSE = 1024
"""Flat dense literals of more elements than this are read in bulk (xDSL's
parser reads them a token at a time: 168 s for 3M elements)."""
MAX_DENSE_ELEMENTS = 1 << 24
NON_AFFINE = {
    "Multiplication": "multiply",
    "Floor division": "floordiv",
    "Ceil division": "ceildiv",
    "Mod": "mod",
}
"""xDSL's semi-affine refusals, by the operation MLIR's message names."""
SINGLE_BLOCK = re.compile(
    r"Region '\w+' at position (\d+) expected a single block, but got \d+ blocks"
)
MLIR_SINGLE_BLOCK = r"expects region #\1 to have 0 or 1 blocks"
"""MLIR's words for IRDL's single-block region constraint (`SizedRegion<1>`)."""
SPARSE_ENCODING = "sparse_tensor.encoding"
"""The name of the sparse tensor encoding attribute."""
MAX_NESTING = 100_000
"""How deeply regions, brackets and expressions may nest (MLIR has no limit;
xDSL's parser, printer and verifier recurse once or more per level)."""
DEEP_RECURSION_LIMIT = 10 * MAX_NESTING
"""Python frames allowed while parsing, transforming and printing: xDSL's
recursive descent takes about 7 a level of brackets or regions."""
DEEP_STACK_BYTES = 1 << 30
"""The C stack of the thread that runs deep work: address space reserved, not
memory used, large enough that DEEP_RECURSION_LIMIT frames cannot overflow
it (a Python call through C costs well under 1 KiB of it)."""
TOO_DEEP = f"nesting too deep for xsparse (its limit is about {MAX_NESTING} levels)"

T = TypeVar("T")


class DeepRecursion:
    """The raised recursion limit, held while any `run_deep` runs (the limit
    is the interpreter's, shared by its threads)."""

    lock = threading.Lock()
    holders = 0
    previous_limit = 0

    @classmethod
    def enter(cls) -> None:
        with cls.lock:
            if cls.holders == 0:
                cls.previous_limit = sys.getrecursionlimit()
                sys.setrecursionlimit(max(cls.previous_limit, DEEP_RECURSION_LIMIT))
            cls.holders += 1

    @classmethod
    def exit(cls) -> None:
        with cls.lock:
            cls.holders -= 1
            if cls.holders == 0:
                sys.setrecursionlimit(cls.previous_limit)

    @classmethod
    def after_fork_in_child(cls) -> None:
        """In a forked child, whose only thread is the one that forked: the
        threads that held the limit (and maybe the lock) are the parent's."""
        cls.lock = threading.Lock()
        if cls.holders:
            sys.setrecursionlimit(cls.previous_limit)
        cls.holders = 0


os.register_at_fork(after_in_child=DeepRecursion.after_fork_in_child)


def run_deep(work: Callable[[], T]) -> T:
    """`work()`, run in a thread with a DEEP_STACK_BYTES stack and a recursion
    limit of DEEP_RECURSION_LIMIT, so that the recursion of xDSL's parser,
    printer and walks reaches MAX_NESTING levels; its result or its
    exception. Past the limit, `work` sees a RecursionError (a refusal to
    report, never a crash of the process)."""
    outcome: list[T] = []
    failure: list[BaseException] = []

    def target() -> None:
        try:
            outcome.append(work())
        except BaseException as e:
            failure.append(e)

    DeepRecursion.enter()
    try:
        with DeepRecursion.lock:  # stack_size is global too
            previous_stack = threading.stack_size(DEEP_STACK_BYTES)
            try:
                thread = threading.Thread(target=target, name="xsparse-deep")
                thread.start()
            finally:
                threading.stack_size(previous_stack)
        thread.join()
    finally:
        DeepRecursion.exit()
    if failure:
        raise failure[0]
    return outcome[0]


def walk_ops(root: Operation) -> Iterator[Operation]:
    """`root` and the ops nested in it, outermost first, in `root.walk()`'s
    order; iterative (xDSL's walk nests one generator per level: quadratic
    time in the depth)."""
    stack: list[Operation] = [root]
    while stack:
        op = stack.pop()
        yield op
        children = [
            child
            for region in op.regions
            for block in region.blocks
            for child in block.ops
        ]
        stack.extend(reversed(children))


def float_from_literal(token: str, t: AnyFloat) -> float:
    """A float literal as MLIR reads it for type `t`: a hexadecimal one as the
    bits of the value, a decimal one too large for `t` as infinity."""
    if token in ("true", "false"):
        return float(token == "true")
    hexadecimal = HEX_LITERAL.fullmatch(token)
    if hexadecimal is not None:
        if hexadecimal.group(1):
            raise ValueError(
                "hexadecimal float literal should not have a leading minus"
            )
        bits = int(hexadecimal.group(2), 16)
        if bits >= 1 << t.bitwidth:
            raise ValueError("hexadecimal float constant out of range for type")
        return t.unpack(bits.to_bytes(t.compile_time_size, "little"), 1)[0]
    value = float(token)
    try:
        t.pack([value])
    except OverflowError:
        return math.copysign(math.inf, value)
    return value


NOTHING_PARSED = "Could not parse entire input!"
"""xDSL's message for an input with no operation in it."""


class LocatingParser(AdaptedParser):
    """xDSL's parser, remembering the source span where each operation starts;
    float literals read as MLIR reads them (`float_from_literal`), where xDSL
    reads a hexadecimal element of a dense literal as an integer value, and
    fails on a value too large for its type; tensor and memref types checked
    as MLIR's parser checks them (`shaped_types`)."""

    def __init__(self, ctx: Context, text: str, name: str = "<input>") -> None:
        super().__init__(ctx, text, name)
        self.op_spans: Spans = {}

    def check_shaped_type(self, parsed: Attribute, start: Position) -> None:
        check_parsed(self, parsed, start)

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        """xDSL's, where an input of no operations (empty, or only alias
        definitions) is an empty module, as in MLIR."""
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as e:
            at_end = peek(self).kind == MLIRTokenKind.EOF
            if allow_implicit_module and at_end and e.msg == NOTHING_PARSED:
                return ModuleOp([])
            raise

    def parse_operation(self) -> Operation:
        start = peek(self).span
        op = super().parse_operation()
        self.op_spans[op] = start
        return op

    def parse_optional_builtin_int_or_float_attr(
        self,
    ) -> IntegerAttr | FloatAttr | None:
        start = self.pos
        try:
            attr = super().parse_optional_builtin_int_or_float_attr()
        except OverflowError:
            attr = None
        except ParseError as e:
            # xDSL 0.75 refuses a too wide hexadecimal float itself (the
            # parser stands after its type); the message is MLIR's below.
            if not e.msg.lower().startswith("hexadecimal float constant out of"):
                raise
            attr = None
        if attr is None and self.pos == start:
            return None  # no number here
        if isinstance(attr, IntegerAttr):
            value = attr.value.data
            if isinstance(attr.type, IndexType) and not -(1 << 63) <= value < 1 << 63:
                literal = self._typed_literal(start)[0]
                message = "integer constant out of range for attribute"
                self.raise_error(message, start, start + len(literal))
            return attr
        literal, t = self._typed_literal(start)
        if not isinstance(t, AnyFloat):
            return attr
        try:
            return FloatAttr(float_from_literal(literal, t), t)
        except ValueError as e:
            at = start + max(literal.lower().find("0x"), 0)  # where MLIR points
            self.raise_error(str(e), at, start + len(literal))

    def parse_affine_map(self) -> AffineMap:
        """xDSL's, with MLIR's error where an expression is not affine (xDSL
        raises NotImplementedError)."""
        start = self.pos
        try:
            return super().parse_affine_map()
        except NotImplementedError as e:
            operation = next(
                (word for key, word in NON_AFFINE.items() if str(e).startswith(key)),
                None,
            )
            if operation is None:
                raise
            message = (
                "non-affine expression: at least one of the multiply operands has "
                "to be either a constant or symbolic"
                if operation == "multiply"
                else f"non-affine expression: right operand of {operation} has to "
                "be either a constant or symbolic"
            )
            self.raise_error(message, start, self.pos)

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        start = self.pos
        self._check_dense_size(start, type)
        bulk = self._parse_bulk_dense(type)
        if bulk is not None:
            return bulk
        try:
            attr = super().parse_dense_int_or_fp_elements_attr(type)
        except (OverflowError, ValueError):
            attr = None
        except AssertionError:  # xDSL's reading of real numbers as complex ones
            literal, t = self._typed_literal(start)
            shaped = cast(RankedStructure[AnyDenseElement], type or t)
            parsed = len(DENSE_ELEMENT.findall(literal))
            expected = 2 * math.prod(shaped.get_shape())
            message = f"parsed {parsed} elements, but type ('{shaped}') expected {expected} elements"
            self.raise_error(message, start, self.pos)
        literal, t = self._typed_literal(start)
        if attr is not None and ('"' in literal or "0x" not in literal.lower()):
            return attr  # no hexadecimal element: xDSL read it as MLIR does
        shaped = cast(RankedStructure[AnyDenseElement], type or t)
        element = shaped.element_type
        if not isinstance(element, AnyFloat):
            if attr is None:
                message = "integer constant out of range for type"
                self.raise_error(message, start, self.pos)
            return attr
        values: list[float] = []
        for token in DENSE_ELEMENT.finditer(literal):
            try:
                values.append(float_from_literal(token.group(0), element))
            except ValueError as e:
                at = start + token.start() + max(token.group(0).find("0x"), 0)
                self.raise_error(str(e), at, start + token.end())
        if len(values) == 1:
            values *= math.prod(shaped.get_shape())
        floats = cast(RankedStructure[AnyFloat], shaped)
        return DenseIntOrFPElementsAttr.from_list(floats, values)

    def _parse_bulk_dense(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr | None:
        """A large flat list of decimal numbers of a 1-d tensor of i8..i64,
        f32 or f64, read in one piece; None (nothing consumed) for any other
        literal, which xDSL's parser reads (and reports errors in)."""
        start = self.pos
        match = FLAT_DENSE.match(self.lexer.input.content, start)
        if match is None or match.group(1).count(",") < BULK_DENSE:
            return None
        tokens = match.group(1).split(",")
        resume_from(self, match.end())
        if type is None:
            self.parse_punctuation(":", " in dense attribute")
            parsed: Attribute | None = self.parse_type()
        else:
            parsed = type
        values = self._bulk_values(tokens, parsed)
        if values is None:
            resume_from(self, start)
            return None
        shaped = cast(RankedStructure[AnyDenseElement], parsed)
        return DenseIntOrFPElementsAttr.from_list(shaped, values)

    @staticmethod
    def _bulk_values(
        tokens: list[str], type: Attribute | None
    ) -> list[int] | list[float] | None:
        """`tokens` as values of `type`'s elements, where that is exact and
        in range; None otherwise."""
        if not isinstance(type, TensorType | VectorType):
            return None
        shaped = cast(TensorType[Attribute] | VectorType[Attribute], type)
        if list(shaped.get_shape()) != [len(tokens)]:
            return None
        element = shaped.element_type
        if isinstance(element, AnyFloat) and element.bitwidth in (32, 64):
            try:
                values = [float(t) for t in tokens]
            except ValueError:
                return None
            if element.bitwidth == 32 and any(abs(v) > 3.4e38 for v in values):
                return None  # MLIR's infinity: xDSL's path knows it
            return values
        if isinstance(element, IntegerType) and element.width.data in (8, 16, 32, 64):
            if not all(INTEGER.fullmatch(t) for t in tokens):
                return None
            ints = [int(t) for t in tokens]
            bits = element.width.data
            if min(ints) < -(1 << (bits - 1)) or max(ints) >= 1 << (bits - 1):
                return None
            return ints
        return None

    def _check_dense_size(
        self, start: int, type: RankedStructure[AnyDenseElement] | None
    ) -> None:
        """Refuse a dense literal of more than MAX_DENSE_ELEMENTS elements before
        xDSL expands a splat into a list that large (a MemoryError, or memory
        and time without end)."""
        shaped: Attribute | None = type
        end = start + 1
        if shaped is None:
            text = self.lexer.input.content
            match = DENSE_TYPE.match(text, start)
            if match is None:
                return  # not a literal xDSL reads: it says so
            end = match.end()
            parser = Parser(self.ctx, text[end:])
            parser.attribute_aliases = self.attribute_aliases
            try:
                shaped = parser.parse_type()
            except ParseError:
                return
        if not isinstance(shaped, ShapedType):
            return
        count = math.prod(shaped.get_shape())
        if count > MAX_DENSE_ELEMENTS:
            message = f"a dense literal of {count} elements is too large for xsparse"
            self.raise_error(message, start, end)

    def _typed_literal(self, start: int) -> tuple[str, Attribute | None]:
        """The literal parsed from `start` up to here, and the type after its
        colon (None without one)."""
        text = self.lexer.input.content[start : self.pos]
        literal, colon, type_text = text.partition(":")
        if not colon:
            return text.strip(), None
        parser = Parser(self.ctx, type_text)
        parser.attribute_aliases = self.attribute_aliases
        return literal.strip(), parser.parse_type()


def _verify_tensor_encodings(op: Operation) -> None:
    """MLIR's `verifyEncoding` on the sparse tensor types an op uses (xDSL's
    TensorType cannot check its encoding against its shape itself)."""
    values = [*op.operands, *op.results]
    values += [
        arg for region in op.regions for block in region.blocks for arg in block.args
    ]
    for value in values:
        t = value.type
        if isinstance(t, TensorType) and t.encoding.name == SPARSE_ENCODING:
            _verify_sparse_encoding(cast(TensorType[Attribute], t))


def _verify_sparse_encoding(t: TensorType[Attribute]) -> None:
    # Imported here: IR without sparse tensors never loads the sparse_tensor
    # dialect (xsparse-opt's start-up time).
    from xsparse.dialects.sparse_tensor.encoding import (
        SparseTensorEncodingAttr,
        verify_encoding_for_tensor,
    )

    if isinstance(t.encoding, SparseTensorEncodingAttr):
        verify_encoding_for_tensor(t.encoding, t)


def _empty_sizes_problem(op: Operation) -> str | None:
    """MLIR's `tensor.empty` verifier, which xDSL's lacks: one size operand per
    dynamic dimension."""
    if op.name != "tensor.empty":
        return None
    # Imported here: a file without tensors never loads xDSL's tensor dialect.
    from xdsl.dialects.tensor import EmptyOp

    if not isinstance(op, EmptyOp):
        return None
    expected = sum(1 for d in op.tensor.type.get_shape() if d == DYNAMIC_INDEX)
    given = len(op.dynamic_sizes)
    if given == expected:
        return None
    return f"incorrect number of dynamic sizes, has {given}, expected {expected}"


def _symbol(op: Operation) -> str | None:
    symbol = op.get_trait(SymbolOpInterface)
    name = symbol.get_sym_attr_name(op) if symbol is not None else None
    return name.data if name is not None else None


def _symbol_redefinition(op: Operation) -> tuple[Operation, str] | None:
    """MLIR's check that a symbol table's symbols are unique, reported at the
    second definition (xDSL reports it on the table)."""
    if op.get_trait(SymbolTable) is None:
        return None
    seen: set[str] = set()
    for region in op.regions:
        for block in region.blocks:
            for child in block.ops:
                name = _symbol(child)
                if name is None:
                    continue
                if name in seen:
                    return child, f"redefinition of symbol named '{name}'"
                seen.add(name)
    return None


class _Nesting:
    """Where each op lies in `root`'s pre-order walk: `enter[op]` its own
    position, `last[op]` the last position inside it, so that one op holds
    another, and a block or region holds an op, by comparing positions (the
    ops of a block, and the blocks of a region, come one after the other)."""

    def __init__(self, root: Operation) -> None:
        self.enter: dict[Operation, int] = {}
        self.last: dict[Operation, int] = {}
        self._ranges: dict[Block | Region, tuple[int, int]] = {}
        stack: list[tuple[Operation, bool]] = [(root, False)]
        position = 0
        while stack:
            op, done = stack.pop()
            if done:
                self.last[op] = position - 1
                continue
            self.enter[op] = position
            position += 1
            stack.append((op, True))
            children = [
                child
                for region in op.regions
                for block in region.blocks
                for child in block.ops
            ]
            stack.extend((child, False) for child in reversed(children))

    def _range(self, ops: list[Operation]) -> tuple[int, int]:
        """The positions of `ops` (consecutive siblings) and what they hold."""
        return (self.enter[ops[0]], self.last[ops[-1]]) if ops else (0, -1)

    def holds(self, where: Block | Region, position: int) -> bool:
        """Whether the op at `position` is inside `where`."""
        span = self._ranges.get(where)
        if span is None:
            if isinstance(where, Block):
                ops = list(where.ops)
            else:
                ops = [op for block in where.blocks for op in block.ops]
            span = self._ranges[where] = self._range(ops)
        return span[0] <= position <= span[1]


def _dominates(value: SSAValue, user: Operation, nesting: _Nesting) -> bool:
    """Whether `value` dominates its use by `user`: its block encloses `user`,
    and an op result comes before (MLIR's `DominanceInfo::properlyDominates`;
    blocks of one multi-block region are not compared, and a module's body is
    a graph region). Constant time: positions in the walk (`_Nesting`), not
    a climb through `user`'s ancestors (quadratic in the nesting depth)."""
    if isinstance(value, OpResult):
        block = value.op.parent_block()
    else:
        assert isinstance(value, BlockArgument)
        block = value.block
    if block is None:
        return True
    position = nesting.enter[user]
    if not nesting.holds(block, position):
        # another block of the value's region: CFG dominance, not compared
        region = block.parent
        return region is not None and nesting.holds(region, position)
    if not isinstance(value, OpResult) or isinstance(block.parent_op(), ModuleOp):
        return True
    return nesting.last[value.op] < position


def _has_empty_body(op: Operation) -> bool:
    """A single-block region of `op` holds no op although `op` needs a terminator."""
    return not op.has_trait(NoTerminator) and any(
        len(region.blocks) == 1 and region.blocks[0].first_op is None
        for region in op.regions
    )


def first_verify_error(module: Operation) -> tuple[Operation, str] | None:
    """Verify operations one by one, outermost first, then dominance (as MLIR's
    verifier does); the first failure, with MLIR's `'op' op` prefix for an
    op's own verifier."""
    for op in walk_ops(module):  # xDSL leaves these where an op uses a value
        for i, operand in enumerate(op.operands):  # of its own region
            if isinstance(operand, ForwardDeclaredValue):
                return op, f"operand #{i} does not dominate this use"
    for op in walk_ops(module):
        try:
            _verify_tensor_encodings(op)
        except VerifyException as e:  # a type error: MLIR prints no op prefix
            return op, str(e).split("\n", 1)[0]
        if (redefinition := _symbol_redefinition(op)) is not None:
            return redefinition
        if (problem := _empty_sizes_problem(op)) is not None:
            return op, f"'{op.name}' op {problem}"
        if _has_empty_body(op):  # xDSL checks it in Block.verify, with no op
            return op, "empty block: expect at least a terminator"
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            message = SINGLE_BLOCK.sub(MLIR_SINGLE_BLOCK, str(e).split("\n", 1)[0])
            return op, f"'{op.name}' op {message}"
        except Exception as e:  # a verifier that crashed is still a user error
            return op, f"'{op.name}' op {type(e).__name__}: {e}"
    nesting = _Nesting(module)
    for op in walk_ops(module):
        for i, operand in enumerate(op.operands):
            if not _dominates(operand, op, nesting):
                return op, f"operand #{i} does not dominate this use"
    return None


def verify_located(module: Operation, spans: Spans, filename: str) -> None:
    """Raise XSparseError with a located message when `module` does not verify."""
    failure = first_verify_error(module)
    if failure is None:
        return
    op, message = failure
    span = source_span(op, spans)
    if span is not None:
        raise XSparseError(format_span(span, message))
    raise XSparseError(f"{filename}: error: {message}")


def source_span(op: Operation, spans: Spans) -> Span | None:
    """Where `op` comes from: its own span, else its nearest parsed ancestor's;
    an ancestor a pass rebuilt (`func.func` -> `llvm.func`) is found by its
    symbol name."""
    symbols = {name: span for o, span in spans.items() if (name := _symbol(o))}
    target: Operation | None = op
    while target is not None:
        if target in spans:
            return spans[target]
        name = _symbol(target)
        if name in symbols:
            return symbols[name]
        target = target.parent_op()
    return None


def locate_error(
    error: Exception,
    spans: Spans,
    filename: str,
    module: Operation | None = None,
) -> str:
    """A pass's error message at the source location of its op (`error.op`;
    for a verifier's error without one, the first op of `module` that fails
    verification)."""
    message = str(error).split("\n", 1)[0]
    target = getattr(error, "op", None)
    if target is None and isinstance(error, VerifyException) and module is not None:
        failure = first_verify_error(module)
        if failure is not None:
            target, message = failure
    span = source_span(target, spans) if isinstance(target, Operation) else None
    if span is not None:
        return format_span(span, message)
    return f"{filename}: error: {message}"


def decode_source(data: bytes, filename: str) -> str:
    """`data` as UTF-8 text; XSparseError at the line and column of the
    first byte that is not UTF-8 (MLIR reads text, and a replacement
    character would change what a string attribute holds)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        start = len(data[: e.start].decode("utf-8", errors="replace"))
        text = data.decode("utf-8", errors="replace")
        message = f"invalid UTF-8 byte 0x{data[e.start]:02x} in the input"
        span = Span(start, start + 1, Input(text, filename))
        raise XSparseError(format_span(span, message)) from None


def check_encodable(text: str, filename: str) -> None:
    """XSparseError at the line and column of the first character of `text`
    that has no UTF-8 encoding (a lone surrogate)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as e:
        shown = text.encode("utf-8", errors="replace").decode("utf-8")
        message = f"character U+{ord(text[e.start]):04X} (a lone surrogate) cannot be encoded as UTF-8"
        span = Span(e.start, e.start + 1, Input(shown, filename))
        raise XSparseError(format_span(span, message)) from None


def end_of_input(text: str, filename: str, message: str) -> XSparseError:
    """An error located at the end of `text` (what is missing from it)."""
    span = Span(len(text), len(text), Input(text, filename))
    return XSparseError(format_span(span, message))


def parse_failure(error: Exception) -> str:
    """The message for an exception xDSL's parser raised that is no ParseError."""
    if isinstance(error, RecursionError):
        return TOO_DEEP
    return f"internal error while parsing: {type(error).__name__}: {error}"


def parse_module(ctx: Context, text: str, filename: str = "<input>") -> ModuleOp:
    """Parse and verify, raising XSparseError with a located message."""
    return parse_module_with_spans(ctx, text, filename)[0]


def parse_module_with_spans(
    ctx: Context, text: str, filename: str = "<input>"
) -> tuple[ModuleOp, Spans]:
    """Parse and verify; also where each op starts, to locate later errors."""
    try:
        parser = LocatingParser(ctx, text, filename)  # lexes the first token
    except ParseError as e:
        raise XSparseError(format_parse_error(e)) from None
    try:
        module = parser.parse_module()
    except ParseError as e:
        raise XSparseError(format_parse_error(e)) from None
    except VerifyException as e:
        span = peek(parser).span
        raise XSparseError(format_span(span, str(e).split("\n", 1)[0])) from None
    except Exception as e:  # a bug in a parser: still a located diagnostic
        raise XSparseError(format_span(peek(parser).span, parse_failure(e))) from None
    verify_located(module, parser.op_spans, filename)
    return module, parser.op_spans


def apply_to_text(ctx: Context, source: str, module_pass: ModulePass) -> str:
    """`source` (MLIR text) after `module_pass`, printed; bad input or a
    refusal of the pass raises XSparseError located in `source`."""
    module, spans = parse_module_with_spans(ctx, source, "<source>")
    try:
        module_pass.apply(ctx, module)
    except DiagnosticException as e:
        raise XSparseError(locate_error(e, spans, "<source>")) from None
    out = io.StringIO()
    Printer(stream=out).print_op(module)
    return out.getvalue()
