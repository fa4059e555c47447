"""`#sparse_tensor.encoding<{...}>`: MLIR 22's SparseTensorEncodingAttr.

Mirrors the MLIR documentation of `SparseTensorEncodingAttr` (seed 000) and
MLIR 22's parser, printer and verifier for it (SparseTensorDialect.cpp). The
grammar and the canonical printing live in `_encoding_syntax`; this module
holds the attribute, its verifier (with MLIR's messages) and its Python API.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    FloatAttr,
    IndexType,
    IntegerAttr,
    IntegerType,
    TensorType,
)
from xdsl.dialects.complex import ComplexNumberAttr
from xdsl.ir import Attribute, Data, OpaqueSyntaxAttribute
from xdsl.ir.affine import (
    AffineBinaryOpExpr,
    AffineConstantExpr,
    AffineDimExpr,
    AffineExpr,
    AffineMap,
)
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from xsparse.dialects.sparse_tensor._encoding_syntax import (
    DEFAULT_SLICE,
    FLOORDIV,
    MOD,
    DimSlice,
    EncodingParser,
    ParsedEncoding,
    add,
    mul,
    parse_slice_parameters,
    print_affine,
)
from xsparse.dialects.sparse_tensor.levels import (
    BATCH,
    COMPRESSED,
    DENSE,
    LOOSE_COMPRESSED,
    SINGLETON,
    STRUCTURED,
    LevelType,
)
from xsparse.errors import XSparseError, format_parse_error
from xsparse.shaped_types import VerifiableTensorEncoding


@irdl_attr_definition
class SparseTensorDimSliceAttr(Data[DimSlice], OpaqueSyntaxAttribute):
    """`#sparse_tensor<slice(offset, size, stride)>` (SparseTensorDimSliceAttr),
    `?` for a dynamic value; encodings hold it as a `DimSlice` per dimension."""

    name = "sparse_tensor.slice"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> DimSlice:
        return parse_slice_parameters(parser)

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.data.parameters())

    def verify(self) -> None:
        offset, size, stride = self.data.offset, self.data.size, self.data.stride
        if offset is not None and offset < 0:
            raise VerifyException("expect non-negative value or ? for slice offset")
        for what, value in (("size", size), ("stride", stride)):
            if value is not None and value <= 0:
                raise VerifyException(f"expect positive value or ? for slice {what}")


@dataclass(frozen=True)
class Encoding:
    """The contents of a sparse tensor encoding."""

    dim_to_lvl: AffineMap
    """Dimension coordinates (and symbols) to level coordinates."""
    lvl_to_dim: AffineMap
    """Level coordinates to dimension coordinates (given or inferred); a map
    without results when it cannot be inferred (maps with symbols, e.g. ELL)."""
    lvl_types: tuple[LevelType, ...]
    pos_width: int = 0
    crd_width: int = 0
    explicit_val: Attribute | None = None
    implicit_val: Attribute | None = None
    dim_slices: tuple[DimSlice | None, ...] = ()
    """One entry per dimension when any dimension is sliced, else empty."""

    @property
    def dim_rank(self) -> int:
        return self.dim_to_lvl.num_dims

    @property
    def lvl_rank(self) -> int:
        return len(self.lvl_types)


# ---------------------------------------------------------------------------
# Inverse maps (MLIR's inferLvlToDim, isBlockSparsity, inverseBlockSparsity).
# ---------------------------------------------------------------------------


def _block_parts(expr: AffineExpr) -> tuple[str, int, int] | None:
    """`dK floordiv c` or `dK mod c` as (kind, K, c)."""
    if (
        isinstance(expr, AffineBinaryOpExpr)
        and expr.kind in (FLOORDIV, MOD)
        and isinstance(expr.lhs, AffineDimExpr)
        and isinstance(expr.rhs, AffineConstantExpr)
    ):
        return (
            "div" if expr.kind == FLOORDIV else "mod",
            expr.lhs.position,
            expr.rhs.value,
        )
    return None


def block_sizes(dim_to_lvl: AffineMap) -> tuple[int, ...] | None:
    """Per level, the block size of a `mod` level (0 elsewhere), when the map
    is a blocking (MLIR 22's isBlockSparsity): each result is a dimension not
    seen before, `d floordiv c` (once per d) or `d mod c` after that floordiv
    with the same c > 0, and some block is complete. Unlike MLIR, which
    crashes on it, a floordiv without its mod is not a blocking."""
    if dim_to_lvl.num_symbols:
        return None
    seen: dict[int, int] = {}
    """Per dimension: 0 for a plain level, else its floordiv's block size."""
    modded: set[int] = set()
    sizes: list[int] = []
    for expr in dim_to_lvl.results:
        if isinstance(expr, AffineDimExpr):
            if expr.position in seen:
                return None
            seen[expr.position] = 0
            sizes.append(0)
            continue
        parts = _block_parts(expr)
        if parts is None or parts[2] < 1:
            return None
        kind, dim, size = parts
        if kind == "div":
            if dim in seen:
                return None
            seen[dim] = size
            sizes.append(0)
        elif seen.get(dim, 0) != size:
            return None
        else:
            modded.add(dim)
            sizes.append(size)
    divided = {d for d, size in seen.items() if size}
    if not modded or modded != divided:
        return None
    return tuple(sizes)


def _inverse(dim_to_lvl: AffineMap, mlir_order: bool) -> AffineMap | None:
    """The level-to-dimension map of a permutation or a blocking.

    With `mlir_order`, the result is MLIR 22's inverseBlockSparsity, which a
    user-written lvlToDim is checked against: levels of plain dimensions
    first, then one `l_div * c + l_mod` per blocked dimension, unused
    dimensions left out. Else it is the inverse proper, one result per
    dimension in order (0 for a dimension no level uses)."""
    results = dim_to_lvl.results
    lvl_rank = len(results)
    if dim_to_lvl.num_symbols:
        return None
    if lvl_rank == dim_to_lvl.num_dims and all(
        isinstance(e, AffineDimExpr) for e in results
    ):
        positions = [e.position for e in results if isinstance(e, AffineDimExpr)]
        if sorted(positions) == list(range(lvl_rank)):
            inv = [AffineDimExpr(positions.index(d)) for d in range(lvl_rank)]
            return AffineMap(lvl_rank, 0, tuple(inv))
    if block_sizes(dim_to_lvl) is None:
        return None
    per_dim: dict[int, AffineExpr] = {}
    plain: list[AffineExpr] = []
    divs: dict[int, tuple[int, int]] = {}
    for lvl, expr in enumerate(results):
        if isinstance(expr, AffineDimExpr):
            per_dim[expr.position] = AffineDimExpr(lvl)
            plain.append(AffineDimExpr(lvl))
            continue
        parts = _block_parts(expr)
        assert parts is not None
        kind, dim, size = parts
        if kind == "div":
            divs[dim] = (lvl, size)
        elif dim not in per_dim:  # a repeated mod level adds nothing
            per_dim[dim] = add(
                mul(AffineDimExpr(divs[dim][0]), AffineConstantExpr(size)),
                AffineDimExpr(lvl),
            )
    if mlir_order:
        blocked = [per_dim[d] for d in sorted(divs)]
        return AffineMap(lvl_rank, 0, (*plain, *blocked))
    unused = AffineConstantExpr(0)
    inverse = tuple(per_dim.get(d, unused) for d in range(dim_to_lvl.num_dims))
    return AffineMap(lvl_rank, 0, inverse)


def infer_lvl_to_dim(dim_to_lvl: AffineMap) -> AffineMap | None:
    """The inverse of a permutation or a blocking, None for anything else."""
    return _inverse(dim_to_lvl, mlir_order=False)


# ---------------------------------------------------------------------------
# Verification (MLIR 22's SparseTensorEncodingAttr::verify and verifyEncoding).
# ---------------------------------------------------------------------------

_WIDTHS = (0, 8, 16, 32, 64)


def _is_nv24_metadata(lvl_types: Sequence[LevelType]) -> bool:
    """Seed 000's NV_24 `crdWidth = 2`: the only level storing coordinates is
    a 2:4 level, whose 2-bit metadata MLIR 22 cannot express."""
    with_crds = [lt for lt in lvl_types if lt.format.has_coordinates]
    return (
        len(with_crds) == 1
        and with_crds[0].format is STRUCTURED
        and (with_crds[0].n, with_crds[0].m) == (2, 4)
    )


def encoding_error(
    lvl_types: Sequence[LevelType],
    dim_to_lvl: AffineMap | None,
    lvl_to_dim: AffineMap | None,
    pos_width: int,
    crd_width: int,
    dim_slices: Sequence[DimSlice | None],
) -> str | None:
    """The first violated rule of MLIR 22's encoding verifier, or None."""
    if pos_width not in _WIDTHS:
        return f"unexpected position bitwidth: {pos_width}"
    if crd_width not in _WIDTHS and not (
        crd_width == 2 and _is_nv24_metadata(lvl_types)
    ):
        return f"unexpected coordinate bitwidth: {crd_width}"
    lvl = 0
    while lvl < len(lvl_types):
        if lvl_types[lvl].format is not SINGLETON:
            lvl += 1
            continue
        if lvl == 0 or lvl_types[lvl - 1].format not in (COMPRESSED, LOOSE_COMPRESSED):
            return (
                "expected compressed or loose_compressed level before singleton level"
            )
        end = lvl
        while end < len(lvl_types) and lvl_types[end].format is SINGLETON:
            end += 1
        if any(lt.soa != lvl_types[lvl].soa for lt in lvl_types[lvl:end]):
            return "expected all singleton lvlTypes stored in the same memory layout (SoA vs AoS)."
        lvl = end
    batches = [i for i, lt in enumerate(lvl_types) if lt.format is BATCH]
    if batches and batches != list(range(len(batches))):
        return "Batch lvlType can only be leading levels."
    if any(lt.soa and lt.format is not SINGLETON for lt in lvl_types):
        return "SoA is only applicable to singleton lvlTypes."
    structured = [i for i, lt in enumerate(lvl_types) if lt.format is STRUCTURED]
    if structured:
        first = structured[0]
        if first != len(lvl_types) - 1:
            return "expected n_out_of_m to be the last level type"
        if any(lt.format is not DENSE for lt in lvl_types[:first]):
            return "expected all dense lvlTypes before a n_out_of_m level"
        if dim_to_lvl is not None and dim_to_lvl.num_dims != len(dim_to_lvl.results):
            sizes = block_sizes(dim_to_lvl)
            if sizes is None:
                return "expected 1xm block structure for n_out_of_m level"
            coefficient = 0
            for size in sizes:
                if size:
                    if coefficient and size != coefficient:
                        return (
                            "expected only one blocked level with the same coefficients"
                        )
                    coefficient = size
            if coefficient != lvl_types[first].m:
                return "expected coeffiencts of Affine expressions to be equal to m of n_out_of_m level"
    lvl_rank = len(lvl_types)
    if lvl_rank == 0:
        return "expected a non-empty array for lvlTypes"
    dim_rank = dim_to_lvl.num_dims if dim_to_lvl is not None else lvl_rank
    if dim_to_lvl is not None:
        if len(dim_to_lvl.results) != lvl_rank:
            return f"level-rank mismatch between dimToLvl and lvlTypes: {len(dim_to_lvl.results)} != {lvl_rank}"
        inferred = _inverse(dim_to_lvl, mlir_order=True)
        if inferred is None and dim_to_lvl.num_symbols == 0:
            return "failed to infer lvlToDim from dimToLvl"
        if lvl_to_dim is not None and inferred != lvl_to_dim:
            return "expected lvlToDim to be an inverse of dimToLvl"
        if dim_rank > lvl_rank:
            return f"unexpected dimToLvl mapping from {dim_rank} to {lvl_rank}"
    if dim_slices:
        if len(dim_slices) != dim_rank:
            return f"dimension-rank mismatch between dimSlices and dimToLvl: {len(dim_slices)} != {dim_rank}"
        if dim_rank != lvl_rank:
            return f"dimSlices expected dimension-rank to match level-rank: {dim_rank} != {lvl_rank}"
    return None


def _element_of(attr: Attribute) -> Attribute:
    if isinstance(attr, FloatAttr | IntegerAttr):
        return attr.type  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]
    typ = getattr(attr, "type", None)
    return typ if isinstance(typ, Attribute) else attr


