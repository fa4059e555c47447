"""The `xdsl.universe` entry point: xsparse's dialects and passes for any xDSL tool.

xDSL's universe refuses a second factory for a dialect name, so the additions
to xDSL's own dialects are applied here, when a tool loads the universe."""

from xdsl.universe import Universe

from xsparse.dialect_registry import get_xsparse_dialects
from xsparse.dialects import extend_xdsl
from xsparse.dialects.gpu_ext import extend_gpu
from xsparse.targets import get_all_targets
from xsparse.transforms import get_all_passes

extend_xdsl()
extend_gpu()

XSPARSE_UNIVERSE = Universe(
    all_dialects=get_xsparse_dialects(),
    all_passes=get_all_passes(),
    all_targets=get_all_targets(),
)
