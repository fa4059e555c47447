"""xsparse, fully active in every Python process of `tools/xdsl_suite.sh`'s
second run of xDSL's suites: imported, its context built with every dialect
whose factory is xsparse's loaded (xsparse's own and the xDSL dialects it
adds to; a factory that is xDSL's runs only xDSL's code, as `xdsl-opt` does
on demand, and loading all 83 would cost 0.7 s more in each of the lit
suite's ~1000 processes), and its pipeline run once (`xsparse.einsum` of a
CSR SpMV, compiled in a private kernel cache, since a disk-cache hit skips
the passes; at `opt_level=0`, since LLVM's optimizer touches no xDSL class).

Python imports `sitecustomize` at start-up from PYTHONPATH; the script puts
this directory there. `lit` and `filecheck` are left alone (neither imports
xDSL). A failure to load xsparse ends the process with status 70 and its
traceback, so that it can never pass as a plain run. Each process that loaded
xsparse appends a line to `$XDSL_SUITE_LOG`, if set.
"""

import os
import sys

_SKIPPED = frozenset({"lit", "filecheck"})


def activate_xsparse() -> str:
    """Load xsparse as a compiler built on it would; the loaded xsparse's path."""
    import shutil
    import tempfile

    import numpy as np
    import scipy.sparse

    import xsparse
    from xsparse.dialect_registry import get_all_dialects, make_context

    ctx = make_context()
    factories = get_all_dialects()
    for name in sorted(ctx.registered_dialect_names):
        factory = factories.get(name)
        if factory is None or not factory.__module__.startswith("xdsl."):
            ctx.load_registered_dialect(name)
    a = scipy.sparse.csr_array(np.array([[1.0, 0.0, 2.0], [0.0, 3.0, 0.0]]))
    x = np.array([1.0, 2.0, 3.0])
    saved = os.environ.get("XSPARSE_CACHE_DIR")
    cache = tempfile.mkdtemp(prefix="xdsl-suite-")
    os.environ["XSPARSE_CACHE_DIR"] = cache
    try:
        y = xsparse.einsum("ij,j->i", a, x, opt_level=0)
    finally:
        if saved is None:
            del os.environ["XSPARSE_CACHE_DIR"]
        else:
            os.environ["XSPARSE_CACHE_DIR"] = saved
        shutil.rmtree(cache, ignore_errors=True)
    if not np.array_equal(y, a @ x):
        raise AssertionError(f"xsparse.einsum gave {y}, scipy {a @ x}")
    return os.path.dirname(xsparse.__file__)


def main() -> None:
    program = os.path.basename(sys.argv[0]) if sys.argv else ""
    if program in _SKIPPED:
        return
    try:
        where = activate_xsparse()
    except BaseException:
        import traceback

        traceback.print_exc()
        print("xdsl_suite: could not load xsparse", file=sys.stderr)
        sys.stderr.flush()
        os._exit(70)
    log = os.environ.get("XDSL_SUITE_LOG")
    if log:
        with open(log, "a") as f:
            f.write(f"{os.getpid()} {program or '-'} {where}\n")


main()
