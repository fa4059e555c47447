#!/usr/bin/env bash
# The oldest xDSL release xsparse supports (the lower bound of the `xdsl>=LOW,<...`
# requirement in pyproject.toml; tools/test.sh tests the newest): set up
# .venv-xdsl-floor with xsparse, its test extra and exactly that xDSL, then run the
# tests that catch xDSL API and syntax changes: lit on the dialects' round trips and
# the main lowering passes, and a pytest subset (xDSL adapter, the xdsl-opt plugin,
# xDSL left unchanged by xsparse (test_embedding),
# the xsparse-opt CLI, and compiling and running every kernel of tests/kernels).
# Measured on 2 cores (xDSL 0.73.0): 2 min with the venv in place, 2.5 min creating it.
# XSPARSE_FLOOR_LIT="tests/filecheck" runs all of lit instead (~12 min on 2 cores).
set -euo pipefail
cd "$(dirname "$0")/.."
LOW=$(sed -n 's/^ *"xdsl>=\([0-9][0-9.]*\),.*/\1/p' pyproject.toml)
[ -n "$LOW" ] || { echo "no \"xdsl>=X,<Y\" requirement in pyproject.toml" >&2; exit 1; }
VENV=.venv-xdsl-floor
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e '.[test]' "xdsl==$LOW"
export PATH="$PWD/$VENV/bin:$PATH"
python -c "from importlib.metadata import version as v; print('xDSL', v('xdsl'))"
# A cache of its own: kernels compiled with the newest xDSL must not stand in.
XSPARSE_CACHE_DIR=$(mktemp -d)
export XSPARSE_CACHE_DIR
trap 'rm -rf "$XSPARSE_CACHE_DIR"' EXIT
# shellcheck disable=SC2086  # a list of paths
lit -q ${XSPARSE_FLOOR_LIT:-tests/filecheck/dialects tests/filecheck/backend \
  tests/filecheck/transforms/sparsification tests/filecheck/transforms/lower-indexing \
  tests/filecheck/transforms/convert-to-llvm}
python -m pytest -q -p no:cacheprovider tests/test_xdsl_adapter.py \
  tests/test_outside_compiler.py tests/test_embedding.py tests/test_opt_cli.py \
  tests/test_kernels.py
