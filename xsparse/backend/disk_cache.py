"""The on-disk kernel cache: authenticated entries in one private directory,
bounded in size.

Where: `$XSPARSE_CACHE_DIR` if set, else `$XDG_CACHE_HOME/xsparse` if
`XDG_CACHE_HOME` is set (to an absolute path, as the XDG spec asks), else
`~/.cache/xsparse`. The directory (and each parent xsparse creates) is made
0700, whatever the umask. It is used only while it is owned by this user
(the effective uid) and writable by no one else: otherwise the process
warns once with `CacheWarning` and, while it is so, neither reads nor writes
it (kernels are compiled in each process; `chmod 700` the directory, or point
`XSPARSE_CACHE_DIR` at one of your own). There is no fallback directory: a
cache elsewhere than asked would be a surprise of its own.

Whom it trusts: no one but this user. The directory holds a random key
(`xsparse.key`: 32 bytes, 0600, linked into place so that concurrent
processes agree on one); a key file that is not a regular file of this
user's, is readable or writable by others, or has the wrong size is replaced
by a new one (with a `CacheWarning`), which invalidates every entry made
under the old one.

What: one file per entry, named `<64 hex digits>.<kind>` (`.o` for object
code, `.kernel.json` for a kernel's metadata). Each file is a header (a magic
string, the payload's length and an HMAC-SHA256 under the key of the magic,
the entry's name, the length and the payload) followed by the payload,
written to a temporary file and renamed into place, so a reader sees a whole
entry or none. Because the name is authenticated, an entry renamed to
another name (another kernel's entry swapped in) fails as a damaged one
does; because the key is secret, an entry written by anyone else fails. An
entry that is truncated, damaged, not a regular file, unreadable or not
authenticated is never returned: `load` removes it, warns with
`CacheWarning` (silence it with `warnings.simplefilter("ignore",
CacheWarning)`) and answers None, as for a missing entry, so the caller
compiles it again and stores a fresh one.

Every file is opened relative to the directory's descriptor, once checked,
and never through a symbolic link, so the directory cannot be swapped
between the check and the use.

How much: at most `$XSPARSE_CACHE_MAX_BYTES` bytes of entries (default 1 GiB).
A hit sets the entry's modification time to now (one `utime` on the open file);
after each store, the directory is listed once and the least recently used
entries are removed until the total fits (never the entry just written). A
limit smaller than one entry keeps only the last one written.

Clearing: `clear()` here, `xsparse.clear_cache()` (which also forgets the
kernels compiled in the process), or `python -m xsparse.backend.disk_cache
clear`. Only files named as entries (and this module's temporary files) are
ever removed: other files in the directory (the key too) are left alone.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import hmac
import os
import re
import secrets
import stat
import struct
import sys
import threading
import time
import warnings
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_BYTES = 1 << 30
"""The size limit when `XSPARSE_CACHE_MAX_BYTES` is not set."""

MAGIC = b"xsparse cache 2\n"
HEADER = struct.Struct(f">{len(MAGIC)}sQ32s")
"""magic, payload length (big-endian u64), the entry's tag (`tag`)."""

ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.[a-z][a-z0-9.]*")
TEMPORARY_PREFIX = ".xsparse-"
TEMPORARY_SUFFIX = ".tmp"
STALE_TEMPORARY_SECONDS = 3600.0
"""A temporary file this old belongs to a writer that died: eviction removes it."""

KEY_NAME = "xsparse.key"
KEY_BYTES = 32
PRIVATE_DIRECTORY = 0o700
PRIVATE_FILE = 0o600

_OPEN_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC
_OPEN_FILE = os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | os.O_NOFOLLOW
_CREATE_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW


class CacheWarning(UserWarning):
    """A kernel cache entry was damaged, unreadable or not authenticated (it is
    compiled again), or the cache's directory, key or configuration cannot be
    trusted or used."""


def directory() -> Path:
    """The cache directory (it may not exist yet)."""
    configured = os.environ.get("XSPARSE_CACHE_DIR")
    if configured:
        return Path(configured)
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg and os.path.isabs(xdg):
        return Path(xdg) / "xsparse"
    return Path.home() / ".cache" / "xsparse"


def max_bytes() -> int:
    """The size limit: `XSPARSE_CACHE_MAX_BYTES` (an integer number of bytes)."""
    configured = os.environ.get("XSPARSE_CACHE_MAX_BYTES", "").strip()
    if not configured:
        return DEFAULT_MAX_BYTES
    try:
        limit = int(configured)
    except ValueError:
        limit = -1
    if limit < 0:
        warnings.warn(
            f"XSPARSE_CACHE_MAX_BYTES={configured!r} is not a number of bytes; "
            f"using {DEFAULT_MAX_BYTES}",
            CacheWarning,
            stacklevel=3,
        )
        return DEFAULT_MAX_BYTES
    return limit