def _is_zero(attr: Attribute) -> bool:
    if isinstance(attr, FloatAttr):
        return attr.value.data == 0.0  # pyright: ignore[reportUnknownMemberType]
    if isinstance(attr, IntegerAttr):
        return attr.value.data == 0  # pyright: ignore[reportUnknownMemberType]
    return (
        isinstance(attr, ComplexNumberAttr) and attr.real.data == attr.imag.data == 0.0
    )


def tensor_error(
    data: Encoding, shape: Sequence[int], element: Attribute
) -> str | None:
    """The first violated rule of MLIR 22's `verifyEncoding` for a tensor of
    this shape and element type, or None."""
    message = data_error(data)
    if message is not None:
        return message
    if not shape:
        return "expected non-scalar sparse tensor"
    if data.dim_rank != len(shape):
        return f"dimension-rank mismatch between encoding and tensor shape: {data.dim_rank} != {len(shape)}"
    for kind, value in (
        ("explicit", data.explicit_val),
        ("implicit", data.implicit_val),
    ):
        if value is not None and _element_of(value) != element:
            return (
                f"{kind} value type mismatch between encoding and tensor element type: "
                f"'{_element_of(value)}' != '{element}'"
            )
    if data.implicit_val is not None and not _is_zero(data.implicit_val):
        return "implicit value must be zero"
    return None


