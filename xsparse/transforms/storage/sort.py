"""Sorting the coordinates that `sparse_tensor.compress` inserts (part of
`sparse-tensor-codegen`).

MLIR 22 sorts them with `sparse_tensor.sort` (a quick sort, insertion sort
below a cutoff). The coordinates `compress` sorts are distinct integers below
the innermost level size, a few to a few hundred per row in SpGEMM, so
comparison sorts lose most of their time to mispredicted branches. Here a
private function, emitted once per module and element type, sorts:

* n <= SORT_CUTOFF entries with an insertion sort;
* more with one distribution pass: bucket `(c - min) >> shift`, the shift
  chosen so that there are at most n buckets (about one entry each for
  spread-out coordinates); a counting pass, a scatter from a copy, then an
  insertion sort over the whole buffer, which moves entries only within their
  bucket. A bucket holding more than SORT_CUTOFF entries (clustered
  coordinates) is heap-sorted first, so the worst case stays O(n log n).
"""

from __future__ import annotations

from xdsl.dialects import arith, func, memref
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
    MemRefType,
    ModuleOp,
)
from xdsl.ir import Attribute, Block, Region, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from xsparse.dialects.type_guards import is_memref_type
from xsparse.dialects.upstream import arith as upstream_arith
from xsparse.dialects.upstream import memref as upstream_memref
from xsparse.transforms.codegen_utils.emitter import GLOBAL_PREFIX, Emitter
from xsparse.transforms.codegen_utils.op_emitter import INDEX

SORT_CUTOFF = 16
"""At most this many entries are insertion-sorted directly (measured: the
distribution pass wins from about 16 distinct random coordinates up)."""

I1 = IntegerType(1)


def sort_coordinates(e: Emitter, buffer: SSAValue, n: SSAValue) -> None:
    """Sort the first n elements of a 1-D integer or index buffer in place
    (ascending, unsigned), with a call to the module's sort function for the
    buffer's element type."""
    t = buffer.type
    assert is_memref_type(t)
    dynamic = MemRefType(t.element_type, [DYNAMIC_INDEX])
    if t != dynamic:
        buffer = e.value(upstream_memref.CastOp(buffer, dynamic))
    name = f"{GLOBAL_PREFIX}sort_{t.element_type}"
    module = e.module()
    if SymbolTable.lookup_symbol(module, name) is None:
        sort = _sort_function(e.rewriter, module, name, dynamic)
        e.rewriter.insert(sort, InsertPoint.at_end(module.body.block))
    e.op(func.CallOp(name, [buffer, n], []))


def _sort_function(
    rewriter: PatternRewriter, module: ModuleOp, name: str, t: MemRefType[Attribute]
) -> func.FuncOp:
    """`func.func private @name(%buffer, %n)`: the sort described above."""
    block = Block(arg_types=[t, INDEX])
    e = Emitter(rewriter, InsertPoint.at_end(block), module)
    buffer, n = block.args
    small = e.cmp(n, "ule", e.index(SORT_CUTOFF))

    def direct(b: Emitter) -> list[SSAValue]:
        insertion_sort(b, buffer, b.index(0), n)
        return []

    def distribute(b: Emitter) -> list[SSAValue]:
        _bucket_sort(b, buffer, n)
        return []

    e.branch(small, direct, distribute)
    e.op(func.ReturnOp())
    return func.FuncOp(name, ([t, INDEX], []), Region(block), "private")


# -- pieces ---------------------------------------------------------------------


def _load_index(e: Emitter, buffer: SSAValue, i: SSAValue) -> SSAValue:
    return e.to_index(e.load(buffer, [i]))


def insertion_sort(e: Emitter, buffer: SSAValue, lo: SSAValue, hi: SSAValue) -> None:
    """Sort buffer[lo:hi] in place by insertion."""

    def insert(b: Emitter, i: SSAValue) -> None:
        value = b.load(buffer, [i])

        def larger_before(c: Emitter, carried: list[SSAValue]) -> SSAValue:
            j = carried[0]
            inside = c.cmp(j, "ugt", lo)
            # buffer[lo] when j == lo: a valid read whose result is unused.
            before = c.value(upstream_arith.SelectOp(inside, c.sub(j, c.index(1)), lo))
            larger = c.cmp(c.load(buffer, [before]), "ugt", value)
            return c.value(arith.AndIOp(inside, larger))

        def shift(c: Emitter, carried: list[SSAValue]) -> list[SSAValue]:
            before = c.sub(carried[0], c.index(1))
            c.store(c.load(buffer, [before]), buffer, [carried[0]])
            return [before]

        j = b.while_loop([i], larger_before, shift)[0]
        b.store(value, buffer, [j])

    e.for_each(e.add(lo, e.index(1)), hi, insert)