def is_entry_name(name: str) -> bool:
    return ENTRY_NAME.fullmatch(name) is not None


def check_name(name: str) -> None:
    if not is_entry_name(name):
        raise ValueError(f"{name!r} is not a cache entry name (64 hex digits.kind)")


def is_temporary_name(name: str) -> bool:
    return name.startswith(TEMPORARY_PREFIX) and name.endswith(TEMPORARY_SUFFIX)


def temporary_name() -> str:
    return f"{TEMPORARY_PREFIX}{secrets.token_hex(8)}{TEMPORARY_SUFFIX}"


def tag(key: bytes, name: str, payload: bytes) -> bytes:
    """HMAC-SHA256 under `key` of the magic, the entry's name, the payload's
    length and the payload: what makes an entry this user's, for this name."""
    mac = hmac.new(key, MAGIC, hashlib.sha256)
    mac.update(name.encode("ascii") + b"\0")
    mac.update(struct.pack(">Q", len(payload)))
    mac.update(payload)
    return mac.digest()


def pack(key: bytes, name: str, payload: bytes) -> bytes:
    """The file contents of the entry `name`: the header, then `payload`."""
    return HEADER.pack(MAGIC, len(payload), tag(key, name, payload)) + payload


def unpack(key: bytes, name: str, contents: bytes) -> bytes | str:
    """The payload of the entry `name`'s file contents, or why they are not
    that entry (under `key`)."""
    if len(contents) < HEADER.size:
        return f"truncated: {len(contents)} bytes"
    magic, length, found = HEADER.unpack_from(contents)
    if magic != MAGIC:
        return "no xsparse cache header"
    payload = contents[HEADER.size :]
    if len(payload) != length:
        return f"{len(payload)} bytes of payload instead of {length}"
    if not hmac.compare_digest(tag(key, name, payload), found):
        return "not authenticated: written under another key or another name"
    return payload


@dataclass(frozen=True)
class Folder:
    """The cache directory, open (`fd`) and checked: this user's, writable by
    no one else, with this user's `key`."""

    path: Path
    fd: int
    key: bytes


_refused: set[tuple[str, str]] = set()
_refused_lock = threading.Lock()


def refuse(path: Path, reason: str) -> None:
    """Warn, once per process for each directory and reason, that the cache
    at `path` is not used."""
    with _refused_lock:
        if (str(path), reason) in _refused:
            return
        _refused.add((str(path), reason))
    warnings.warn(
        f"xsparse: not using the kernel cache directory {path}: {reason}; "
        "kernels are compiled again in each process (make it private to you, "
        "e.g. `chmod 700`, or set XSPARSE_CACHE_DIR to a directory of your own)",
        CacheWarning,
        stacklevel=5,
    )


def writable_by(mode: int) -> str:
    writers = [who for who, bit in (("group", 0o020), ("others", 0o002)) if mode & bit]
    return " and ".join(writers)


def directory_problem(info: os.stat_result) -> str | None:
    """Why a directory of this `stat` cannot hold this user's cache, if so."""
    user = os.geteuid()
    if not stat.S_ISDIR(info.st_mode):
        return "not a directory"
    if info.st_uid != user:
        return f"owned by uid {info.st_uid}, not by this user (uid {user})"
    if info.st_mode & 0o022:
        mode = oct(stat.S_IMODE(info.st_mode))
        return f"writable by {writable_by(info.st_mode)} (mode {mode})"
    return None


def key_problem(info: os.stat_result) -> str | None:
    """Why a key file of this `stat` cannot be trusted, if so."""
    user = os.geteuid()
    if not stat.S_ISREG(info.st_mode):
        return "not a regular file"
    if info.st_uid != user:
        return f"owned by uid {info.st_uid}, not by this user (uid {user})"
    if info.st_mode & 0o077:
        return f"open to group or others (mode {oct(stat.S_IMODE(info.st_mode))})"
    if info.st_size != KEY_BYTES:
        return f"{info.st_size} bytes instead of {KEY_BYTES}"
    return None


def make_private(path: Path) -> None:
    """Create `path` and its missing parents, each 0700: `mkdir`'s mode is
    masked by the umask, which only ever takes bits away."""
    missing: list[Path] = []
    while not path.exists() and path.parent != path:
        missing.append(path)
        path = path.parent
    for folder in reversed(missing):
        with contextlib.suppress(FileExistsError):  # made by another process
            os.mkdir(folder, PRIVATE_DIRECTORY)


