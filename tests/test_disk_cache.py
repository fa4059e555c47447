"""A kernel cache that cannot hurt (issue 14, deliverable 4; issue 37,
deliverable 6): a damaged, truncated, unreadable or unauthenticated entry
(another user's, or another kernel's under this kernel's name) is never
loaded (each case in a child process, where loading garbage object code
would kill the process), but compiled again and replaced; a directory that
is not this user's alone is not used at all; the cache's location follows
XSPARSE_CACHE_DIR and XDG_CACHE_HOME; its size is bounded (least recently
used entries go first); and it can be cleared."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
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
TRANSPOSED = (ROOT / "tests" / "kernels" / "spmv_transposed_csr.mlir").read_text()
"""A kernel of SpMV's signature and entry name, computing A^T x."""

OTHER_UID = 12345
"""A user that owns nothing of ours (the tests run as root, who can chown)."""

CHILD = """
import resource
resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
import numpy as np, scipy.sparse as sp
import xsparse
import xsparse.backend.kernel as kernel

compile_kernel = kernel._compile_kernel

def counted(*args, **kwargs):
    print("compiled")
    return compile_kernel(*args, **kwargs)

kernel._compile_kernel = counted
k = xsparse.compile(SOURCE)
a = sp.csr_array(sp.random(40, 30, density=0.2, random_state=0))
a.indptr, a.indices = a.indptr.astype(np.int64), a.indices.astype(np.int64)  # one kernel
x = np.linspace(-1.0, 2.0, 30)
y = k(a, x, np.zeros(40))
assert np.allclose(y, a @ x), (y, a @ x)
try:  # the shape check is there
    k(a, np.ones(29), np.zeros(40))
    raise AssertionError("x of 29 entries accepted for A of 30 columns")
except ValueError:
    pass
print("ok")
"""


def python(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, *args]
    return subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True)


def run_child(
    env: dict[str, str], source: str = KERNEL
) -> subprocess.CompletedProcess[str]:
    """Compile and call the SpMV kernel in a new process; it must succeed (its
    stdout says "compiled" first when it did not come from the disk cache)."""
    done = python(env, "-c", f"SOURCE = {source!r}\n{CHILD}")
    assert done.returncode == 0 and done.stdout.split()[-1:] == ["ok"], done.stderr
    return done


def compiled(done: subprocess.CompletedProcess[str]) -> bool:
    return done.stdout.split() == ["compiled", "ok"]


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


def key_of(path: Path) -> bytes:
    """The key of the cache directory that holds `path`."""
    return (path.parent / disk_cache.KEY_NAME).read_bytes()


def seal(path: Path, payload: bytes, key: bytes | None = None) -> None:
    """Write `payload` as the entry `path`, authenticated under `key` (by
    default the directory's own: as xsparse itself would write it)."""
    path.write_bytes(disk_cache.pack(key or key_of(path), path.name, payload))


def payload_of(path: Path) -> bytes:
    found = disk_cache.unpack(key_of(path), path.name, path.read_bytes())
    assert isinstance(found, bytes), found
    return found


def metadata_of(path: Path) -> dict[str, object]:
    return json.loads(payload_of(path))


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
    """The bare payload, as entries were written before they had a header."""
    path.write_bytes(path.read_bytes()[disk_cache.HEADER.size :])


def checksummed_garbage(path: Path) -> None:
    """Garbage behind a header whose length and sha256 are right: what any
    user could write (a checksum detects accidents, not substitution)."""
    payload = os.urandom(path.stat().st_size)
    digest = hashlib.sha256(payload).digest()
    path.write_bytes(
        disk_cache.HEADER.pack(disk_cache.MAGIC, len(payload), digest) + payload
    )


def garbage_under_another_key(path: Path) -> None:
    seal(path, os.urandom(path.stat().st_size), key=os.urandom(32))


def copy_under_another_key(path: Path) -> None:
    """The right payload, planted by someone who does not hold the key."""
    seal(path, payload_of(path), key=os.urandom(32))


def unreadable(path: Path) -> None:
    path.chmod(0)


def fifo(path: Path) -> None:
    """A named pipe: reading it would block forever."""
    path.unlink()
    os.mkfifo(path)