def verify_encoding_for_tensor(
    enc: SparseTensorEncodingAttr | Encoding, tensor_type: TensorType[Attribute]
) -> None:
    """MLIR 22's `verifyEncoding`: the encoding against the tensor it types;
    raises VerifyException. (The parser checks every tensor type it reads;
    this checks the types that passes and Python code build.)"""
    data = enc.data if isinstance(enc, SparseTensorEncodingAttr) else enc
    message = tensor_error(data, tensor_type.get_shape(), tensor_type.element_type)
    if message is not None:
        raise VerifyException(message)


def data_error(data: Encoding) -> str | None:
    """`encoding_error` on a built Encoding (its lvlToDim is always inferred)."""
    return encoding_error(
        data.lvl_types,
        data.dim_to_lvl,
        None,
        data.pos_width,
        data.crd_width,
        data.dim_slices,
    )


# ---------------------------------------------------------------------------
# The attribute.
# ---------------------------------------------------------------------------


def _build(parsed: ParsedEncoding) -> tuple[Encoding, AffineMap | None]:
    """The Encoding of a parsed text, and the user's lvlToDim if written."""
    dim_to_lvl = AffineMap(parsed.num_dims, parsed.num_symbols, parsed.lvl_exprs)
    given: AffineMap | None = None
    if parsed.dim_exprs is not None:
        # A partial list never equals an inverse: keep a marker that differs.
        exprs = tuple(
            e if e is not None else AffineConstantExpr(-(2**63))
            for e in parsed.dim_exprs
        )
        given = AffineMap(len(parsed.lvl_exprs), parsed.num_symbols, exprs)
    lvl_to_dim = infer_lvl_to_dim(dim_to_lvl) or AffineMap(len(parsed.lvl_types), 0, ())
    slices = tuple(parsed.dim_slices)
    enc = Encoding(
        dim_to_lvl=dim_to_lvl,
        lvl_to_dim=lvl_to_dim,
        lvl_types=tuple(parsed.lvl_types),
        pos_width=parsed.pos_width,
        crd_width=parsed.crd_width,
        explicit_val=parsed.explicit_val,
        implicit_val=parsed.implicit_val,
        dim_slices=slices,
    )
    return enc, given


