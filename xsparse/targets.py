"""Output targets of `xsparse-opt -t NAME` that xDSL lacks."""

from collections.abc import Callable

from xdsl.utils.target import Target


def get_all_targets() -> dict[str, Callable[[], type[Target]]]:
    return {}