def directory(path: Path) -> None:
    path.unlink()
    path.mkdir()


def non_utf8(path: Path) -> None:
    """Authenticated, but not UTF-8."""
    seal(path, b'{"name": "\xff\xfe"}')


def malformed_json(path: Path) -> None:
    """Authenticated, but not JSON."""
    seal(path, b'{"name": [1, 2')


def wrong_json(path: Path) -> None:
    seal(path, b"[1, 2, 3]")


Damage = Callable[[Path], None]
Edit = Callable[[dict[str, object]], None]


def edited(change: Edit, key: bytes | None = None) -> Damage:
    """A damage that edits the kernel's metadata, authenticated under `key`
    (by default the directory's own)."""

    def damage(path: Path) -> None:
        meta = metadata_of(path)
        change(meta)
        seal(path, json.dumps(meta).encode(), key)

    return damage


def drop_written(meta: dict[str, object]) -> None:
    del meta["written"]


def drop_checkers(meta: dict[str, object]) -> None:
    del meta["checkers"]


def checkers_as_list(meta: dict[str, object]) -> None:
    meta["checkers"] = [["0", "check"]]


def position_as_bool(meta: dict[str, object]) -> None:
    meta["written"] = [True]


def position_out_of_range(meta: dict[str, object]) -> None:
    meta["written"] = [7]


def dimension_out_of_range(meta: dict[str, object]) -> None:
    meta["shared_sizes"] = [[[0, 1], [1, 5]]]


def scalar_signature(meta: dict[str, object]) -> None:
    """Another signature, whose arguments have none of the dimensions named."""
    meta["signature"] = "(f64, f64, f64) -> f64"


def module_not_a_key(meta: dict[str, object]) -> None:
    meta["module"] = "../../etc/passwd"


def no_shape_check(meta: dict[str, object]) -> None:
    """No shared sizes: x's length unchecked against A's columns (the kernel
    would read past x)."""
    meta["shared_sizes"] = []


def checksummed(change: Edit) -> Damage:
    """An edit behind a right length and sha256, without the key."""

    def damage(path: Path) -> None:
        meta = metadata_of(path)
        change(meta)
        payload = json.dumps(meta).encode()
        digest = hashlib.sha256(payload).digest()
        header = disk_cache.HEADER.pack(disk_cache.MAGIC, len(payload), digest)
        path.write_bytes(header + payload)

    damage.__name__ = f"checksummed_{change.__name__}"
    return damage


def named(damage: Damage, name: str) -> Damage:
    damage.__name__ = name
    return damage


FORGED = "not authenticated"
DAMAGED: list[tuple[Damage, str]] = [
    (truncate, "bytes of payload instead of"),
    (empty, "truncated: 0 bytes"),
    (garbage, "no xsparse cache header"),
    (flip_byte, FORGED),
    (without_header, "no xsparse cache header"),
    (checksummed_garbage, FORGED),
    (garbage_under_another_key, FORGED),
    (copy_under_another_key, FORGED),
    (fifo, "not a regular file"),
    (directory, "Is a directory"),
]
"""What `load` refuses (on either kind of file), and the CacheWarning's reason."""
UNUSABLE_METADATA: list[tuple[Damage, str]] = [
    (non_utf8, "not JSON: UnicodeDecodeError"),
    (malformed_json, "not JSON: JSONDecodeError"),
    (wrong_json, "not a JSON object but list"),
    *(
        (named(edited(change), change.__name__), reason)
        for change, reason in (
            (drop_written, "no field 'written'"),
            (drop_checkers, "no field 'checkers'"),
            (checkers_as_list, "field 'checkers' has the wrong type"),
            (position_as_bool, "field 'written' has the wrong type"),
            (position_out_of_range, "written names argument 7 of 3"),
            (dimension_out_of_range, "names dimension 5 of argument 1"),
            (scalar_signature, "names dimension 0 of argument 0"),
            (module_not_a_key, "field 'module' has the wrong type"),
        )
    ),
    (
        named(
            edited(no_shape_check, key=b"k" * 32), "no_shape_check_under_another_key"
        ),
        FORGED,
    ),
    (checksummed(no_shape_check), FORGED),
    (checksummed(drop_written), FORGED),
]
"""Kernel metadata that `kernel_metadata` or `disk_cache` refuses, with a
CacheWarning: authenticated but not a kernel's, or edited without the key."""
CASES = (
    [(suffix, d, r) for suffix in (".o", ".kernel.json") for d, r in DAMAGED]
    + [(".o", unreadable, "Permission denied")]
    + [(".kernel.json", d, r) for d, r in UNUSABLE_METADATA]
)