@irdl_attr_definition
class SparseTensorEncodingAttr(Data[Encoding], VerifiableTensorEncoding):
    """`#sparse_tensor.encoding<{ map = ..., posWidth = ..., ... }>`."""

    name = "sparse_tensor.encoding"

    @classmethod
    def parse_parameter(cls, parser: AttrParser) -> Encoding:
        parsed = EncodingParser(parser).parse()
        enc, given = _build(parsed)
        message = encoding_error(
            parsed.lvl_types,
            enc.dim_to_lvl if parsed.has_map else None,
            given,
            parsed.pos_width,
            parsed.crd_width,
            enc.dim_slices,
        )
        if message is not None:
            parser.raise_error(message, parsed.name_span)
        return enc

    def print_parameter(self, printer: Printer) -> None:
        printer.print_string(self.text_body())

    def text_body(self) -> str:
        """MLIR 22's canonical text between `#sparse_tensor.encoding` and the end."""
        data = self.data
        m = data.dim_to_lvl
        text = "<{ map = "
        if m.num_symbols:
            text += "[" + ", ".join(f"s{i}" for i in range(m.num_symbols)) + "]"
        dims = [f"d{i}" for i in range(m.num_dims)]
        if data.dim_slices:
            dims = [
                f"{d} : {s or DEFAULT_SLICE}"
                for d, s in zip(dims, data.dim_slices, strict=False)
            ]
        text += "(" + ", ".join(dims) + ") -> ("
        text += (
            ", ".join(
                f"{print_affine(e)} : {lt}"
                for e, lt in zip(m.results, data.lvl_types, strict=False)
            )
            + ")"
        )
        if data.pos_width:
            text += f", posWidth = {data.pos_width}"
        if data.crd_width:
            text += f", crdWidth = {data.crd_width}"
        for key, value in (
            ("explicitVal", data.explicit_val),
            ("implicitVal", data.implicit_val),
        ):
            if value is not None:
                text += f", {key} = {_attr_text(value)}"
        return text + " }>"

    def __str__(self) -> str:
        return "#sparse_tensor.encoding" + self.text_body()

    def verify(self) -> None:
        message = data_error(self.data)
        if message is not None:
            raise VerifyException(message)

    def verify_encoding(self, shape: Sequence[int], element_type: Attribute) -> None:
        message = tensor_error(self.data, shape, element_type)
        if message is not None:
            raise VerifyException(message)

    # -- construction ---------------------------------------------------------

    @staticmethod
    def from_level_types(
        lvl_types: Sequence[LevelType],
        dim_to_lvl: AffineMap | None = None,
        pos_width: int = 0,
        crd_width: int = 0,
        explicit_val: Attribute | None = None,
        implicit_val: Attribute | None = None,
        dim_slices: Sequence[DimSlice | None] = (),
    ) -> SparseTensorEncodingAttr:
        """An encoding from Python; the identity map when `dim_to_lvl` is None.
        Raises VerifyException (MLIR's message) when it is not valid."""
        if dim_to_lvl is None:
            dim_to_lvl = AffineMap.identity(len(lvl_types))
        lvl_to_dim = infer_lvl_to_dim(dim_to_lvl) or AffineMap(len(lvl_types), 0, ())
        slices = (
            tuple(s or DEFAULT_SLICE for s in dim_slices) if any(dim_slices) else ()
        )
        return SparseTensorEncodingAttr(
            Encoding(
                dim_to_lvl,
                lvl_to_dim,
                tuple(lvl_types),
                pos_width,
                crd_width,
                explicit_val,
                implicit_val,
                slices,
            )
        )

    @staticmethod
    def parse_text(text: str) -> SparseTensorEncodingAttr:
        """An encoding from its text, `#sparse_tensor.encoding<{...}>`.
        Raises XSparseError with a located message when it is not valid."""
        return parse_encoding(text)

    # -- queries ----------------------------------------------------------------

    @property
    def lvl_types(self) -> tuple[LevelType, ...]:
        return self.data.lvl_types

    @property
    def dim_to_lvl(self) -> AffineMap:
        return self.data.dim_to_lvl

    @property
    def lvl_to_dim(self) -> AffineMap:
        return self.data.lvl_to_dim

    @property
    def dim_rank(self) -> int:
        return self.data.dim_rank

    @property
    def lvl_rank(self) -> int:
        return self.data.lvl_rank

    @property
    def pos_width(self) -> int:
        return self.data.pos_width

    @property
    def crd_width(self) -> int:
        return self.data.crd_width

    @property
    def explicit_val(self) -> Attribute | None:
        return self.data.explicit_val

    @property
    def implicit_val(self) -> Attribute | None:
        return self.data.implicit_val

    @property
    def dim_slices(self) -> tuple[DimSlice | None, ...]:
        return self.data.dim_slices

    def is_identity(self) -> bool:
        """dimToLvl is the identity (no symbols)."""
        m = self.dim_to_lvl
        return m.num_symbols == 0 and m == AffineMap.identity(m.num_dims)

    def is_permutation(self) -> bool:
        """dimToLvl is a permutation of the dimensions (no symbols)."""
        m = self.dim_to_lvl
        if m.num_symbols or len(m.results) != m.num_dims:
            return False
        positions = [e.position for e in m.results if isinstance(e, AffineDimExpr)]
        return sorted(positions) == list(range(m.num_dims))

    def is_block(self) -> bool:
        """dimToLvl splits some dimensions into `floordiv`/`mod` blocks."""
        return block_sizes(self.dim_to_lvl) is not None

    def block_sizes(self) -> tuple[int, ...] | None:
        """Per level, the block size of each `mod` level (0 elsewhere)."""
        return block_sizes(self.dim_to_lvl)

    @property
    def pos_type(self) -> IndexType | IntegerType:
        """The element type of positions buffers."""
        return IndexType() if self.pos_width == 0 else IntegerType(self.pos_width)

    @property
    def crd_type(self) -> IndexType | IntegerType:
        """The element type of coordinates buffers."""
        return IndexType() if self.crd_width == 0 else IntegerType(self.crd_width)

    def is_all_dense(self) -> bool:
        """Every level is dense or batch: no overhead storage."""
        return all(lt.format in (DENSE, BATCH) for lt in self.lvl_types)

    def is_coo(self) -> bool:
        """Coordinate scheme: compressed(nonunique) or loose_compressed at the
        first level, singletons after it (MLIR's isCOOType from level 0)."""
        first, *rest = self.lvl_types
        rooted = first.format is LOOSE_COMPRESSED or (
            first.format is COMPRESSED and first.nonunique
        )
        return rooted and bool(rest) and all(lt.format is SINGLETON for lt in rest)

    def has_slices(self) -> bool:
        """Some dimension is a slice (`#sparse_tensor<slice(...)>`)."""
        return bool(self.dim_slices)


