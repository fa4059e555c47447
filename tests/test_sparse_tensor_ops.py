"""The sparse_tensor ops built from Python, as the sparsifier builds them:
result types are inferred from the encoding, and the ops verify and print as
MLIR 22 prints them."""

from xdsl.context import Context
from xdsl.dialects import arith, builtin, func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    FloatAttr,
    IndexType,
    IntegerType,
    MemRefType,
    TensorType,
    f64,
)
from xdsl.ir import Block, Region
from xdsl.parser import Parser

from xsparse.dialects.sparse_tensor import SparseTensor, SparseTensorEncodingAttr
from xsparse.dialects.sparse_tensor.ops_conversion import ConvertOp, LoadOp, PrintOp
from xsparse.dialects.sparse_tensor.ops_insertion import (
    CompressOp,
    ExpandOp,
    PushBackOp,
)
from xsparse.dialects.sparse_tensor.ops_iteration import ExtractIterSpaceOp, IterateOp
from xsparse.dialects.sparse_tensor.ops_storage import (
    LvlOp,
    ToCoordinatesOp,
    ToPositionsOp,
    ToValuesOp,
)
from xsparse.dialects.sparse_tensor.types import IteratorType, StorageSpecifierType


def _encoding(text: str) -> SparseTensorEncodingAttr:
    ctx = Context()
    ctx.load_dialect(builtin.Builtin)
    ctx.load_dialect(SparseTensor)
    attr = Parser(ctx, text).parse_attribute()
    assert isinstance(attr, SparseTensorEncodingAttr)
    return attr


CSR = _encoding(
    "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed), posWidth = 32 }>"
)
COO = _encoding(
    "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : compressed(nonunique), d1 : singleton) }>"
)


def _in_func(
    *arg_types: TensorType | MemRefType | IndexType,
) -> tuple[func.FuncOp, Block]:
    block = Block(arg_types=arg_types)
    return func.FuncOp("f", (arg_types, ()), Region(block)), block


def test_buffers_infer_their_types():
    fn, block = _in_func(TensorType(f64, [4, 8], COO), TensorType(f64, [4, 8], CSR))
    coo, csr = block.args
    pos = ToPositionsOp(csr, 1)
    crd = ToCoordinatesOp(coo, 1)
    val = ToValuesOp(csr)
    c0 = arith.ConstantOp.from_int_and_width(0, IndexType())
    lvl = LvlOp(csr, c0)
    block.add_ops([pos, crd, val, c0, lvl, func.ReturnOp()])
    fn.verify()
    assert pos.result.type == MemRefType(IntegerType(32), [DYNAMIC_INDEX])
    assert val.result.type == MemRefType(f64, [DYNAMIC_INDEX])
    assert str(crd.result.type) == "memref<?xindex, strided<[?], offset: ?>>"
    assert str(pos).startswith(
        "%0 = sparse_tensor.positions %1 {level = 1 : index} : tensor<4x8xf64, "
    )


def test_insertion_ops():
    tensor = TensorType(f64, [4, 4], CSR)
    fn, block = _in_func(tensor, IndexType(), MemRefType(f64, [DYNAMIC_INDEX]))
    t, i, buf = block.args
    expand = ExpandOp(t)
    values, filled, added, count = expand.results
    compress = CompressOp(values, filled, added, count, t, [i])
    load = LoadOp(compress, has_inserts=True)
    conv = ConvertOp(load, TensorType(f64, [4, 4]))
    value = arith.ConstantOp(FloatAttr(1.0, f64))
    push = PushBackOp(i, buf, value, inbounds=True)
    block.add_ops(
        [expand, compress, load, conv, value, push, PrintOp(t), func.ReturnOp()]
    )
    fn.verify()
    assert [str(r.type) for r in expand.results] == [
        "memref<?xf64>",
        "memref<?xi1>",
        "memref<?xindex>",
        "index",
    ]
    assert compress.result.type == tensor
    assert "hasInserts" in str(load)
    assert push.out_buffer.type == buf.type
    assert str(push).startswith("%0, %1 = sparse_tensor.push_back inbounds")


def test_iteration_and_specifier_types():
    fn, block = _in_func(TensorType(f64, [4, 8], COO))
    space = ExtractIterSpaceOp(block.args[0])
    loop = IterateOp(space, crd_used_lvls=[0])
    block.add_ops([space, loop, func.ReturnOp()])
    fn.verify()
    assert loop.iterator.type == IteratorType.get(COO, 0, 1)
    assert len(loop.crds) == 1
    # The specifier keeps only what alters storage: no nonunique, no widths.
    spec = StorageSpecifierType(COO)
    assert "nonunique" not in str(spec)
    assert StorageSpecifierType(CSR) == StorageSpecifierType(
        _encoding(
            "#sparse_tensor.encoding<{ map = (d0, d1) -> (d0 : dense, d1 : compressed) }>"
        )
    )