def read_key(fd: int) -> bytes | str:
    """The key in the directory open as `fd`, or why there is none usable
    ("" when it is missing)."""
    try:
        key_fd = os.open(KEY_NAME, _OPEN_FILE, dir_fd=fd)
    except FileNotFoundError:
        return ""
    except OSError as e:
        return f"cannot be opened ({e.strerror or e})"
    try:
        with os.fdopen(key_fd, "rb") as f:
            problem = key_problem(os.fstat(f.fileno()))
            key = f.read(KEY_BYTES + 1) if problem is None else b""
    except OSError as e:
        return f"cannot be read ({e.strerror or e})"
    if problem is None and len(key) != KEY_BYTES:
        problem = f"{len(key)} bytes instead of {KEY_BYTES}"
    return key if problem is None else problem


def make_key(fd: int) -> None:
    """Write a new random key (0600) and link it into place, unless another
    process linked its own meanwhile (then both use that one)."""
    temporary = temporary_name()
    key_fd = os.open(temporary, _CREATE_FILE, PRIVATE_FILE, dir_fd=fd)
    try:
        with os.fdopen(key_fd, "wb") as f:
            f.write(secrets.token_bytes(KEY_BYTES))
        try:
            os.link(temporary, KEY_NAME, src_dir_fd=fd, dst_dir_fd=fd)
        except FileExistsError:
            pass
        except OSError:  # a file system without hard links: last writer wins
            os.replace(temporary, KEY_NAME, src_dir_fd=fd, dst_dir_fd=fd)
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=fd)


def user_key(fd: int, path: Path) -> bytes | None:
    """This user's key in the directory open as `fd`: made when missing,
    replaced (with a `CacheWarning`) when it cannot be trusted; None (the
    directory refused) when no key can be made."""
    found = read_key(fd)
    if isinstance(found, bytes):
        return found
    if found:
        warnings.warn(
            f"xsparse: the kernel cache's key {path / KEY_NAME} is {found}: "
            "it is replaced by a new one (every entry is compiled again)",
            CacheWarning,
            stacklevel=5,
        )
        with contextlib.suppress(OSError):
            remove(fd, KEY_NAME)
    with contextlib.suppress(OSError):
        make_key(fd)
    found = read_key(fd)
    if isinstance(found, bytes):
        return found
    refuse(path, f"its key file {KEY_NAME} {found or 'cannot be made'}")
    return None


@contextlib.contextmanager
def opened(create: bool) -> Iterator[Folder | None]:
    """The cache directory, open and checked (created first when `create`),
    or None when it is missing, unusable or not to be trusted."""
    path = directory()
    try:
        if create:
            make_private(path)
        fd = os.open(path, _OPEN_DIRECTORY)
    except OSError:
        yield None
        return
    try:
        problem = directory_problem(os.fstat(fd))
        if problem is not None:
            refuse(path, problem)
        key = None if problem is not None else user_key(fd, path)
        yield None if key is None else Folder(path, fd, key)
    finally:
        os.close(fd)


def load(name: str) -> bytes | None:
    """The payload stored under `name`, or None when there is none. A damaged,
    unreadable or unauthenticated entry is removed (with a `CacheWarning`)
    and answers None."""
    check_name(name)
    with opened(create=False) as folder:
        return None if folder is None else read_entry(folder, name)


def read_entry(folder: Folder, name: str) -> bytes | None:
    try:
        fd = os.open(name, _OPEN_FILE, dir_fd=folder.fd)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        discard(folder, name, f"cannot be opened: {e.strerror or e}")
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                found: bytes | str = "not a regular file"
            else:
                found = unpack(folder.key, name, f.read())
                if isinstance(found, bytes):
                    touch(f.fileno())
    except OSError as e:
        found = f"cannot be read: {e.strerror or e}"
    if isinstance(found, str):
        discard(folder, name, found)
        return None
    return found


def touch(fd: int) -> None:
    """Mark an entry as just used (its modification time orders eviction)."""
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(fd)


