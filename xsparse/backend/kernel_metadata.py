"""The metadata of a kernel kept in the disk cache (`<key>.kernel.json`, which
`kernel.compile` writes beside the object code), checked before a kernel is
made of it.

The entry is authenticated by `disk_cache` (only this user's processes can
have written it, under this name); what it says is still checked here, as
MLIR's bytecode reader checks a file it wrote itself: a field missing or of
the wrong type, or a position or dimension that the kernel's signature does
not have, makes the entry unusable. It is then removed with a `CacheWarning`
and the kernel compiled again, so no such entry ends in a `KeyError`,
`TypeError` or `struct.error` at a call, nor makes a kernel without its
shape checks out of positions it does not have.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from typing import Any

from xdsl.dialects.builtin import ShapedType
from xdsl.ir import Attribute

from xsparse.backend import disk_cache

Check = Callable[[Any], bool]
"""Whether a JSON value has a field's type."""

MODULE_KEY = re.compile(r"[0-9a-f]{64}")
COMPRESSED_KINDS = ("csr", "csc")


class UnusableMetadata(ValueError):
    """What a kernel's metadata says does not fit the kernel's signature."""


def is_int(value: Any) -> bool:
    return type(value) is int  # JSON's true and false are no positions


def is_bool(value: Any) -> bool:
    return type(value) is bool


def is_text(value: Any) -> bool:
    return isinstance(value, str) and bool(value)


def is_position_key(value: Any) -> bool:
    return isinstance(value, str) and value.isascii() and value.isdigit()


def is_module_key(value: Any) -> bool:
    return isinstance(value, str) and MODULE_KEY.fullmatch(value) is not None


def list_of(item: Check) -> Check:
    return lambda v: isinstance(v, list) and all(item(x) for x in v)


def tuple_of(*items: Check) -> Check:
    """A JSON array of exactly these items."""
    return lambda v: (
        isinstance(v, list)
        and len(v) == len(items)
        and all(c(x) for c, x in zip(items, v, strict=True))
    )


def dict_of(key: Check, value: Check) -> Check:
    return lambda v: (
        isinstance(v, dict) and all(key(k) and value(x) for k, x in v.items())
    )


def optional(item: Check) -> Check:
    return lambda v: v is None or item(v)


def one_of(*values: str) -> Check:
    return lambda v: isinstance(v, str) and v in values


DIMENSION = tuple_of(is_int, is_int)
"""[argument position, dimension] (`Dimension`), or [-1, static size]."""

FIELDS: dict[str, Check] = {
    "name": is_text,
    "module": is_module_key,
    "prints": is_bool,
    "signature": is_text,
    "lowered_signature": is_text,
    "shared_sizes": list_of(list_of(DIMENSION)),
    "index_bounds": list_of(tuple_of(DIMENSION, is_text, list_of(optional(DIMENSION)))),
    "written": list_of(is_int),
    "narrowable": list_of(tuple_of(is_int, one_of(*COMPRESSED_KINDS))),
    "checkers": dict_of(is_position_key, tuple_of(is_text, is_text)),
    "in_kernel_checked": is_bool,
    "restores_outputs": is_bool,
    "saved_on_error": list_of(is_int),
    "may_fail_allocation": is_bool,
}
"""The fields of a kernel's metadata (`kernel._compile_kernel`) and their types."""


def schema_problem(meta: Any) -> str | None:
    """Why `meta` is not a kernel's metadata, if so."""
    if not isinstance(meta, dict):
        return f"not a JSON object but {type(meta).__name__}"
    for field, check in FIELDS.items():
        if field not in meta:
            return f"no field {field!r}"
        if not check(meta[field]):
            return f"field {field!r} has the wrong type or value"
    return None


def load(name: str) -> dict[str, Any] | None:
    """The metadata stored under `name`, checked against `FIELDS`; None when
    there is none, or (after `reject`) when it is not a kernel's metadata."""
    data = disk_cache.load(name)
    if data is None:
        return None
    try:
        meta = json.loads(data.decode())
    except (UnicodeDecodeError, ValueError, RecursionError) as e:
        reject(name, f"not JSON: {type(e).__name__}")
        return None
    problem = schema_problem(meta)
    if problem is not None:
        reject(name, f"not a kernel's metadata: {problem}")
        return None
    return meta


def reject(name: str, reason: str) -> None:
    """Remove the metadata `name` (with a `CacheWarning`): compiled again."""
    disk_cache.reject(name, reason)


def check_positions(meta: dict[str, Any], inputs: Sequence[Attribute]) -> None:
    """Every argument position and dimension `meta` names is one of the
    kernel's `inputs`; raises `UnusableMetadata` where one is not."""
    ranks = [len(t.get_shape()) if isinstance(t, ShapedType) else 0 for t in inputs]

    def position(p: int, field: str) -> None:
        if not 0 <= p < len(ranks):
            raise UnusableMetadata(f"{field} names argument {p} of {len(ranks)}")

    def dimension(d: Sequence[int], field: str, static: bool = False) -> None:
        arg, dim = d
        if static and arg == -1:
            if dim < 0:
                raise UnusableMetadata(f"{field} has a negative size {dim}")
            return
        position(arg, field)
        if not 0 <= dim < ranks[arg]:
            raise UnusableMetadata(f"{field} names dimension {dim} of argument {arg}")

    for group in meta["shared_sizes"]:
        for d in group:
            dimension(d, "shared_sizes", static=True)
    for operand, _, loops in meta["index_bounds"]:
        dimension(operand, "index_bounds")
        for loop in loops:
            if loop is not None:
                dimension(loop, "index_bounds")
    for p in meta["written"]:
        position(p, "written")
    for p in meta["saved_on_error"]:
        position(p, "saved_on_error")
    for p, _ in meta["narrowable"]:
        position(p, "narrowable")
    for p in meta["checkers"]:
        position(int(p), "checkers")
