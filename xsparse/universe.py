"""The `xdsl.universe` entry point: xsparse's dialects and passes for any xDSL tool."""

from xdsl.universe import Universe

from xsparse.dialects import get_all_dialects
from xsparse.targets import get_all_targets
from xsparse.transforms import get_all_passes

XSPARSE_UNIVERSE = Universe(
    all_dialects=get_all_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
