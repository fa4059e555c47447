"""The on-disk kernel cache: checked entries in one directory, bounded in size.

Where: `$XSPARSE_CACHE_DIR` if set, else `$XDG_CACHE_HOME/xsparse` if
`XDG_CACHE_HOME` is set (to an absolute path, as the XDG spec asks), else
`~/.cache/xsparse`.

What: one file per entry, named `<64 hex digits>.<kind>` (`.o` for object
code, `.kernel.json` for a kernel's metadata). Each file is a header (a magic
string, the payload's length and its sha256) followed by the payload, written
to a temporary file and renamed into place, so a reader sees a whole entry or
none. An entry that is truncated, damaged, not a regular file, unreadable or
whose checksum does not match is never returned: `load` removes it, warns with
`CacheWarning` (silence it with `warnings.simplefilter("ignore", CacheWarning)`)
and answers None, as for a missing entry, so the caller compiles it again and
stores a fresh one.

How much: at most `$XSPARSE_CACHE_MAX_BYTES` bytes of entries (default 1 GiB).
A hit sets the entry's modification time to now (one `utime` on the open file);
after each store, the directory is listed once and the least recently used
entries are removed until the total fits (never the entry just written). A
limit smaller than one entry keeps only the last one written.

Clearing: `clear()` here, `xsparse.clear_cache()` (which also forgets the
kernels compiled in the process), or `python -m xsparse.backend.disk_cache
clear`. Only files named as entries (and this module's temporary files) are
ever removed: other files in the directory are left alone.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import re
import stat
import struct
import sys
import tempfile
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

DEFAULT_MAX_BYTES = 1 << 30
"""The size limit when `XSPARSE_CACHE_MAX_BYTES` is not set."""

MAGIC = b"xsparse cache 1\n"
HEADER = struct.Struct(f">{len(MAGIC)}sQ32s")
"""magic, payload length (big-endian u64), sha256 of the payload."""

ENTRY_NAME = re.compile(r"[0-9a-f]{64}\.[a-z][a-z0-9.]*")
TEMPORARY_PREFIX = ".xsparse-"
TEMPORARY_SUFFIX = ".tmp"
STALE_TEMPORARY_SECONDS = 3600.0
"""A temporary file this old belongs to a writer that died: eviction removes it."""


class CacheWarning(UserWarning):
    """A kernel cache entry was damaged or unreadable (it is compiled again),
    or the cache's configuration is invalid."""


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


def pack(payload: bytes) -> bytes:
    """An entry's file contents: the header, then `payload`."""
    return HEADER.pack(MAGIC, len(payload), hashlib.sha256(payload).digest()) + payload


def unpack(contents: bytes) -> bytes | str:
    """The payload of an entry's file contents, or why they are not an entry."""
    if len(contents) < HEADER.size:
        return f"truncated: {len(contents)} bytes"
    magic, length, digest = HEADER.unpack_from(contents)
    if magic != MAGIC:
        return "no xsparse cache header"
    payload = contents[HEADER.size :]
    if len(payload) != length:
        return f"{len(payload)} bytes of payload instead of {length}"
    if hashlib.sha256(payload).digest() != digest:
        return "checksum mismatch"
    return payload


def load(name: str) -> bytes | None:
    """The payload stored under `name`, or None when there is none. A damaged
    or unreadable entry is removed (with a `CacheWarning`) and answers None."""
    check_name(name)
    path = directory() / name
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError as e:
        discard(path, f"cannot be opened: {e.strerror or e}")
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                found: bytes | str = "not a regular file"
            else:
                found = unpack(f.read())
                if isinstance(found, bytes):
                    touch(f.fileno())
    except OSError as e:
        found = f"cannot be read: {e.strerror or e}"
    if isinstance(found, str):
        discard(path, found)
        return None
    return found


def touch(fd: int) -> None:
    """Mark an entry as just used (its modification time orders eviction)."""
    with contextlib.suppress(OSError, NotImplementedError):
        os.utime(fd)


def discard(path: Path, reason: str) -> None:
    warnings.warn(
        f"xsparse: ignoring the kernel cache entry {path} ({reason}); "
        "it is compiled again",
        CacheWarning,
        stacklevel=3,
    )
    with contextlib.suppress(OSError):
        if path.is_dir():
            path.rmdir()  # only when empty
        else:
            path.unlink()


def store(name: str, payload: bytes) -> None:
    """Keep `payload` under `name` (atomically), then evict the least recently
    used entries beyond the size limit. An unwritable cache is ignored."""
    check_name(name)
    folder = directory()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, temporary = tempfile.mkstemp(
            dir=folder, prefix=TEMPORARY_PREFIX, suffix=TEMPORARY_SUFFIX
        )
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(pack(payload))
            os.replace(temporary, folder / name)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
    except OSError:
        return
    evict(folder, keep=name)


@dataclass(frozen=True)
class Entry:
    name: str
    size: int
    used_ns: int


def entries(folder: Path) -> list[Entry]:
    """The entries of `folder`, least recently used first; removes temporary
    files left by writers that died."""
    found: list[Entry] = []
    now = time.time()
    try:
        listing = list(os.scandir(folder))
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
                os.unlink(item.path)
    return sorted(found, key=lambda e: (e.used_ns, e.name))


def evict(folder: Path, keep: str) -> None:
    """Remove the least recently used entries until the total fits the limit."""
    limit = max_bytes()
    listed = entries(folder)
    total = sum(e.size for e in listed)
    for entry in listed:
        if total <= limit:
            break
        if entry.name == keep:
            continue
        try:
            os.unlink(folder / entry.name)
        except FileNotFoundError:
            pass  # another process evicted it
        except OSError:
            continue
        total -= entry.size


def clear() -> int:
    """Remove every entry (and temporary file) of the cache directory; the
    number of files removed."""
    folder = directory()
    removed = 0
    try:
        listing = list(os.scandir(folder))
    except OSError:
        return 0
    for item in listing:
        if is_entry_name(item.name) or is_temporary_name(item.name):
            with contextlib.suppress(OSError):
                if not item.is_dir(follow_symlinks=False):
                    os.unlink(item.path)
                    removed += 1
    return removed


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
        listed = entries(folder)
        used = sum(e.size for e in listed)
        print(f"directory: {folder}")
        print(f"entries:   {len(listed)}")
        print(f"size:      {used} bytes (limit {max_bytes()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
