"""xsparse.io: Matrix Market and FROSTT files round-trip SparseTensors of every
format (random, fixed seeds), agree with scipy.io.mmread, and malformed files
raise errors naming the file and line. Compiled code reads files with
`sparse_tensor.new` and writes them with `sparse_tensor.out`, and
assembles / disassembles tensors from / into level buffers."""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp

import xsparse
from xsparse import (
    FileFormatError,
    SparseTensor,
    read_mtx,
    read_tns,
    write_mtx,
    write_tns,
)
from xsparse.backend.tensor_files import read_for_new

DATA = Path(__file__).parent / "data"

CSR = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
CSC = "#sparse_tensor.encoding<{ map = (i, j) -> (j : dense, i : compressed) }>"
COO = (
    "#sparse_tensor.encoding<{ map = (i, j) -> "
    "(i : compressed(nonunique), j : singleton) }>"
)
DCSR = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed), "
    "posWidth = 32, crdWidth = 16 }>"
)
CSF = (
    "#sparse_tensor.encoding<{ map = (i, j, k) -> "
    "(i : compressed, j : compressed, k : compressed) }>"
)
FORMATS_2D = {"CSR": CSR, "CSC": CSC, "COO": COO, "DCSR": DCSR}


def random_dense(
    seed: int, shape: tuple[int, ...], density: float, empty_rows: bool = True
) -> np.ndarray[Any, Any]:
    rng = np.random.default_rng(seed)
    dense = rng.standard_normal(shape) * (rng.random(shape) < density)
    if empty_rows and shape[0] > 2:
        dense[1] = 0  # an empty row (slice) in the middle
    return dense


def same_storage(a: SparseTensor, b: SparseTensor) -> None:
    assert a.shape == b.shape
    assert a.encoding == b.encoding
    for x, y in zip(a.storage(), b.storage(), strict=True):
        np.testing.assert_array_equal(x, y)


# -- round trips ----------------------------------------------------------------


@pytest.mark.parametrize("name", FORMATS_2D)
@pytest.mark.parametrize(
    ("seed", "shape", "density"),
    [(0, (7, 9), 0.3), (1, (1, 1), 1.0), (2, (30, 20), 0.05), (3, (5, 4), 0.0)],
)
def test_matrix_round_trip(
    tmp_path: Path, name: str, seed: int, shape: tuple[int, int], density: float
) -> None:
    encoding = FORMATS_2D[name]
    tensor = SparseTensor.from_dense(random_dense(seed, shape, density), encoding)
    mtx, tns = tmp_path / "a.mtx", tmp_path / "a.tns"
    write_mtx(mtx, tensor)
    write_tns(tns, tensor)
    same_storage(read_mtx(mtx, encoding), tensor)
    same_storage(read_tns(tns, encoding), tensor)
    # scipy reads what we write, exactly
    np.testing.assert_array_equal(scipy.io.mmread(mtx).toarray(), tensor.to_dense())
    # and any format reads into any other
    np.testing.assert_array_equal(read_mtx(mtx, CSC).to_dense(), tensor.to_dense())


@pytest.mark.parametrize("seed", [0, 1])
def test_csf_round_trip(tmp_path: Path, seed: int) -> None:
    dense = random_dense(seed, (4, 6, 5), 0.2)
    tensor = SparseTensor.from_dense(dense, CSF)
    write_tns(tmp_path / "t.tns", tensor)
    same_storage(read_tns(tmp_path / "t.tns", CSF), tensor)
    coo = read_tns(tmp_path / "t.tns")  # default: sorted COO
    assert coo.encoding.lvl_types[0].nonunique
    np.testing.assert_array_equal(coo.to_dense(), dense)


def test_empty_matrices(tmp_path: Path) -> None:
    for shape in [(0, 0), (3, 0), (4, 5)]:
        tensor = SparseTensor.from_dense(np.zeros(shape), CSR)
        write_mtx(tmp_path / "e.mtx", tensor)
        back = read_mtx(tmp_path / "e.mtx")
        assert back.shape == shape and back.nse == 0
        write_tns(tmp_path / "e.tns", tensor)
        assert read_tns(tmp_path / "e.tns", CSR).shape == shape


