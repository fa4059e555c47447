"""A kernel cache that cannot hurt (issue 14, deliverable 4): a damaged,
truncated or unreadable entry is never loaded (each case in a child process,
where loading garbage object code would kill the process), but compiled again
and replaced; the cache's location follows XSPARSE_CACHE_DIR and
XDG_CACHE_HOME; its size is bounded (least recently used entries go first);
and it can be cleared."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

import xsparse
from xsparse.backend import disk_cache
from xsparse.backend.kernel import clear_memory_caches

ROOT = Path(__file__).resolve().parent.parent
KERNEL = (ROOT / "tests" / "kernels" / "spmv_csr.mlir").read_text()

CHILD = """
import numpy as np, scipy.sparse as sp
import xsparse
k = xsparse.compile(SOURCE)
a = sp.csr_array(sp.random(40, 30, density=0.2, random_state=0))
a.indptr, a.indices = a.indptr.astype(np.int64), a.indices.astype(np.int64)  # one kernel
x = np.linspace(-1.0, 2.0, 30)
y = k(a, x, np.zeros(40))
assert np.allclose(y, a @ x), (y, a @ x)
print("ok")
"""


def python(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, *args]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)


def run_child(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Compile and call the SpMV kernel in a new process; it must succeed."""
    done = python(env, "-c", f"SOURCE = {KERNEL!r}\n{CHILD}")
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr
    return done


def child_env(cache: Path) -> dict[str, str]:
    env = {**os.environ, "XSPARSE_CACHE_DIR": str(cache)}
    env.pop("XSPARSE_CACHE_MAX_BYTES", None)
    return env


@pytest.fixture(scope="module")
def filled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding the SpMV kernel (its `.o` and `.kernel.json`)."""
    cache = tmp_path_factory.mktemp("filled")
    run_child(child_env(cache))
    assert len(list(cache.glob("*.o"))) == 1
    assert len(list(cache.glob("*.kernel.json"))) == 1
    return cache


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """An empty cache of this test's own, for this process too."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(folder))
    monkeypatch.delenv("XSPARSE_CACHE_MAX_BYTES", raising=False)
    clear_memory_caches()
    yield folder
    clear_memory_caches()


def truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def empty(path: Path) -> None:
    path.write_bytes(b"")


def garbage(path: Path) -> None:
    path.write_bytes(os.urandom(path.stat().st_size))


def flip_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0x40
    path.write_bytes(bytes(data))


def without_header(path: Path) -> None:
    """The bare payload, as entries were written before they had a checksum."""
    path.write_bytes(path.read_bytes()[disk_cache.HEADER.size :])


def non_utf8(path: Path) -> None:
    """Checksummed, but not UTF-8."""
    path.write_bytes(disk_cache.pack(b'{"name": "\xff\xfe"}'))


def malformed_json(path: Path) -> None:
    """Checksummed, but not the metadata of a kernel."""
    path.write_bytes(disk_cache.pack(b'{"name": [1, 2'))


def wrong_json(path: Path) -> None:
    path.write_bytes(disk_cache.pack(b"[1, 2, 3]"))


def unreadable(path: Path) -> None:
    path.chmod(0)


def fifo(path: Path) -> None:
    """A named pipe: reading it would block forever."""
    path.unlink()
    os.mkfifo(path)


def directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


DAMAGED = [truncate, empty, garbage, flip_byte, without_header, fifo, directory]
"""What `load` refuses, with a CacheWarning (on either kind of file)."""
UNEXPECTED = [non_utf8, malformed_json, wrong_json]
"""Whole entries whose metadata `kernel` cannot use: silently compiled again."""
CASES = (
    [(suffix, d, True) for suffix in (".o", ".kernel.json") for d in DAMAGED]
    + [(".o", unreadable, True)]
    + [(".kernel.json", d, False) for d in UNEXPECTED]
)


@pytest.mark.parametrize(
    ("suffix", "damage", "warns"),
    CASES,
    ids=[f"{d.__name__}-{suffix.rsplit('.', 1)[1]}" for suffix, d, _ in CASES],
)
def test_damaged_entry_is_compiled_again_and_replaced(
    suffix: str,
    damage: Callable[[Path], None],
    warns: bool,
    filled: Path,
    tmp_path: Path,
) -> None:
    if damage is unreadable and os.geteuid() == 0:
        pytest.skip("root reads files without read permission")
    cache = tmp_path / "cache"
    shutil.copytree(filled, cache)
    (path,) = [p for p in cache.iterdir() if p.name.endswith(suffix)]
    original = path.read_bytes()
    damage(path)
    done = run_child(child_env(cache))
    assert ("CacheWarning" in done.stderr) == warns, done.stderr
    # Replaced by a whole entry (the same one: compiling is deterministic).
    assert path.is_file()
    contents = path.read_bytes()
    assert isinstance(disk_cache.unpack(contents), bytes)
    if suffix == ".kernel.json":
        assert contents == original
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        p.name for p in filled.iterdir()
    )


