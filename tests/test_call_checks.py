"""A kernel checks its sparse arguments in native code on every call
(xsparse/backend/native_checks.py), so buffers changed after a tensor was
built never reach the kernel unchecked.

Generated, differential: random matrices in many encodings, their level
buffers corrupted one random way at a time and assigned into the tensor's
public `positions` / `coordinates` lists (what a user may do after
construction). The compiled checker must agree with the numpy validator
(`SparseTensor.validate`): where numpy refuses the buffers the call raises a
ValueError naming the argument, where numpy accepts them the call returns
what the buffers hold. The cases run in a child process, so a crash (the
checker letting bad buffers through) fails the test instead of pytest."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.sparse as sp

import xsparse
from xsparse.backend.outputs import worth_saving
from xsparse.backend.sparse_storage import SparseTensor

ENCODINGS = {
    "csr": "map = (i, j) -> (i : dense, j : compressed)",
    "csr32": "map = (i, j) -> (i : dense, j : compressed), posWidth = 32, crdWidth = 16",
    "csc": "map = (i, j) -> (j : dense, i : compressed)",
    "dcsr": "map = (i, j) -> (i : compressed, j : compressed)",
    "coo": "map = (i, j) -> (i : compressed(nonunique), j : singleton)",
    "coo_nonunique": "map = (i, j) -> (i : compressed(nonunique), j : singleton(nonunique))",
    "loose": "map = (i, j) -> (i : dense, j : loose_compressed)",
    "unordered": "map = (i, j) -> (i : dense, j : compressed(nonordered))",
    "bsr": "map = (i, j) -> (i floordiv 2 : dense, j floordiv 3 : compressed,"
    " i mod 2 : dense, j mod 3 : dense)",
    "nm24": "map = (i, j) -> (i : dense, j floordiv 4 : dense, j mod 4 : structured[2, 4])",
}
SHAPE = (6, 12)
CASES_PER_ENCODING = 40

CHILD = r"""
import json, sys
import numpy as np
import xsparse
from xsparse.backend.sparse_storage import SparseTensor