def test_values_written_exactly(tmp_path: Path) -> None:
    values = np.array([1 / 3, -1e-300, 2.5e300, np.pi, -0.0])
    tensor = SparseTensor.from_coo(
        [[0, 0], [0, 1], [1, 1], [2, 0], [2, 2]], values, (3, 3), CSR
    )
    write_mtx(tmp_path / "v.mtx", tensor)
    np.testing.assert_array_equal(read_mtx(tmp_path / "v.mtx").values, values)


def test_scipy_and_numpy_inputs(tmp_path: Path) -> None:
    m = sp.random_array(
        (12, 8), density=0.2, format="csr", rng=np.random.default_rng(4)
    )
    write_mtx(tmp_path / "s.mtx", m)
    np.testing.assert_array_equal(read_mtx(tmp_path / "s.mtx").to_dense(), m.toarray())
    dense = np.arange(12, dtype=np.int32).reshape(3, 4)
    write_mtx(tmp_path / "i.mtx", dense)
    assert "integer" in (tmp_path / "i.mtx").read_text().splitlines()[0]
    back = read_mtx(tmp_path / "i.mtx")
    assert back.dtype == np.int64
    np.testing.assert_array_equal(back.to_dense(), dense)
    write_mtx(tmp_path / "p.mtx", dense, field="pattern")
    np.testing.assert_array_equal(read_mtx(tmp_path / "p.mtx").to_dense(), dense != 0)


def test_duplicates_are_summed(tmp_path: Path) -> None:
    path = tmp_path / "d.mtx"
    path.write_text(
        "%%MatrixMarket matrix coordinate real general\n2 2 3\n1 1 1.5\n1 1 2\n2 2 4\n"
    )
    np.testing.assert_array_equal(read_mtx(path).to_dense(), [[3.5, 0], [0, 4]])
    coo = read_mtx(path, COO)  # its last level is unique: one entry too
    assert coo.nse == 2
    np.testing.assert_array_equal(coo.to_dense(), [[3.5, 0], [0, 4]])


UNORDERED_COO = (
    "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique, "
    "nonordered), j : singleton(nonunique, nonordered)) }>"
)


@pytest.mark.parametrize("seed", range(3))
def test_unordered_coo_keeps_the_file_as_it_is(tmp_path: Path, seed: int) -> None:
    """An all-nonordered, all-nonunique COO stores the entries in file order,
    duplicates and all (scipy.io.mmread's layout, with no sort); a sorted COO
    of the same file holds them sorted and summed."""
    rng = np.random.default_rng(seed)
    nnz = int(rng.integers(0, 60))
    rows, cols = rng.integers(0, 7, nnz), rng.integers(0, 5, nnz)
    values = rng.standard_normal(nnz)
    path = tmp_path / "u.mtx"
    scipy.io.mmwrite(path, sp.coo_array((values, (rows, cols)), shape=(7, 5)))
    read = scipy.io.mmread(path, spmatrix=False)
    kept = read_mtx(path, UNORDERED_COO)
    np.testing.assert_array_equal(kept.positions[0], [0, nnz])
    np.testing.assert_array_equal(kept.coordinates[0], read.row)
    np.testing.assert_array_equal(kept.coordinates[1], read.col)
    np.testing.assert_array_equal(kept.values, read.data)
    sorted_coo = read_mtx(path, COO)
    order = np.lexsort((sorted_coo.coordinates[1], sorted_coo.coordinates[0]))
    np.testing.assert_array_equal(order, np.arange(sorted_coo.nse))
    np.testing.assert_allclose(kept.to_dense(), read.toarray())
    np.testing.assert_allclose(sorted_coo.to_dense(), read.toarray())


