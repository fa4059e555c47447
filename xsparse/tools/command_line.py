"""What `xsparse-opt` and `xsparse-run` share as command-line tools: the
version line, one-line usage errors, and files named as LLVM's tools name
them (`-` is stdin or stdout).

Only the standard library and `xsparse.version` are imported here, so that
`--version` answers without loading xDSL.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from importlib.metadata import version
from typing import IO, Any, NoReturn

from xsparse.version import __version__

MAX_INPUT_BYTES = 1 << 29
"""The largest input the tools read: past it (`/dev/zero`, a runaway pipe)
a one-line error, not a MemoryError."""
READ_BLOCK = 1 << 24
STDIN_NAME = "<stdin>"
"""The name diagnostics give the standard input, as MLIR's tools give it."""


class UsageError(Exception):
    """A mistake on the command line (a flag, a file, a pass pipeline),
    reported as `TOOL: error: message` on one line."""


def version_format(tool: str) -> str:
    """The `--version` line with `{xdsl_version}` still to fill in."""
    return f"{tool} {__version__} (xDSL {{xdsl_version}})"


def version_line(tool: str) -> str:
    return version_format(tool).format(xdsl_version=version("xdsl"))


def asks_for_version(args: Sequence[str]) -> bool:
    """Whether `args` hold `--version` (or xdsl-opt's `-v`) as a flag."""
    flags = args[: args.index("--")] if "--" in args else args
    return any(arg in ("--version", "-v") for arg in flags)


class VersionAction(argparse.Action):
    """`--version`: print the version line and exit (the version is looked up
    only when asked for)."""

    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: Any):
        kwargs.setdefault("help", "print the version of xsparse and xDSL, and exit")
        super().__init__(option_strings, dest, nargs=0, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        print(version_line(parser.prog))
        parser.exit()


class CommandLineParser(argparse.ArgumentParser):
    """argparse with LLVM's habits: a mistake raises UsageError (one line, no
    usage text); long flags may take one dash (`-split-input-file`); no
    abbreviated flags; a flag registered again replaces the first."""

    def __init__(self, prog: str, description: str) -> None:
        self.long_flags: set[str] = set()  # before argparse adds --help
        super().__init__(
            prog=prog,
            description=description,
            allow_abbrev=False,
            conflict_handler="resolve",
        )

    def add_argument(self, *name_or_flags: str, **kwargs: Any) -> argparse.Action:
        self.long_flags.update(f for f in name_or_flags if f.startswith("--"))
        return super().add_argument(*name_or_flags, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(message)

    def parse_command_line(self, args: Sequence[str]) -> argparse.Namespace:
        return self.parse_args([self.with_two_dashes(arg) for arg in args])

    def with_two_dashes(self, arg: str) -> str:
        """`-name[=value]` as `--name[=value]` where `--name` is a long flag."""
        if arg.startswith("--") or not arg.startswith("-"):
            return arg
        if "-" + arg.split("=", 1)[0] in self.long_flags:
            return "-" + arg
        return arg


def open_input(path: str | None) -> IO[bytes]:
    """The file at `path`; the standard input for `-` or no path."""
    if path is None or path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as e:
        raise UsageError(f"cannot open input file '{path}': {e.strerror}") from None


def read_bounded(stream: IO[bytes], path: str | None) -> bytes:
    """All of `stream`, refused with UsageError past MAX_INPUT_BYTES (a
    regular file by its size, before it is read)."""
    too_large = UsageError(
        f"input '{input_name(path)}' is larger than {MAX_INPUT_BYTES >> 20} MiB"
    )
    try:
        size = os.fstat(stream.fileno()).st_size
    except (OSError, ValueError):  # no file descriptor (a test's BytesIO)
        size = 0
    if size > MAX_INPUT_BYTES:
        raise too_large
    data = bytearray()
    while block := stream.read(READ_BLOCK):
        data += block
        if len(data) > MAX_INPUT_BYTES:
            raise too_large
    return bytes(data)


def input_name(path: str | None) -> str:
    return STDIN_NAME if path is None or path == "-" else path


def open_output(path: str | None) -> IO[str]:
    """The file at `path`, truncated; the standard output for `-` or no path."""
    if path is None or path == "-":
        return sys.stdout
    try:
        return open(path, "w")
    except OSError as e:
        raise UsageError(f"cannot open output file '{path}': {e.strerror}") from None