encodings, shape, cases = json.loads(sys.argv[1])
rows, cols = shape
report = []
for name, text in encodings.items():
    t = f"tensor<{rows}x{cols}xf64, #E>"
    kernel = xsparse.compile(
        f"#E = #sparse_tensor.encoding<{{ {text} }}>\n"
        f"func.func @dense(%t: {t}) -> tensor<{rows}x{cols}xf64> {{\n"
        f"  %d = sparse_tensor.convert %t : {t} to tensor<{rows}x{cols}xf64>\n"
        f"  return %d : tensor<{rows}x{cols}xf64>\n}}\n"
    )
    encoding = kernel.signature.inputs.data[0].encoding
    for seed in range(cases):
        rng = np.random.default_rng(seed)
        dense = rng.integers(1, 9, shape).astype(np.float64)
        dense[rng.random(shape) < 0.6] = 0.0
        if name == "nm24":  # at most 2 nonzeros in each block of 4
            blocks = dense.reshape(rows, cols // 4, 4)
            blocks[:, :, 2:] = 0.0
        tensor = SparseTensor.from_dense(dense, encoding)
        buffers = [
            (kind, level, b)
            for kind, lists in (("positions", tensor.positions), ("coordinates", tensor.coordinates))
            for level, b in enumerate(lists)
            if b is not None and b.size
        ]
        kind, level, buffer = buffers[int(rng.integers(len(buffers)))]
        changed = np.array(buffer)
        how = ["value", "swap", "truncate", "grow"][int(rng.integers(4))]
        k = int(rng.integers(changed.shape[0]))
        if how == "value":
            changed[k] = int(rng.integers(0, max(shape) + 3))
        elif how == "swap" and changed.shape[0] >= 2:
            j = min(k + 1, changed.shape[0] - 1)
            changed[[k, j]] = changed[[j, k]]
        elif how == "truncate":
            changed = changed[:k]
        else:
            changed = np.append(changed, changed[-1:])
        getattr(tensor, kind)[level] = changed  # the public list, after construction
        try:
            SparseTensor(
                tensor.encoding, tensor.shape, tensor.positions, tensor.coordinates,
                tensor.values,
            )
            numpy_verdict = "valid"
        except (ValueError, TypeError) as e:
            numpy_verdict = f"invalid: {e}"
        try:
            result = kernel(tensor)
            native = "valid"
            coords, _ = tensor.to_coo()
            repeated = len({tuple(c) for c in coords.tolist()}) < coords.shape[0]
            # (a nonunique COO's repeated entries: to_dense sums them, the
            # compiled convert keeps one; not what these cases test)
            expected = tensor.to_dense() if numpy_verdict == "valid" else None
            same = repeated or (
                expected is not None and bool(np.array_equal(result, expected))
            )
        except ValueError as e:
            native, same = f"invalid: {e}", True
        report.append([name, seed, how, kind, numpy_verdict, native, same])
print(json.dumps(report))
"""


@pytest.fixture(scope="module")
def report() -> list[list[object]]:
    args = json.dumps([ENCODINGS, SHAPE, CASES_PER_ENCODING])
    child = subprocess.run(
        [sys.executable, "-c", CHILD, args], capture_output=True, text=True, timeout=900
    )
    assert child.returncode == 0, (
        f"the child crashed ({child.returncode}): {child.stderr[-3000:]}"
    )
    return json.loads(child.stdout)


def test_native_checks_agree_with_numpy_validation(report: list[list[object]]) -> None:
    assert len(report) == len(ENCODINGS) * CASES_PER_ENCODING
    disagreements = [
        row for row in report if (str(row[4]) == "valid") != (str(row[5]) == "valid")
    ]
    assert not disagreements, disagreements[:5]
    wrong = [row for row in report if not row[6]]
    assert not wrong, wrong[:5]


def test_corruptions_are_refused_by_naming_the_argument(
    report: list[list[object]],
) -> None:
    refused = [str(row[5]) for row in report if str(row[5]) != "valid"]
    assert len(refused) >= len(report) // 3  # the generator mostly corrupts
    assert all(r.startswith("invalid: argument 0 of dense(): ") for r in refused)


SPMV = (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()


def test_a_scipy_matrix_changed_after_scipy_checked_it_is_refused() -> None:
    kernel = xsparse.compile(SPMV)
    a = sp.random_array((20, 30), density=0.3, format="csr", random_state=1)
    assert a.has_canonical_format  # scipy remembers it
    x = np.ones(30)
    np.testing.assert_allclose(kernel(a, x, np.zeros(20)), a @ x)
    a.indices[3] = 10_000  # past the columns: scipy's verdict is stale
    with pytest.raises(ValueError, match="argument 0 of kernel\\(\\): .* out of range"):
        kernel(a, x, np.zeros(20))


def test_validate_false_skips_the_checks() -> None:
    kernel = xsparse.compile(SPMV)
    a = SparseTensor.from_scipy(
        sp.random_array((20, 30), density=0.3, format="csr", random_state=2),
        kernel.signature.inputs.data[0].encoding,  # type: ignore[attr-defined]
    )
    x = np.arange(30.0)
    np.testing.assert_allclose(
        kernel(a, x, np.zeros(20), validate=False), a.to_dense() @ x
    )


def test_a_format_the_kernel_does_not_take_is_converted_with_a_warning() -> None:
    kernel = xsparse.compile(SPMV)
    a = sp.random_array((12, 9), density=0.3, format="csr", random_state=3)
    x = np.arange(9.0)
    for other in (a.tocsc(), a.tocoo(), a.toarray()):
        with pytest.warns(xsparse.ConversionWarning, match="argument 0 of kernel"):
            np.testing.assert_allclose(kernel(other, x, np.zeros(12)), a @ x)


def test_an_argument_of_another_rank_is_refused_before_any_conversion() -> None:
    kernel = xsparse.compile(SPMV)
    x = np.arange(9.0)
    for wrong in (np.ones(12), np.ones((2, 3, 4))):
        with pytest.raises(
            ValueError, match=r"argument 0 of kernel\(\): expected a rank-2"
        ):
            kernel(wrong, x, np.zeros(12))


def _at_odd_address(
    array: np.ndarray[Any, Any], offset: int = 3
) -> np.ndarray[Any, Any]:
    """A copy of `array` whose data starts `offset` bytes into a buffer (not
    aligned to its element), as Dask's deserialized frames deliver arrays."""
    buffer = bytearray(array.nbytes + offset)
    copy = np.frombuffer(buffer, array.dtype, array.size, offset).reshape(array.shape)
    copy[...] = array
    return copy


def test_arrays_at_odd_addresses_give_numpys_results() -> None:
    kernel = xsparse.compile(SPMV)
    a: Any = sp.random_array((300, 200), density=0.1, format="csr", rng=1)
    rng = np.random.default_rng(0)
    x, b = rng.standard_normal(200), rng.standard_normal((200, 64))
    odd_x, y = _at_odd_address(x), _at_odd_address(np.zeros(300))  # y += A @ x
    assert not odd_x.flags.aligned and not y.flags.aligned
    np.testing.assert_allclose(kernel(a, odd_x, y), a @ x)
    np.testing.assert_allclose(y, a @ x)
    buffers = [_at_odd_address(a.data), _at_odd_address(a.indices)]
    buffers.append(_at_odd_address(a.indptr))
    odd_a = sp.csr_array((buffers[0], buffers[1], buffers[2]), shape=a.shape)
    np.testing.assert_allclose(kernel(odd_a, odd_x, np.zeros(300)), a @ x)
    out = _at_odd_address(np.full((300, 64), np.nan))
    xsparse.composable.decompose(a).matmul(_at_odd_address(b), out=out)
    np.testing.assert_allclose(out, a @ b)


def test_strict_refuses_conversions_but_not_the_kernels_own_format() -> None:
    kernel = xsparse.compile(SPMV)
    a = sp.random_array((12, 9), density=0.3, format="csr", random_state=3)
    x = np.arange(9.0)
    with pytest.raises(TypeError, match="scipy csc matrix would be converted"):
        kernel(a.tocsc(), x, np.zeros(12), strict=True)
    np.testing.assert_allclose(kernel(a, x, np.zeros(12), strict=True), a @ x)


def test_conversions_of_arguments_are_compiled_converts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """CSC, COO (duplicates summed, as scipy does), BSR, dense and other
    SparseTensor layouts reach a CSR kernel through the compiled
    `sparse_tensor.convert`, not the Python level-buffer builder."""
    kernel = xsparse.compile(SPMV)

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the Python builder ran")

    rng = np.random.default_rng(4)
    a = sp.random_array((40, 30), density=0.2, format="csr", random_state=4)
    coo = a.tocoo()
    doubled = sp.coo_array(
        (
            np.r_[coo.data, coo.data[:5]],
            (np.r_[coo.row, coo.row[:5]], np.r_[coo.col, coo.col[:5]]),
        ),
        shape=a.shape,
    )
    dcsr = SparseTensor.from_scipy(
        a,
        "#sparse_tensor.encoding<{ map = (i, j) -> (i : compressed, j : compressed) }>",
    )
    x = rng.standard_normal(30)
    monkeypatch.setattr(SparseTensor, "from_coo", refuse)
    cases = [
        (a.tocsc(), a),
        (doubled, doubled.tocsr()),
        (a.tobsr((2, 3)), a),
        (a.toarray(), a),
        (dcsr, a),
        (sp.csc_array((40, 30)), sp.csr_array((40, 30))),
    ]
    for given, same in cases:
        with pytest.warns(xsparse.ConversionWarning):
            got = kernel(given, x, np.zeros(40))
        np.testing.assert_allclose(got, same @ x, atol=1e-12)


GATHER_CHILD = r"""
import json, sys
import numpy as np
import xsparse
from xsparse.backend.sparse_storage import SparseTensor

spmv, widths, shape, cases = json.loads(sys.argv[1])
rows, cols = shape
report = []
for width in widths:
  for vl in (1, 8):
    enc = "map = (i, j) -> (i : dense, j : compressed)" + width
    kernel = xsparse.compile(
        spmv.replace("map = (i, j) -> (i : dense, j : compressed)", enc), vl=vl
    )
    encoding = kernel.signature.inputs.data[0].encoding
    for seed in range(cases):
        rng = np.random.default_rng(seed)
        dense = rng.integers(1, 9, shape).astype(np.float64)
        dense[rng.random(shape) < 0.5] = 0.0
        tensor = SparseTensor.from_dense(dense, encoding)
        positions, coordinates = tensor.positions[1], np.array(tensor.coordinates[1])
        how = ["swap", "repeat", "value", "positions"][int(rng.integers(4))]
        k = int(rng.integers(max(coordinates.shape[0] - 1, 1)))
        if how == "swap" and coordinates.shape[0] >= 2:
            coordinates[[k, k + 1]] = coordinates[[k + 1, k]]
        elif how == "repeat" and coordinates.shape[0] >= 2:
            coordinates[k + 1] = coordinates[k]
        elif how == "value" and coordinates.shape[0]:
            coordinates[k] = int(rng.integers(0, cols + 3))
        elif how == "positions":
            changed = np.array(positions)
            changed[int(rng.integers(1, rows + 1))] = int(rng.integers(0, changed[-1] + 3))
            tensor.positions[1] = changed
        tensor.coordinates[1] = coordinates
        p = np.asarray(tensor.positions[1], dtype=np.int64)
        c = coordinates.astype(np.int64)
        valid_range = bool(c.size == 0 or c.max() < cols)
        valid_positions = p[0] == 0 and bool(np.all(np.diff(p) >= 0)) and p[-1] == c.size
        x = rng.random(cols)
        for scratch in (False, True):
            y = np.full(rows, 0.5)
            try:
                kernel(tensor, x, y, scratch_outputs=scratch)
                verdict = "ran"
                same = valid_range and valid_positions and bool(np.allclose(y, [
                    0.5 + sum(tensor.values[q] * x[c[q]] for q in range(p[i], p[i + 1]))
                    for i in range(rows)
                ]))
            except ValueError as e:
                verdict = f"refused: {e}"
                # Checked before the kernel, unless the output is scratch.
                same = not (valid_range and valid_positions) and (
                    scratch or bool(np.all(y == 0.5))
                )
            report.append([width, vl, seed, how, scratch, verdict, same])
print(json.dumps(report))
"""


def test_a_kernel_that_only_gathers_with_coordinates_checks_their_range_not_order() -> (
    None
):
    """SpMV reads A's column coordinates only to gather from x: what it relies
    on is their range and the positions, not their order or uniqueness
    (`native_checks` classifies the kernel's uses of each buffer), and the
    kernel checks their range itself as it reads them (`fused_checks`).
    Generated corruptions of a CSR tensor after construction (swapped or
    repeated coordinates, a random coordinate, a random position), scalar and
    vector kernels, in a child process: order-only changes run and give the
    sum over the stored entries (as scipy does for such a matrix);
    out-of-range coordinates and bad positions are refused, before the kernel
    writes its output unless the caller says it is scratch."""
    widths = ["", ", posWidth = 32, crdWidth = 32", ", crdWidth = 16"]
    args = json.dumps([SPMV, widths, [7, 11], 40])
    child = subprocess.run(
        [sys.executable, "-c", GATHER_CHILD, args],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert child.returncode == 0, f"the child crashed: {child.stderr[-3000:]}"
    report = json.loads(child.stdout)
    assert len(report) == 3 * 2 * 40 * 2
    assert all(row[6] for row in report), [row for row in report if not row[6]][:5]
    kinds = {(row[3], row[4], str(row[5]).split(":")[0]) for row in report}
    for scratch in (False, True):
        assert {
            ("swap", scratch, "ran"),
            ("repeat", scratch, "ran"),
            ("value", scratch, "refused"),
        } <= kinds


def test_a_kernel_that_merges_coordinates_still_needs_them_sorted() -> None:
    """An elementwise product of two CSR matrices co-iterates their
    coordinates: unsorted ones are refused."""
    kernel = xsparse.compile(
        (Path(__file__).parent / "kernels" / "csr_mul_dcsr_dense_out.mlir").read_text()
    )
    inputs = kernel.signature.inputs.data
    dense = np.array([[1.0, 2.0, 0.0, 3.0], [0.0, 4.0, 5.0, 0.0]])
    a = SparseTensor.from_dense(dense, inputs[0].encoding)  # type: ignore[attr-defined]
    b = SparseTensor.from_dense(dense, inputs[1].encoding)  # type: ignore[attr-defined]
    np.testing.assert_allclose(kernel(a, b, np.zeros((2, 4))), dense * dense)
    a.coordinates[1] = np.array(a.coordinates[1])[[1, 0, 2, 3, 4]]
    with pytest.raises(ValueError, match="argument 0 of .*sorted"):
        kernel(a, b, np.zeros((2, 4)))


def _with_column(good: SparseTensor, where: int, column: int) -> SparseTensor:
    """`good` with entry `where`'s column (level 1) replaced, unchecked."""
    coordinates = [np.array(c) if c is not None else None for c in good.coordinates]
    coordinates[1][where] = column  # type: ignore[index]
    return SparseTensor(
        good.encoding,
        good.shape,
        good.positions,
        coordinates,
        good.values,
        validate=False,
    )


@pytest.mark.parametrize(
    ("kernel_file", "columns"),
    [("spmv_csr.mlir", None), ("spmv_coo.mlir", None), ("spmm_csr.mlir", 5)],
)
@pytest.mark.parametrize("threads", [1, 2, 4])
def test_a_coordinate_out_of_range_found_inside_the_kernel_is_refused(
    kernel_file: str, columns: int | None, threads: int
) -> None:
    """Where the kernel checks the range of the coordinates it gathers with
    (scratch outputs, or an output it saves first), a bad one anywhere (its
    rows on any thread) is a ValueError naming the argument, and valid ones
    give scipy's result."""
    kernel = xsparse.compile(
        (Path(__file__).parent / "kernels" / kernel_file).read_text()
    )
    assert kernel.checks_range_in_kernel
    encoding = kernel.signature.inputs.data[0].encoding  # type: ignore[attr-defined]
    rows, cols = 3000, 200
    a = sp.random_array((rows, cols), density=0.05, format="csr", random_state=3)
    x = np.random.default_rng(4).random(cols if columns is None else (cols, columns))
    out_shape = (rows,) if columns is None else (rows, columns)
    previous = xsparse.get_num_threads()
    xsparse.set_num_threads(threads)
    try:
        good = SparseTensor.from_scipy(a, encoding)
        np.testing.assert_allclose(
            kernel(good, x, np.zeros(out_shape), scratch_outputs=True), a @ x
        )
        for where in (0, a.nnz // 2, a.nnz - 1):
            for bad in (cols, 2**31 - 1):
                tensor = _with_column(good, where, bad)
                with pytest.raises(ValueError, match="argument 0 of .*out of range"):
                    kernel(tensor, x, np.zeros(out_shape), scratch_outputs=True)
                # Not scratch: the output is as it was, whether the kernel
                # saved its rows and put them back (SpMV's y, written row by
                # row) or the coordinates were checked before it (SpMM's C).
                y = np.random.default_rng(where).random(out_shape)
                before = y.copy()
                assert worth_saving(kernel.written, (tensor, x, y)) == (columns is None)
                with pytest.raises(ValueError, match="argument 0 of .*out of range"):
                    kernel(tensor, x, y)
                np.testing.assert_array_equal(y, before)
    finally:
        xsparse.set_num_threads(previous)


def test_spmv_puts_back_its_output_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """SpMV writes y row by row in one loop: the kernel saves each row as it
    starts it and puts them back after a failed range check, so the call
    copies nothing first (`fused_checks.restore_outputs_on_failure`)."""
    from xsparse.backend import kernel as kernel_module

    def no_copy(*args: object) -> None:
        raise AssertionError("the call copied the outputs")

    kernel = xsparse.compile(SPMV)
    monkeypatch.setattr(kernel_module, "save_outputs", no_copy)
    a = sp.random_array((500, 300), density=0.05, format="csr", random_state=5)
    x = np.random.default_rng(6).random(300)
    y = np.random.default_rng(7).random(500)
    expected = y + a @ x
    np.testing.assert_allclose(kernel(a, x, y), expected)
    good = SparseTensor.from_scipy(a, kernel.signature.inputs.data[0].encoding)  # type: ignore[attr-defined]
    bad = _with_column(good, a.nnz // 3, 300)
    for threads in (1, 2, 4):
        previous = xsparse.get_num_threads()
        xsparse.set_num_threads(threads)
        try:
            before = y.copy()
            with pytest.raises(ValueError, match="argument 0 of .*out of range"):
                kernel(bad, x, y)
            np.testing.assert_array_equal(y, before)
        finally:
            xsparse.set_num_threads(previous)