def _bucket_sort(e: Emitter, buffer: SSAValue, n: SSAValue) -> None:
    """The distribution pass for n > SORT_CUTOFF entries, then the fix-ups."""
    t = buffer.type
    assert is_memref_type(t)
    zero, one = e.index(0), e.index(1)
    first = _load_index(e, buffer, zero)

    def bounds(b: Emitter, i: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        v = _load_index(b, buffer, i)
        return [
            b.value(arith.MinUIOp(carried[0], v)),
            b.value(arith.MaxUIOp(carried[1], v)),
        ]

    low, high = e.loop(one, n, [first, first], bounds)
    spread = e.sub(high, low)

    def too_many(b: Emitter, carried: list[SSAValue]) -> SSAValue:
        return b.cmp(b.value(arith.ShRUIOp(spread, carried[0])), "uge", n)

    shift = e.while_loop([zero], too_many, lambda b, s: [b.add(s[0], b.index(1))])[0]
    buckets = e.add(e.value(arith.ShRUIOp(spread, shift)), one)

    def bucket_of(b: Emitter, v: SSAValue) -> SSAValue:
        return b.value(arith.ShRUIOp(b.sub(b.to_index(v), low), shift))

    # ends[k + 1] counts bucket k, then (prefix sums) ends where it starts.
    ends = e.alloc(MemRefType(INDEX, [DYNAMIC_INDEX]), [e.add(buckets, one)])
    e.fill(ends, zero)
    copy = e.alloc(MemRefType(t.element_type, [DYNAMIC_INDEX]), [n])

    def count(b: Emitter, i: SSAValue) -> None:
        v = b.load(buffer, [i])
        b.store(v, copy, [i])
        slot = b.add(bucket_of(b, v), b.index(1))
        b.store(b.add(b.load(ends, [slot]), b.index(1)), ends, [slot])

    e.for_each(zero, n, count)

    def accumulate(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        total = b.add(carried[0], b.load(ends, [k]))
        b.store(total, ends, [k])
        return [total]

    e.loop(one, e.add(buckets, one), [zero], accumulate)

    def scatter(b: Emitter, i: SSAValue) -> None:
        v = b.load(copy, [i])
        k = bucket_of(b, v)
        at = b.load(ends, [k])
        b.store(v, buffer, [at])
        b.store(b.add(at, b.index(1)), ends, [k])

    e.for_each(zero, n, scatter)

    # Now ends[k] is the end of bucket k.
    def crowded(b: Emitter, k: SSAValue, carried: list[SSAValue]) -> list[SSAValue]:
        start, end = carried[0], b.load(ends, [k])
        large = b.cmp(b.sub(end, start), "ugt", b.index(SORT_CUTOFF))
        b.when(large, lambda c: heap_sort(c, buffer, start, end))
        return [end]

    e.loop(zero, buckets, [zero], crowded)
    e.op(memref.DeallocOp.get(ends))
    e.op(memref.DeallocOp.get(copy))
    insertion_sort(e, buffer, zero, n)


def heap_sort(e: Emitter, buffer: SSAValue, lo: SSAValue, hi: SSAValue) -> None:
    """Sort buffer[lo:hi] in place (heap sort)."""
    n = e.sub(hi, lo)
    one = e.index(1)
    half = e.value(arith.DivUIOp(n, e.index(2)))

    def heapify(b: Emitter, i: SSAValue) -> None:
        _sift_down(b, buffer, lo, b.sub(b.sub(half, i), one), n)

    e.for_each(e.index(0), half, heapify)

    def extract(b: Emitter, i: SSAValue) -> None:
        end = b.sub(n, i)
        last = b.add(lo, end)
        top, bottom = b.load(buffer, [lo]), b.load(buffer, [last])
        b.store(bottom, buffer, [lo])
        b.store(top, buffer, [last])
        _sift_down(b, buffer, lo, b.index(0), end)

    e.for_each(one, n, extract)


def _sift_down(
    e: Emitter, buffer: SSAValue, lo: SSAValue, root: SSAValue, end: SSAValue
) -> None:
    """Move the heap's node `root` down the max-heap of `end` nodes stored at
    buffer[lo:] to its place."""

    def at(b: Emitter, node: SSAValue) -> SSAValue:
        return b.add(lo, node)

    def left_of(b: Emitter, node: SSAValue) -> SSAValue:
        return b.add(b.mul(node, b.index(2)), b.index(1))

    def has_child(b: Emitter, carried: list[SSAValue]) -> SSAValue:
        node, going = carried
        return b.value(arith.AndIOp(going, b.cmp(left_of(b, node), "ult", end)))

    def step(a: Emitter, carried: list[SSAValue]) -> list[SSAValue]:
        node = carried[0]
        left = left_of(a, node)
        right = a.add(left, a.index(1))
        has_right = a.cmp(right, "ult", end)
        right_or_left = a.value(upstream_arith.SelectOp(has_right, right, left))
        left_value = a.load(buffer, [at(a, left)])
        right_value = a.load(buffer, [at(a, right_or_left)])
        take_right = a.value(
            arith.AndIOp(has_right, a.cmp(left_value, "ult", right_value))
        )
        child = a.value(upstream_arith.SelectOp(take_right, right_or_left, left))
        child_value = a.value(
            upstream_arith.SelectOp(take_right, right_value, left_value)
        )
        node_value = a.load(buffer, [at(a, node)])
        swap = a.cmp(node_value, "ult", child_value)

        def exchange(s: Emitter) -> None:
            s.store(child_value, buffer, [at(s, node)])
            s.store(node_value, buffer, [at(s, child)])

        a.when(swap, exchange)
        return [child, swap]

    e.while_loop([root, e.constant(1, I1)], has_child, step)
