"""The package as a user meets it: `dir(xsparse)` lists the API before any
of it loads, and `python -m xsparse` answers `--version` and `--help`."""

from __future__ import annotations

import re
import subprocess
import sys
from importlib.metadata import version
from typing import cast

import llvmlite.binding as llvm

import xsparse


def run_python(*args: str) -> str:
    done = subprocess.run(
        [sys.executable, *args], capture_output=True, text=True, check=True
    )
    return done.stdout


def test_dir_lists_the_lazy_api_without_loading_it() -> None:
    script = (
        "import sys, xsparse; names = dir(xsparse); "
        "print(sorted(names)); print('xsparse.backend.kernel' in sys.modules)"
    )
    names, loaded = run_python("-c", script).splitlines()
    for name in xsparse.__all__:
        assert repr(name) in names, name
    assert loaded == "False"


def test_version() -> None:
    line = run_python("-m", "xsparse", "--version").strip()
    llvm_version_info = cast("tuple[int, int, int]", llvm.llvm_version_info)
    llvm_version = ".".join(map(str, llvm_version_info))
    assert line == (
        f"xsparse {xsparse.__version__} (xDSL {version('xdsl')}, "
        f"llvmlite {version('llvmlite')}, LLVM {llvm_version})"
    )
    assert re.fullmatch(
        r"xsparse \S+ \(xDSL \S+, llvmlite \S+, LLVM \d+\.\d+\.\d+\)", line
    )


def test_help() -> None:
    text = run_python("-m", "xsparse", "--help")
    assert text.startswith("usage: python -m xsparse")
    for name in ("xsparse-opt", "xsparse-run", "xsparse.compile", "--version"):
        assert name in text
    assert run_python("-m", "xsparse") == text


def test_submodules_load_on_first_use() -> None:
    script = (
        "import sys, xsparse; before = 'xsparse.two_four' in sys.modules; "
        "names = dir(xsparse); prune = xsparse.two_four.prune; "
        "print(before, 'two_four' in names, 'dask' in names, "
        "'xsparse.two_four' in sys.modules)"
    )
    assert run_python("-c", script).split() == ["False", "True", "True", "True"]


def test_license_and_type_marker_ship_with_the_package() -> None:
    """Type checkers see our hints (PEP 561's `py.typed`) and the wheel
    carries the license that pyproject names (`license-files`)."""
    from importlib.resources import files
    from pathlib import Path

    assert files("xsparse").joinpath("py.typed").is_file()
    root = Path(xsparse.__file__).resolve().parent.parent
    pyproject = (root / "pyproject.toml").read_text()
    assert 'license = "Apache-2.0"' in pyproject
    assert '[tool.setuptools.package-data]\nxsparse = ["py.typed"]' in pyproject
    names = re.search(r"^license-files = \[(.*)\]$", pyproject, re.M)
    assert names is not None
    for name in re.findall(r'"([^"]+)"', names.group(1)):
        text = (root / name).read_text()
        assert "Apache License" in text and "Version 2.0, January 2004" in text
