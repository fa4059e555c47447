"""How the loops of one part of a decomposed product write C (seed 002).

A decomposed `C += A @ B` adds every part's product into C. When the
kernel computes `C = A @ B` instead (its `outs` is a `linalg.fill` of
zero, as in `C = zeros; C += A @ B`), C's old values are never read and
the zeros need not be written first: the first part initializes C and the
others add to it, or, where their rows hold no other part's entries,
overwrite them:

- `ACCUMULATE`: `C[row] += part[row] @ B` (load, add, store);
- `INITIALIZE`: `C[row] = part[row] @ B` for every row of C, zeros where
  the part has no entries: the first part, whose loop covers all rows (a
  CSR remainder, a BSR part);
- `OVERWRITE`: `C[row] = part[row] @ B` for the part's rows only, which
  no other part has entries in (an ELL bucket when the columns are one
  partition: a row is in one bucket, else in the remainder).

A row written once, with its final values, is stored non-temporally
(`vector.store {nontemporal = true, alignment = 32}`, MLIR 22's
attributes): the store does not read C's line first, which for rows of C
scattered over a large matrix (a bucket's) is a third of the traffic.
Such stores need C's vector rows aligned (C's address and row length
multiples of the vector), which the kernel checks once (`streams`);
elsewhere the same loops store as usual.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from xdsl.dialects import arith, memref, vector
from xdsl.dialects.builtin import BoolAttr, IndexType, IntegerAttr, VectorType, i64
from xdsl.ir import Attribute, SSAValue

from xsparse.dialects.type_guards import is_memref_type
from xsparse.transforms.codegen_utils.emitter import Emitter

INDEX = IndexType()
VECTOR_BYTES = 32
"""The vectors' size (256 bits), which non-temporal stores are aligned to."""


class Write(Enum):
    """How a part's loops write C (see the module's docstring)."""

    ACCUMULATE = "accumulate"
    INITIALIZE = "initialize"
    OVERWRITE = "overwrite"

    @property
    def reads(self) -> bool:
        """Whether the part adds to C's values."""
        return self is Write.ACCUMULATE


@dataclass(frozen=True)
class Output:
    """C (or y) as a part's loops write it."""

    buffer: SSAValue
    write: Write = Write.ACCUMULATE
    streams: SSAValue | None = None
    """An i1: C's vector rows are aligned for non-temporal stores (None:
    never stream)."""

    def with_write(self, write: Write) -> Output:
        return Output(self.buffer, write, self.streams)

    @property
    def element_type(self) -> Attribute:
        t = self.buffer.type
        assert is_memref_type(t)
        return t.element_type

    def start(
        self,
        e: Emitter,
        at: Sequence[Sequence[SSAValue]],
        t: VectorType[Attribute] | None,
        first: bool = True,
    ) -> list[SSAValue]:
        """The accumulators at the places `at` (vectors of type `t`, else
        scalars): C's values where the part adds to them or has stored a
        first pass over the row (not `first`), else zeros."""
        if self.write.reads or not first:
            if t is None:
                return [e.load(self.buffer, list(i)) for i in at]
            return [e.value(vector.LoadOp(self.buffer, list(i), t)) for i in at]
        zero = e.constant(0.0, self.element_type)
        if t is not None:
            zero = e.value(vector.BroadcastOp(zero, t))
        return [zero] * len(at)

    def finish(
        self,
        e: Emitter,
        values: Sequence[SSAValue],
        at: Sequence[Sequence[SSAValue]],
        final: bool | SSAValue = True,
    ) -> None:
        """Store the accumulators at `at`; `final` (a bool or an i1): they
        are the row's last values (a part that writes the row once streams
        them)."""
        vectors = bool(values) and isinstance(values[0].type, VectorType)
        if not vectors:
            for v, i in zip(values, at, strict=True):
                e.store(v, self.buffer, list(i))
            return
        if self.write.reads or final is False or self.streams is None:
            self._store_vectors(e, values, at, streaming=False)
            return
        streaming = (
            self.streams if isinstance(final, bool) else e.all_of([self.streams, final])
        )
        e.branch(
            streaming,
            lambda o: self._store_vectors(o, values, at, streaming=True),
            lambda o: self._store_vectors(o, values, at, streaming=False),
        )

    def _store_vectors(
        self,
        e: Emitter,
        values: Sequence[SSAValue],
        at: Sequence[Sequence[SSAValue]],
        streaming: bool,
    ) -> list[SSAValue]:
        for v, i in zip(values, at, strict=True):
            store = vector.StoreOp(v, self.buffer, list(i))
            if streaming:
                store.nontemporal = BoolAttr.from_bool(True)
                store.attributes["alignment"] = IntegerAttr(VECTOR_BYTES, i64)
            e.op(store)
        return []


def rows_stream(e: Emitter, c: SSAValue, lanes: int) -> SSAValue:
    """i1: every vector of `lanes` elements starting at a multiple of
    `lanes` in a row of the 2-d `c` is `VECTOR_BYTES`-aligned (c's address
    a multiple of it and its rows a whole number of vectors)."""
    address = e.value(memref.ExtractAlignedPointerAsIndexOp.get(c))
    misaligned = e.value(arith.RemUIOp(address, e.index(VECTOR_BYTES)))
    ragged = e.value(arith.RemUIOp(e.dim(c, 1), e.index(lanes)))
    zero = e.index(0)
    return e.all_of([e.cmp(misaligned, "eq", zero), e.cmp(ragged, "eq", zero)])
