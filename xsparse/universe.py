"""The `xdsl.universe` entry point: xsparse's dialects and passes for any xDSL tool.

Only xsparse's own dialects (names xDSL does not register) and its passes
and targets, each a lazy factory: loading the entry point imports nothing of
xsparse's dialects or passes, and changes nothing of xDSL's. xDSL's own
dialects stay xDSL's in an `xdsl-opt` run; xsparse's passes build the ops
they emit from `xsparse.dialects.upstream`, so their output is MLIR's
spelling either way.
"""

from xdsl.universe import Universe

from xsparse.dialect_registry import get_xsparse_dialects
from xsparse.targets import get_all_targets
from xsparse.transforms import get_all_passes

XSPARSE_UNIVERSE = Universe(
    all_dialects=get_xsparse_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
