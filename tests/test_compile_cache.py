"""xsparse.compile caches kernels by source text and options: a second call in
the process returns the same Kernel, and a new process loads the object code
and signatures from the disk cache without parsing or running any pass; the
metadata it loads is checked against its schema and the kernel's signature
(`kernel_metadata`) before a kernel is made of it."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from xdsl.dialects.builtin import FunctionType
from xdsl.parser import Parser

import xsparse
from xsparse.backend import kernel_metadata
from xsparse.backend.kernel import clear_memory_caches
from xsparse.dialect_registry import make_context

KERNEL = (Path(__file__).parent / "kernels" / "spmv_csr.mlir").read_text()
SIGNATURE = Parser(
    make_context(),
    "(tensor<?x?xf64, #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, "
    "j : compressed) }>>, tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>",
).parse_type()
assert isinstance(SIGNATURE, FunctionType)

NEW_PROCESS = """
import numpy as np, scipy.sparse as sp
import xsparse.backend.kernel as kernel

def refuse(*args, **kwargs):
    raise AssertionError("compiled again instead of loading from the disk cache")

kernel._compile_kernel = refuse
k = kernel.compile(SOURCE)
a = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
print(k(a, np.array([1.0, 2.0, 3.0]), np.zeros(2)).tolist())
"""


FIRST_PROCESS = """
import numpy as np, scipy.sparse as sp
import xsparse
k = xsparse.compile(SOURCE)
k(sp.csr_array(np.eye(2)), np.ones(2), np.zeros(2))  # and its int32 variant
"""


def test_same_process_returns_the_same_kernel() -> None:
    assert xsparse.compile(KERNEL) is xsparse.compile(KERNEL)
    assert xsparse.compile(KERNEL) is not xsparse.compile(KERNEL, opt_level=2)


def test_new_process_loads_from_disk(tmp_path: Path) -> None:
    env = {**os.environ, "XSPARSE_CACHE_DIR": str(tmp_path)}
    first = subprocess.run(
        [sys.executable, "-c", f"SOURCE = {KERNEL!r}\n" + FIRST_PROCESS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert first.returncode == 0
    assert any(p.suffix == ".json" for p in tmp_path.iterdir())
    second = subprocess.run(
        [sys.executable, "-c", f"SOURCE = {KERNEL!r}\n" + NEW_PROCESS],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert second.stdout.strip() == str(np.array([7.0, 6.0]).tolist())


SHAPE_CHECKED = """
import numpy as np, scipy.sparse as sp
import xsparse.backend.kernel as kernel

def refuse(*args, **kwargs):
    raise AssertionError("compiled again instead of loading from the disk cache")

kernel._compile_kernel = refuse
k = kernel.compile(SOURCE)
a = sp.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
try:
    k(a, np.ones(2), np.zeros(2))
except ValueError as e:
    print(e)
"""


def test_a_kernel_from_disk_keeps_its_shape_check(tmp_path: Path) -> None:
    env = {**os.environ, "XSPARSE_CACHE_DIR": str(tmp_path)}
    for script in (FIRST_PROCESS, SHAPE_CHECKED):
        done = subprocess.run(
            [sys.executable, "-c", f"SOURCE = {KERNEL!r}\n" + script],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    assert "operands disagree on a loop's size" in done.stdout, done.stderr


@pytest.fixture
def metadata(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[dict[str, Any]]:
    """The metadata `compile` keeps for SpMV, as `kernel_metadata` loads it."""
    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(tmp_path))
    clear_memory_caches()
    xsparse.compile(KERNEL)
    clear_memory_caches()
    (entry,) = tmp_path.glob("*.kernel.json")
    meta = kernel_metadata.load(entry.name)
    assert meta is not None
    yield meta


def test_metadata_has_every_field_of_the_schema(metadata: dict[str, Any]) -> None:
    assert sorted(metadata) == sorted(kernel_metadata.FIELDS)
    assert kernel_metadata.schema_problem(metadata) is None
    kernel_metadata.check_positions(metadata, SIGNATURE.inputs.data)


@pytest.mark.parametrize("field", sorted(kernel_metadata.FIELDS))
def test_a_missing_or_mistyped_field_is_named(
    field: str, metadata: dict[str, Any]
) -> None:
    missing = {k: v for k, v in metadata.items() if k != field}
    assert kernel_metadata.schema_problem(missing) == f"no field {field!r}"
    for wrong in (None, 1.5, {"x": 1}, [[["0"]]]):
        mistyped = {**metadata, field: wrong}
        assert kernel_metadata.schema_problem(mistyped) == (
            f"field {field!r} has the wrong type or value"
        )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("written", [3], "written names argument 3 of 3"),
        ("written", [-1], "written names argument -1 of 3"),
        ("narrowable", [[5, "csr"]], "narrowable names argument 5"),
        ("checkers", {"9": ["c", "() -> ()"]}, "checkers names argument 9"),
        ("shared_sizes", [[[0, 2]]], "dimension 2 of argument 0"),
        ("shared_sizes", [[[-1, -4]]], "negative size -4"),
        ("shared_sizes", [[[-2, 0]]], "names argument -2"),
        ("index_bounds", [[[1, 0], "m", [[1, 1]]]], "dimension 1 of argument 1"),
    ],
)
def test_a_position_the_signature_lacks_is_refused(
    field: str, value: object, message: str, metadata: dict[str, Any]
) -> None:
    edited = {**metadata, field: value}
    assert kernel_metadata.schema_problem(edited) is None
    with pytest.raises(kernel_metadata.UnusableMetadata, match=message):
        kernel_metadata.check_positions(edited, SIGNATURE.inputs.data)