def test_unreadable_entry_is_ignored_and_removed(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `unreadable-o` (skipped as root, who reads anything), in this process."""
    name = "c" * 64 + ".o"
    disk_cache.store(name, b"object code")
    real_open = os.open

    def refuse(path: str | os.PathLike[str], flags: int, mode: int = 0o777) -> int:
        if Path(path).name == name:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, mode)

    monkeypatch.setattr(os, "open", refuse)
    with pytest.warns(disk_cache.CacheWarning, match="Permission denied"):
        assert disk_cache.load(name) is None
    assert not (cache / name).exists()


def test_location_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XSPARSE_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert disk_cache.directory() == tmp_path / "home" / ".cache" / "xsparse"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/ignored")
    assert disk_cache.directory() == tmp_path / "home" / ".cache" / "xsparse"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert disk_cache.directory() == tmp_path / "xdg" / "xsparse"
    monkeypatch.setenv("XSPARSE_CACHE_DIR", str(tmp_path / "mine"))
    assert disk_cache.directory() == tmp_path / "mine"


def test_kernels_go_to_xdg_cache_home(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("XSPARSE_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    clear_memory_caches()
    try:
        xsparse.compile(KERNEL)
    finally:
        clear_memory_caches()
    names = [p.name for p in (tmp_path / "xsparse").iterdir()]
    assert sorted(n.split(".", 1)[1] for n in names) == ["kernel.json", "o"]


def sizes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.iterdir())


def test_least_recently_used_kernel_is_evicted(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    xsparse.compile(KERNEL)
    first = {p.name for p in cache.iterdir()}
    (first_object,) = [n for n in first if n.endswith(".o")]
    long_ago = time.time() - 1000
    for p in cache.iterdir():  # the object code first, as compile writes them
        used = long_ago + p.name.endswith(".json")
        os.utime(p, (used, used))
    limit = sizes(cache) * 3 // 2
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", str(limit))
    xsparse.compile(KERNEL, opt_level=2)  # other object code, other metadata
    left = {p.name for p in cache.iterdir()}
    assert first_object not in left  # the first kernel cannot be loaded any more
    assert sorted(n.split(".", 1)[1] for n in left - first) == ["kernel.json", "o"]
    assert sizes(cache) <= limit


def test_a_hit_makes_an_entry_recent(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"{c * 64}.o" for c in "abc"]
    entry_size = len(disk_cache.pack(b"x" * 100))
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", str(2 * entry_size))
    (cache / "notes.txt").parent.mkdir(parents=True)
    (cache / "notes.txt").write_text("not an entry: never removed")
    for age, name in zip((30, 20), names[:2], strict=True):
        disk_cache.store(name, b"x" * 100)
        os.utime(cache / name, (time.time() - age, time.time() - age))
    assert disk_cache.load(names[0]) == b"x" * 100  # now the most recent
    disk_cache.store(names[2], b"x" * 100)
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [names[0], names[2], "notes.txt"]
    )


def test_a_limit_below_one_entry_keeps_the_last_one(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", "1")
    disk_cache.store("a" * 64 + ".o", b"first")
    disk_cache.store("b" * 64 + ".o", b"second")
    assert [p.name for p in cache.iterdir()] == ["b" * 64 + ".o"]


def test_an_invalid_limit_warns_and_keeps_the_default(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", "lots")
    with pytest.warns(disk_cache.CacheWarning, match="XSPARSE_CACHE_MAX_BYTES"):
        assert disk_cache.max_bytes() == disk_cache.DEFAULT_MAX_BYTES
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", "4096")
    assert disk_cache.max_bytes() == 4096


def test_a_missing_entry_is_silent(cache: Path) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert disk_cache.load("d" * 64 + ".o") is None


def test_clear_cache_empties_disk_and_memory(cache: Path) -> None:
    kernel = xsparse.compile(KERNEL)
    (cache / "notes.txt").write_text("kept")
    assert xsparse.clear_cache() == 2
    assert [p.name for p in cache.iterdir()] == ["notes.txt"]
    assert xsparse.compile(KERNEL) is not kernel
    assert len(list(cache.iterdir())) == 3


def test_command_line_clears_the_cache(cache: Path) -> None:
    disk_cache.store("e" * 64 + ".kernel.json", json.dumps({}).encode())
    disk_cache.store("f" * 64 + ".o", b"object code")
    (cache / "notes.txt").write_text("kept")
    stale = cache / f"{disk_cache.TEMPORARY_PREFIX}x{disk_cache.TEMPORARY_SUFFIX}"
    stale.write_bytes(b"half")
    env = child_env(cache)
    for command, expected in (
        ("path", str(cache)),
        ("info", "entries:   2"),
        ("clear", "removed 3 files"),
    ):
        done = python(env, "-m", "xsparse.backend.disk_cache", command)
        assert done.returncode == 0 and expected in done.stdout, done.stderr
    assert [p.name for p in cache.iterdir()] == ["notes.txt"]