# -- what scipy reads ---------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["small.mtx", "symmetric.mtx", "pattern.mtx", "integer.mtx"]
)
def test_data_files_match_scipy(name: str) -> None:
    expected = scipy.io.mmread(DATA / name).toarray()
    np.testing.assert_array_equal(read_mtx(DATA / name).to_dense(), expected)
    np.testing.assert_array_equal(read_mtx(DATA / name, COO).to_dense(), expected)


@pytest.mark.parametrize("symmetry", ["symmetric", "skew-symmetric", "hermitian"])
def test_symmetric_files_are_expanded(tmp_path: Path, symmetry: str) -> None:
    rng = np.random.default_rng(5)
    lower = np.tril(rng.standard_normal((6, 6)) * (rng.random((6, 6)) < 0.5), -1)
    if symmetry == "hermitian":
        lower = lower + 1j * np.tril(rng.standard_normal((6, 6)), -1) * (lower != 0)
        full = lower + lower.conj().T + np.diag(rng.standard_normal(6))
    elif symmetry == "symmetric":
        full = lower + lower.T + np.diag(rng.standard_normal(6))
    else:
        full = lower - lower.T
    path = tmp_path / "s.mtx"
    scipy.io.mmwrite(path, sp.coo_array(full), symmetry=symmetry)
    assert symmetry in path.read_text().splitlines()[0]
    np.testing.assert_array_equal(
        read_mtx(path).to_dense(), scipy.io.mmread(path).toarray()
    )
    np.testing.assert_array_equal(read_mtx(path).to_dense(), full)
    # As stored: one triangle
    stored = read_mtx(path, expand_symmetry=False).to_dense()
    np.testing.assert_array_equal(stored, np.tril(full))


def test_complex_file(tmp_path: Path) -> None:
    full = np.array([[1 + 2j, 0], [0, -3.5j]])
    scipy.io.mmwrite(tmp_path / "c.mtx", sp.coo_array(full))
    t = read_mtx(tmp_path / "c.mtx")
    assert t.dtype == np.complex128
    np.testing.assert_array_equal(t.to_dense(), full)
    write_mtx(tmp_path / "c2.mtx", t)
    np.testing.assert_array_equal(scipy.io.mmread(tmp_path / "c2.mtx").toarray(), full)


def test_dtypes(tmp_path: Path) -> None:
    assert read_mtx(DATA / "small.mtx", dtype=np.float32).dtype == np.float32
    assert read_mtx(DATA / "integer.mtx", dtype=np.float64).dtype == np.float64
    assert read_mtx(DATA / "pattern.mtx", dtype=np.int32).dtype == np.int32
    with pytest.raises(
        FileFormatError, match="small.mtx: cannot read real values as int32"
    ):
        read_mtx(DATA / "small.mtx", dtype=np.int32)


def test_plain_frostt(tmp_path: Path) -> None:
    path = tmp_path / "p.tns"
    path.write_text("# no header\n1 2 3 1.5\n2 1 1 -2\n\n4 4 2 3\n")
    t = read_tns(path)
    assert t.shape == (4, 4, 3)
    expected = np.zeros((4, 4, 3))
    expected[0, 1, 2], expected[1, 0, 0], expected[3, 3, 1] = 1.5, -2, 3
    np.testing.assert_array_equal(t.to_dense(), expected)
    assert read_tns(path, shape=(5, 5, 5)).shape == (5, 5, 5)
    path.write_text("3 2\n3 4 5\n1 1 1 7\n3 4 5 -9\n")
    ints = read_tns(path, CSF, dtype=np.int64)
    assert ints.dtype == np.int64 and ints.shape == (3, 4, 5)
    np.testing.assert_array_equal(ints.values, [7, -9])
    with pytest.raises(
        FileFormatError, match="invalid value '1.5' \\(expected an integer\\)"
    ):
        read_tns(DATA / "tensor3.tns", dtype=np.int64)


# -- malformed files ------------------------------------------------------------


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