def remove(fd: int, name: str) -> None:
    """Remove `name` from the directory open as `fd` (a directory only when
    empty)."""
    if stat.S_ISDIR(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
        os.rmdir(name, dir_fd=fd)
    else:
        os.unlink(name, dir_fd=fd)


def discard(folder: Folder, name: str, reason: str) -> None:
    """Warn that the entry `name` is not used (`reason`) and remove it."""
    warnings.warn(
        f"xsparse: ignoring the kernel cache entry {folder.path / name} "
        f"({reason}); it is compiled again",
        CacheWarning,
        stacklevel=4,
    )
    with contextlib.suppress(OSError):
        remove(folder.fd, name)


def reject(name: str, reason: str) -> None:
    """What `load` does with a damaged entry, for an entry whose payload its
    reader finds unusable: warn and remove it."""
    check_name(name)
    with opened(create=False) as folder:
        if folder is not None:
            discard(folder, name, reason)


def store(name: str, payload: bytes) -> None:
    """Keep `payload` under `name` (atomically), then evict the least recently
    used entries beyond the size limit. An unwritable or untrusted cache is
    ignored."""
    check_name(name)
    with opened(create=True) as folder:
        if folder is None:
            return
        try:
            write_entry(folder, name, payload)
        except OSError:
            return
        evict(folder.fd, keep=name)


def write_entry(folder: Folder, name: str, payload: bytes) -> None:
    temporary = temporary_name()
    fd = os.open(temporary, _CREATE_FILE, PRIVATE_FILE, dir_fd=folder.fd)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(pack(folder.key, name, payload))
        os.replace(temporary, name, src_dir_fd=folder.fd, dst_dir_fd=folder.fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=folder.fd)
        raise


@dataclass(frozen=True)
class Entry:
    name: str
    size: int
    used_ns: int


def entries(fd: int) -> list[Entry]:
    """The entries of the directory open as `fd`, least recently used first;
    removes temporary files left by writers that died."""
    found: list[Entry] = []
    now = time.time()
    try:
        listing = list(os.scandir(fd))
    except OSError:
        return []
    for item in listing:
        entry, temporary = is_entry_name(item.name), is_temporary_name(item.name)
        if not (entry or temporary):
            continue
        try:
            info = item.stat(follow_symlinks=False)
        except OSError:
            continue
        if not stat.S_ISREG(info.st_mode):
            continue
        if entry:
            found.append(Entry(item.name, info.st_size, info.st_mtime_ns))
        elif now - info.st_mtime > STALE_TEMPORARY_SECONDS:
            with contextlib.suppress(OSError):
                os.unlink(item.name, dir_fd=fd)
    return sorted(found, key=lambda e: (e.used_ns, e.name))


def evict(fd: int, keep: str) -> None:
    """Remove the least recently used entries until the total fits the limit."""
    limit = max_bytes()
    listed = entries(fd)
    total = sum(e.size for e in listed)
    for entry in listed:
        if total <= limit:
            break
        if entry.name == keep:
            continue
        try:
            os.unlink(entry.name, dir_fd=fd)
        except FileNotFoundError:
            pass  # another process evicted it
        except OSError:
            continue
        total -= entry.size


@contextlib.contextmanager
def unchecked() -> Iterator[int | None]:
    """The cache directory open as it is (None when it cannot be), for
    listing and clearing it, which trust none of its contents."""
    try:
        fd = os.open(directory(), _OPEN_DIRECTORY)
    except OSError:
        yield None
        return
    try:
        yield fd
    finally:
        os.close(fd)


def clear() -> int:
    """Remove every entry (and temporary file) of the cache directory; the
    number of files removed."""
    removed = 0
    with unchecked() as fd:
        if fd is None:
            return 0
        try:
            listing = list(os.scandir(fd))
        except OSError:
            return 0
        for item in listing:
            if is_entry_name(item.name) or is_temporary_name(item.name):
                with contextlib.suppress(OSError):
                    if not item.is_dir(follow_symlinks=False):
                        os.unlink(item.name, dir_fd=fd)
                        removed += 1
    return removed


def status() -> str:
    """Whether the cache directory is used, or why not."""
    with unchecked() as fd:
        if fd is None:
            return "missing (created at the first store)"
        problem = directory_problem(os.fstat(fd))
    return "in use" if problem is None else f"not used: {problem}"


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m xsparse.backend.disk_cache [info | path | clear]`."""
    parser = argparse.ArgumentParser(
        prog="python -m xsparse.backend.disk_cache",
        description="Show or clear xsparse's on-disk kernel cache.",
    )
    parser.add_argument(
        "command", nargs="?", default="info", choices=["info", "path", "clear"]
    )
    args = parser.parse_args(argv)
    folder = directory()
    if args.command == "path":
        print(folder)
    elif args.command == "clear":
        print(f"removed {clear()} files from {folder}")
    else:
        with unchecked() as fd:
            listed = [] if fd is None else entries(fd)
        used = sum(e.size for e in listed)
        print(f"directory: {folder}")
        print(f"status:    {status()}")
        print(f"entries:   {len(listed)}")
        print(f"size:      {used} bytes (limit {max_bytes()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
