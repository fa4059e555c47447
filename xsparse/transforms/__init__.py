"""xsparse's passes, as lazy factories keyed by their MLIR-style names."""

from collections.abc import Callable

from xdsl.passes import ModulePass


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    return {}