BANNER = "%%MatrixMarket matrix coordinate real general\n"


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("", 1, "not a Matrix Market file"),
        ("%%MatrixMarket matrix coordinate real\n", 1, "invalid MatrixMarket header"),
        (
            "%%MatrixMarket vector coordinate real general\n3 1\n1 1.0\n",
            None,
            "vector Matrix Market files not supported",
        ),
        ("%%MatrixMarket matrix coordinate quaternion general\n", 1, "quaternion"),
        ("%%MatrixMarket matrix coordinate real upper\n", 1, "element: upper"),
        (BANNER + "% only comments\n", 3, "header: Premature EOF"),
        (BANNER + "3 x 1\n", None, "invalid integer value"),
        (BANNER + "3 3 -1\n", 2, "matrix NNZ can't be negative"),
        (BANNER + "3 3 2\n1 1 1.0\n2 2\n", 4, "invalid floating-point value"),
        (BANNER + "3 3 2\n1 1 1.0\n2 b 1\n", 4, "invalid integer value"),
        (BANNER + "3 3 2\n1 1 1.0\n\n2 2 one\n", 5, "invalid floating-point"),
        (BANNER + "3 3 1\n0 1 1.0\n", 3, "row index out of bounds"),
        (BANNER + "3 4 2\n1 1 1.0\n2 5 1.0\n", 4, "column index out of bounds"),
        (BANNER + "3 3 1\n1 1 1.0\n2 2 2.0\n", 4, "too many lines in file"),
        (BANNER + "3 3 3\n1 1 1.0\n2 2 2.0\n", None, "truncated file"),
        (
            "%%MatrixMarket matrix coordinate real symmetric\n2 3 0\n",
            None,
            "a symmetric matrix must be square, found 2x3",
        ),
    ],
)
def test_malformed_mtx(
    tmp_path: Path, text: str, line: int | None, message: str
) -> None:
    """scipy's errors, as one line naming the file (and the line where scipy
    names one)."""
    path = _write(tmp_path, "bad.mtx", text)
    where = f"{path}" if line is None else f"{path}:{line}"
    with pytest.raises(FileFormatError, match=f"^{where}: [^\\n]*{message}") as info:
        read_mtx(path)
    assert info.value.path == str(path) and info.value.line == line
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("2 1\n3\n1 1 1.0\n", 2, "expected 2 dimension sizes"),
        ("2 2\n3 3\n1 1 1.0\n", 3, "expected 2 entries, found 1"),
        ("2 1\n3 3\n1 4 1.0\n", 3, "coordinate 4 of dimension 1 is out of range"),
        ("# c\n2 1\n3 3\n1 1 1.0 7\n", 4, "expected 3 fields"),
    ],
)
def test_malformed_tns(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = _write(tmp_path, "bad.tns", text)
    with pytest.raises(FileFormatError, match=f"^{path}:{line}: .*{message}"):
        read_tns(path, header=True)


def test_wrong_rank_and_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FileFormatError, match="rank-2 tensor, the encoding has 3"):
        read_mtx(DATA / "small.mtx", CSF)
    for name in ("missing.mtx", "missing.mtx.gz"):
        with pytest.raises(FileNotFoundError, match="No such file or directory"):
            read_mtx(tmp_path / name)
    with pytest.raises(ValueError, match="hold matrices"):
        write_mtx(tmp_path / "x.mtx", np.zeros((2, 2, 2)))


def test_large_file(tmp_path: Path) -> None:
    m = sp.random_array(
        (3000, 2000), density=0.01, format="coo", rng=np.random.default_rng(7)
    )
    scipy.io.mmwrite(tmp_path / "big.mtx", m)
    t = read_mtx(tmp_path / "big.mtx")
    np.testing.assert_array_equal(t.to_scipy().toarray(), m.toarray())


# -- compressed, open and array files ---------------------------------------------