def _attr_text(attr: Attribute) -> str:
    """An explicit or implicit value as MLIR prints it (upper-case hexadecimal
    for floats that print as bits, such as NaN)."""
    from io import StringIO

    stream = StringIO()
    Printer(stream=stream).print_attribute(attr)
    text = stream.getvalue()
    if isinstance(attr, FloatAttr) and text.startswith(("0x", "-0x")):
        digits, _, rest = text.partition(" ")
        text = (
            digits[: digits.index("x") + 1]
            + digits[digits.index("x") + 1 :].upper()
            + " "
            + rest
        )
    return text


def parse_encoding(text: str) -> SparseTensorEncodingAttr:
    """`#sparse_tensor.encoding<{...}>` (or its body `<{...}>`) from text.
    Raises XSparseError with a located message when it is not valid."""
    from xdsl.context import Context
    from xdsl.dialects.builtin import Builtin
    from xdsl.parser import Parser
    from xdsl.utils.exceptions import ParseError

    from xsparse.xdsl_adapter import peek

    source = text.strip()
    if source.startswith("<"):
        source = "#sparse_tensor.encoding" + source
    ctx = Context(allow_unregistered=False)
    ctx.load_dialect(Builtin)
    ctx.load_attr_or_type(SparseTensorEncodingAttr)
    parser = Parser(ctx, source, "<encoding>")
    try:
        attr = parser.parse_attribute()
        parser.parse_optional_punctuation(",")
        if peek(parser).text:
            parser.raise_error("unexpected text after the encoding")
    except ParseError as e:
        raise XSparseError(format_parse_error(e)) from None
    if not isinstance(attr, SparseTensorEncodingAttr):
        raise XSparseError(
            f"<encoding>: error: expected a #sparse_tensor.encoding, got {attr}"
        )
    return attr


__all__ = [
    "DEFAULT_SLICE",
    "DimSlice",
    "Encoding",
    "SparseTensorDimSliceAttr",
    "SparseTensorEncodingAttr",
    "block_sizes",
    "infer_lvl_to_dim",
    "parse_encoding",
    "verify_encoding_for_tensor",
]