@pytest.mark.parametrize(
    ("suffix", "damage", "reason"),
    CASES,
    ids=[f"{d.__name__}-{suffix.rsplit('.', 1)[1]}" for suffix, d, _ in CASES],
)
def test_damaged_entry_is_compiled_again_and_replaced(
    suffix: str, damage: Damage, reason: str, filled: Path, tmp_path: Path
) -> None:
    if damage is unreadable and os.geteuid() == 0:
        pytest.skip("root reads files without read permission")
    cache = tmp_path / "cache"
    shutil.copytree(filled, cache)
    (path,) = [p for p in cache.iterdir() if p.name.endswith(suffix)]
    original = path.read_bytes()
    damage(path)
    done = run_child(child_env(cache))
    warned = [line for line in done.stderr.splitlines() if "CacheWarning" in line]
    assert len(warned) == 1 and reason in warned[0] and compiled(done), done.stderr
    assert "Traceback" not in done.stderr, done.stderr
    # Replaced by a whole entry (the same one: compiling is deterministic).
    assert path.is_file()
    payload_of(path)
    if suffix == ".kernel.json":
        assert path.read_bytes() == original
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        p.name for p in filled.iterdir()
    )


@pytest.fixture(scope="module")
def filled_both(filled: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """`filled` and the transposed SpMV (the same signature and entry name)
    under the same key."""
    cache = tmp_path_factory.mktemp("both") / "cache"
    shutil.copytree(filled, cache)
    done = python(
        child_env(cache), "-c", f"import xsparse; xsparse.compile({TRANSPOSED!r})"
    )
    assert done.returncode == 0, done.stderr
    assert len(list(cache.iterdir())) == 5
    return cache


@pytest.mark.parametrize("suffix", [".o", ".kernel.json"])
def test_another_kernels_entry_under_this_name_is_refused(
    suffix: str, filled: Path, filled_both: Path, tmp_path: Path
) -> None:
    """The transposed SpMV's entry (authenticated under the same key) copied
    over SpMV's: the name is part of what is authenticated."""
    cache = tmp_path / "cache"
    shutil.copytree(filled_both, cache)
    (mine,) = [
        p
        for p in cache.iterdir()
        if p.name.endswith(suffix) and (filled / p.name).exists()
    ]
    (theirs,) = [p for p in cache.iterdir() if p.name.endswith(suffix) and p != mine]
    original = mine.read_bytes()
    shutil.copyfile(theirs, mine)
    done = run_child(child_env(cache))
    assert "not authenticated" in done.stderr and compiled(done), done.stderr
    assert mine.read_bytes() == original or suffix == ".o"
    payload_of(mine)


def test_unreadable_entry_is_ignored_and_removed(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As `unreadable-o` (skipped as root, who reads anything), in this process."""
    name = "c" * 64 + ".o"
    disk_cache.store(name, b"object code")
    real_open = os.open

    def refuse(
        path: str | os.PathLike[str],
        flags: int,
        mode: int = 0o777,
        *,
        dir_fd: int | None = None,
    ) -> int:
        if Path(path).name == name:
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, mode, dir_fd=dir_fd)

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
    assert sorted(n.split(".", 1)[1] for n in names) == ["kernel.json", "key", "o"]


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
    entry_size = disk_cache.HEADER.size + 100
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", str(2 * entry_size))
    (cache / "notes.txt").parent.mkdir(parents=True)
    (cache / "notes.txt").write_text("not an entry: never removed")
    for age, name in zip((30, 20), names[:2], strict=True):
        disk_cache.store(name, b"x" * 100)
        os.utime(cache / name, (time.time() - age, time.time() - age))
    assert disk_cache.load(names[0]) == b"x" * 100  # now the most recent
    disk_cache.store(names[2], b"x" * 100)
    assert sorted(p.name for p in cache.iterdir()) == sorted(
        [names[0], names[2], "notes.txt", disk_cache.KEY_NAME]
    )


def test_a_limit_below_one_entry_keeps_the_last_one(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XSPARSE_CACHE_MAX_BYTES", "1")
    disk_cache.store("a" * 64 + ".o", b"first")
    disk_cache.store("b" * 64 + ".o", b"second")
    assert sorted(p.name for p in cache.iterdir()) == ["b" * 64 + ".o", "xsparse.key"]


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
    assert sorted(p.name for p in cache.iterdir()) == ["notes.txt", "xsparse.key"]
    assert xsparse.compile(KERNEL) is not kernel
    assert len(list(cache.iterdir())) == 4


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
        ("info", "status:    in use"),
        ("clear", "removed 3 files"),
    ):
        done = python(env, "-m", "xsparse.backend.disk_cache", command)
        assert done.returncode == 0 and expected in done.stdout, done.stderr
    assert sorted(p.name for p in cache.iterdir()) == ["notes.txt", "xsparse.key"]


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


def other_owner(folder: Path) -> None:
    os.chown(folder, OTHER_UID, OTHER_UID)


def world_writable(folder: Path) -> None:
    folder.chmod(0o777)


def group_writable(folder: Path) -> None:
    folder.chmod(0o770)


def sticky_world_writable(folder: Path) -> None:
    """As /tmp is: others cannot remove our files, but can add theirs."""
    folder.chmod(0o1777)


def link_to_another_users(folder: Path) -> None:
    """A link planted where the directory is looked for (in /tmp, say), to a
    directory of another user's."""
    elsewhere = folder.with_name("elsewhere")
    folder.rename(elsewhere)
    other_owner(elsewhere)
    folder.symlink_to(elsewhere)


UNTRUSTED = [
    other_owner,
    world_writable,
    group_writable,
    sticky_world_writable,
    link_to_another_users,
]


@pytest.mark.parametrize("change", UNTRUSTED, ids=[c.__name__ for c in UNTRUSTED])
def test_a_directory_not_ours_alone_is_not_used(
    change: Callable[[Path], None], filled: Path, tmp_path: Path
) -> None:
    """Nothing is read from it (its object code, garbage authenticated under
    its own key, would crash the child if loaded) nor written to it."""
    if change in (other_owner, link_to_another_users) and os.geteuid() != 0:
        pytest.skip("only root gives a directory to another user")
    cache = tmp_path / "cache"
    shutil.copytree(filled, cache)
    (code,) = cache.glob("*.o")
    seal(code, os.urandom(code.stat().st_size))
    before = snapshot(cache)
    change(cache)
    done = run_child(child_env(cache))
    assert compiled(done), done.stderr
    assert done.stderr.count("not using the kernel cache directory") == 1, done.stderr
    assert snapshot(cache) == before


def test_an_untrusted_directory_warns_once(cache: Path) -> None:
    cache.mkdir()
    cache.chmod(0o777)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        disk_cache.store("a" * 64 + ".o", b"first")
        disk_cache.store("b" * 64 + ".o", b"second")
        assert disk_cache.load("a" * 64 + ".o") is None
    assert [str(w.message).count("writable by group and others") for w in caught] == [1]
    assert list(cache.iterdir()) == []


def key_open_to_others(key: Path) -> None:
    key.chmod(0o644)


def key_of_another_user(key: Path) -> None:
    os.chown(key, OTHER_UID, OTHER_UID)


def key_through_a_link(key: Path) -> None:
    target = key.with_name("elsewhere")
    key.rename(target)
    key.symlink_to(target)


def key_truncated(key: Path) -> None:
    key.write_bytes(key.read_bytes()[:16])


def key_a_directory(key: Path) -> None:
    key.unlink()
    key.mkdir()


BAD_KEYS = [
    key_open_to_others,
    key_of_another_user,
    key_through_a_link,
    key_truncated,
    key_a_directory,
]


@pytest.mark.parametrize("damage", BAD_KEYS, ids=[d.__name__ for d in BAD_KEYS])
def test_an_untrusted_key_is_replaced(
    damage: Callable[[Path], None], filled: Path, tmp_path: Path
) -> None:
    """A new key, and every entry made under the old one compiled again."""
    if damage is key_of_another_user and os.geteuid() != 0:
        pytest.skip("only root gives a file to another user")
    cache = tmp_path / "cache"
    shutil.copytree(filled, cache)
    key = cache / disk_cache.KEY_NAME
    old = key.read_bytes()
    damage(key)
    done = run_child(child_env(cache))
    assert compiled(done), done.stderr
    assert f"cache's key {key}" in done.stderr, done.stderr
    info = key.lstat()
    assert stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == 0o600
    assert info.st_uid == os.geteuid() and key.read_bytes() != old
    entries = [p for p in cache.iterdir() if disk_cache.is_entry_name(p.name)]
    assert len(entries) == 2
    for entry in entries:
        payload_of(entry)  # authenticated under the new key


UMASK_CHILD = "import os\nos.umask(0)\n"


def test_created_private_under_umask_000(tmp_path: Path) -> None:
    cache = tmp_path / "a" / "b" / "c"
    done = python(child_env(cache), "-c", f"{UMASK_CHILD}SOURCE = {KERNEL!r}\n{CHILD}")
    assert done.returncode == 0 and compiled(done), done.stderr
    for folder in (tmp_path / "a", tmp_path / "a" / "b", cache):
        assert stat.S_IMODE(folder.stat().st_mode) == 0o700, folder
    files = list(cache.iterdir())
    assert len(files) == 3
    assert all(stat.S_IMODE(p.stat().st_mode) == 0o600 for p in files)
    assert not compiled(run_child(child_env(cache)))  # and used


def test_an_entry_is_bound_to_its_key_and_name() -> None:
    key, name, other = os.urandom(32), "a" * 64 + ".o", "b" * 64 + ".o"
    packed = disk_cache.pack(key, name, b"payload")
    assert disk_cache.unpack(key, name, packed) == b"payload"
    for wrong_key, wrong_name in ((key, other), (os.urandom(32), name)):
        found = disk_cache.unpack(wrong_key, wrong_name, packed)
        assert isinstance(found, str) and "not authenticated" in found
    flipped = packed[:-1] + bytes([packed[-1] ^ 1])
    assert "not authenticated" in str(disk_cache.unpack(key, name, flipped))


def test_a_second_key_does_not_replace_the_first(cache: Path) -> None:
    """Processes that race to make the key agree on the first one linked."""
    disk_cache.store("a" * 64 + ".o", b"first")
    key = (cache / disk_cache.KEY_NAME).read_bytes()
    fd = os.open(cache, os.O_RDONLY | os.O_DIRECTORY)
    try:
        disk_cache.make_key(fd)
    finally:
        os.close(fd)
    assert (cache / disk_cache.KEY_NAME).read_bytes() == key
    assert sorted(p.name for p in cache.iterdir()) == ["a" * 64 + ".o", "xsparse.key"]
    assert disk_cache.load("a" * 64 + ".o") == b"first"


def test_without_a_key_the_directory_is_not_used(
    cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory where no key can be made (read-only to its owner: root
    writes anyway, so the writer is made to fail here) keeps nothing."""

    def fail(fd: int) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(disk_cache, "make_key", fail)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        disk_cache.store("a" * 64 + ".o", b"first")
        assert disk_cache.load("a" * 64 + ".o") is None
    assert [
        str(w.message).count("key file xsparse.key cannot be made") for w in caught
    ] == [1]
    assert list(cache.iterdir()) == []


def test_a_cached_kernel_runs_without_the_compiler_loaded(filled: Path) -> None:
    """A kernel found on disk is called in a new process without loading the
    sparsifier's passes or the lowering to LLVM (a first call pays for the
    import of what runs kernels, not for the compiler)."""
    script = (
        "import sys\n"
        f"SOURCE = {KERNEL!r}\n{CHILD}\n"
        "print([m for m in ('xsparse.transforms.pipeline', 'xsparse.backend.lowering',"
        " 'xsparse.transforms.sparsifier.sparsification') if m in sys.modules])\n"
    )
    done = python(child_env(filled), "-c", script)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split("\n")[:2] == ["ok", "[]"], done.stdout