@pytest.mark.parametrize("suffix", [".mtx", ".mtx.gz", ".mtx.bz2", ".txt"])
def test_compressed_files(tmp_path: Path, suffix: str) -> None:
    tensor = SparseTensor.from_dense(random_dense(11, (9, 7), 0.3), CSR)
    path = tmp_path / f"a{suffix}"
    write_mtx(path, tensor, comment="written\nby xsparse")
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no '.mtx' added
    same_storage(read_mtx(path), tensor)
    np.testing.assert_array_equal(scipy.io.mmread(path).toarray(), tensor.to_dense())


def test_open_files(tmp_path: Path) -> None:
    dense = random_dense(12, (6, 5), 0.4)
    text, binary = io.StringIO(), io.BytesIO()
    write_mtx(text, dense)
    write_mtx(binary, dense)
    assert text.getvalue().encode() == binary.getvalue()
    for stream in (io.StringIO(text.getvalue()), io.BytesIO(binary.getvalue())):
        np.testing.assert_array_equal(read_mtx(stream).to_dense(), dense)
    path = tmp_path / "a.mtx"
    path.write_bytes(binary.getvalue())
    for mode in ("r", "rb"):
        with open(path, mode) as f:
            np.testing.assert_array_equal(read_mtx(f, CSC).to_dense(), dense)
    read_end, write_end = os.pipe()
    os.write(write_end, binary.getvalue())
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        assert not pipe.seekable()
        np.testing.assert_array_equal(read_mtx(pipe).to_dense(), dense)
    read_end, write_end = os.pipe()
    with os.fdopen(write_end, "wb") as pipe:
        write_mtx(pipe, dense)
    with os.fdopen(read_end, "rb") as pipe:
        assert pipe.read() == binary.getvalue()


def test_open_file_errors_name_the_file(tmp_path: Path) -> None:
    text = BANNER + "3 3 1\n0 1 1.0\n"
    with pytest.raises(FileFormatError, match="^<file object>:3: row index"):
        read_mtx(io.StringIO(text))
    path = _write(tmp_path, "bad.mtx", text)
    with open(path) as f, pytest.raises(FileFormatError, match=f"^{path}:3: row"):
        read_mtx(f)


@pytest.mark.parametrize("symmetry", ["general", "symmetric", "skew-symmetric"])
def test_array_files(tmp_path: Path, symmetry: str) -> None:
    rng = np.random.default_rng(13)
    lower = np.tril(rng.standard_normal((5, 5)) * (rng.random((5, 5)) < 0.5), -1)
    full = {
        "general": random_dense(13, (5, 4), 0.5),
        "symmetric": lower + lower.T + np.diag(rng.standard_normal(5)),
        "skew-symmetric": lower - lower.T,
    }[symmetry]
    path = tmp_path / "d.mtx"
    scipy.io.mmwrite(path, full, symmetry=symmetry)
    assert path.read_text().startswith(f"%%MatrixMarket matrix array real {symmetry}")
    np.testing.assert_array_equal(read_mtx(path).to_dense(), full)
    stored = read_mtx(path, COO, expand_symmetry=False).to_dense()
    np.testing.assert_array_equal(
        stored, full if symmetry == "general" else np.tril(full)
    )


def test_mlir_reader_refuses_what_mlir_refuses(tmp_path: Path) -> None:
    scipy.io.mmwrite(tmp_path / "dense.mtx", np.ones((2, 3)))
    with pytest.raises(FileFormatError, match="array \\(dense\\) files are not"):
        read_for_new(str(tmp_path / "dense.mtx"))
    skew = sp.coo_array(np.array([[0.0, 1.0], [-1.0, 0.0]]))
    scipy.io.mmwrite(tmp_path / "skew.mtx", skew, symmetry="skew-symmetric")
    with pytest.raises(FileFormatError, match="skew-symmetric matrices are not"):
        read_for_new(str(tmp_path / "skew.mtx"))


# -- compiled code: sparse_tensor.new / out ------------------------------------------

READ_KERNEL = """
#ENC = ENCODING
func.func private @getTensorFilename(index) -> (!llvm.ptr)
func.func @read() -> tensor<?x?xf64, #ENC> {
  %c0 = arith.constant 0 : index
  %f = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)
  %t = sparse_tensor.new %f : !llvm.ptr to tensor<?x?xf64, #ENC>
  return %t : tensor<?x?xf64, #ENC>
}
"""

SPMV_FROM_FILE = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {
  indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                   affine_map<(i, j) -> (i)>],
  iterator_types = ["parallel", "reduction"]
}
func.func private @getTensorFilename(index) -> (!llvm.ptr)
func.func @spmv(%x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = call @getTensorFilename(%c0) : (index) -> (!llvm.ptr)
  %a = sparse_tensor.new %f : !llvm.ptr to tensor<?x?xf64, #CSR>
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  %out = call @getTensorFilename(%c1) : (index) -> (!llvm.ptr)
  sparse_tensor.out %a, %out : tensor<?x?xf64, #CSR>, !llvm.ptr
  bufferization.dealloc_tensor %a : tensor<?x?xf64, #CSR>
  return %0 : tensor<?xf64>
}
"""


@pytest.mark.parametrize("name", FORMATS_2D)
def test_compiled_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    kernel = xsparse.compile(READ_KERNEL.replace("ENCODING", FORMATS_2D[name]))
    for seed, shape in [(0, (9, 7)), (1, (4, 4)), (2, (0, 3))]:
        dense = random_dense(seed, shape, 0.3)
        write_mtx(tmp_path / "a.mtx", sp.coo_array(dense))
        monkeypatch.setenv("TENSOR0", str(tmp_path / "a.mtx"))
        result = kernel()
        assert isinstance(result, SparseTensor)
        expected = scipy.io.mmread(tmp_path / "a.mtx").toarray()
        np.testing.assert_array_equal(result.to_dense(), expected)
        same_storage(result, read_mtx(tmp_path / "a.mtx", FORMATS_2D[name]))


def test_compiled_spmv_on_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernel = xsparse.compile(SPMV_FROM_FILE)
    a = sp.random_array(
        (40, 30), density=0.1, format="coo", rng=np.random.default_rng(3)
    )
    scipy.io.mmwrite(tmp_path / "a.mtx", a)
    monkeypatch.setenv("TENSOR0", str(tmp_path / "a.mtx"))
    monkeypatch.setenv("TENSOR1", str(tmp_path / "a.tns"))
    x = np.random.default_rng(4).standard_normal(30)
    y = kernel(x, np.zeros(40))
    np.testing.assert_allclose(y, a.toarray() @ x)
    # sparse_tensor.out wrote what the kernel read, with 6 significant digits
    # as MLIR's writer (std::ostream) does
    written = read_tns(tmp_path / "a.tns")
    np.testing.assert_allclose(written.to_dense(), a.toarray(), rtol=1e-5)
    assert (tmp_path / "a.tns").read_text().startswith("# extended FROSTT format\n2 ")


def test_compiled_read_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    kernel = xsparse.compile(READ_KERNEL.replace("ENCODING", CSR))
    monkeypatch.delenv("TENSOR0", raising=False)
    with pytest.raises(LookupError, match="environment variable TENSOR0 is not set"):
        kernel()
    monkeypatch.setenv("TENSOR0", str(tmp_path / "missing.mtx"))
    with pytest.raises(FileNotFoundError):
        kernel()
    bad = _write(tmp_path, "bad.mtx", BANNER + "3 3 1\n1 9 1.0\n")
    monkeypatch.setenv("TENSOR0", str(bad))
    with pytest.raises(FileFormatError, match=f"{bad}:3: column index out of bounds"):
        kernel()
    monkeypatch.setenv("TENSOR0", str(DATA / "tensor3.tns"))
    with pytest.raises(FileFormatError, match="rank-3 tensor"):
        kernel()
    # the kernel still works after failures
    monkeypatch.setenv("TENSOR0", str(DATA / "small.mtx"))
    np.testing.assert_array_equal(
        kernel().to_dense(), scipy.io.mmread(DATA / "small.mtx").toarray()
    )


def test_compiled_read_checks_static_shape_and_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = READ_KERNEL.replace("ENCODING", CSR).replace("?x?xf64", "3x3xf64")
    kernel = xsparse.compile(source)
    monkeypatch.setenv("TENSOR0", str(DATA / "small.mtx"))
    with pytest.raises(
        FileFormatError, match="dimension 0 has size 4 in the file, 3 in"
    ):
        kernel()
    monkeypatch.setenv("TENSOR0", str(DATA / "symmetric.mtx"))
    # MLIR 22's reader keeps a symmetric file as stored
    np.testing.assert_array_equal(
        kernel().to_dense(),
        read_mtx(DATA / "symmetric.mtx", expand_symmetry=False).to_dense(),
    )
    ints = xsparse.compile(source.replace("f64", "i32"))
    with pytest.raises(FileFormatError, match="cannot read real values as int32"):
        ints()


# -- compiled code: assemble / disassemble -------------------------------------------

ASSEMBLE = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 32 }>
func.func @assemble(%pos: tensor<?xi32>, %crd: tensor<?xi32>, %val: tensor<?xf64>) -> tensor<4x6xf64, #CSR> {
  %t = sparse_tensor.assemble (%pos, %crd), %val
     : (tensor<?xi32>, tensor<?xi32>), tensor<?xf64> to tensor<4x6xf64, #CSR>
  return %t : tensor<4x6xf64, #CSR>
}
"""

DISASSEMBLE = """
#COO = #sparse_tensor.encoding<{ map = (i, j) -> (i : compressed(nonunique), j : singleton) }>
func.func @disassemble(%t: tensor<4x6xf64, #COO>, %pos: tensor<2xindex>, %crd: tensor<10x2xindex>, %val: tensor<10xf64>)
    -> (tensor<2xindex>, tensor<10x2xindex>, tensor<10xf64>, index, index, index) {
  %p, %c, %v, %lp, %lc, %lv = sparse_tensor.disassemble %t : tensor<4x6xf64, #COO>
      out_lvls(%pos, %crd : tensor<2xindex>, tensor<10x2xindex>) out_vals(%val : tensor<10xf64>)
      -> (tensor<2xindex>, tensor<10x2xindex>), tensor<10xf64>, (index, index), index
  return %p, %c, %v, %lp, %lc, %lv : tensor<2xindex>, tensor<10x2xindex>, tensor<10xf64>, index, index, index
}
"""


def test_compiled_assemble_shares_buffers() -> None:
    kernel = xsparse.compile(ASSEMBLE)
    dense = random_dense(8, (4, 6), 0.4)
    csr = sp.csr_array(dense)
    pos = csr.indptr.astype(np.int32)
    crd = np.concatenate([csr.indices, [99, 99]]).astype(np.int32)  # unused tail
    val = np.concatenate([csr.data, [7.0]])
    t = kernel(pos, crd, val)
    assert isinstance(t, SparseTensor)
    np.testing.assert_array_equal(t.to_dense(), dense)
    assert t.nse == csr.nnz
    assert np.shares_memory(t.values, val)  # a view of the argument


def test_compiled_disassemble_returns_used_lengths() -> None:
    kernel = xsparse.compile(DISASSEMBLE)
    dense = random_dense(9, (4, 6), 0.3)
    t = SparseTensor.from_dense(dense, COO)
    pos, crd, val, n_pos, n_crd, n_val = kernel(
        t, np.zeros(2, np.int64), np.zeros((10, 2), np.int64), np.zeros(10)
    )
    nse = t.nse
    assert (n_pos, n_crd, n_val) == (2, 2 * nse, nse)
    rows, cols = np.nonzero(dense)
    np.testing.assert_array_equal(pos, [0, nse])
    np.testing.assert_array_equal(crd[:nse], np.stack([rows, cols], axis=1))
    np.testing.assert_array_equal(val[:nse], dense[rows, cols])
