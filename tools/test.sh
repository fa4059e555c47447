#!/usr/bin/env bash
# Set up a virtual environment with xsparse and its test extra, then run every test:
# ruff, lit + filecheck (tests/filecheck) and pytest (tests/).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV="${XSPARSE_VENV:-.venv}"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip >/dev/null
"$VENV/bin/python" -m pip install -q -e '.[test]'
export PATH="$PWD/$VENV/bin:$PATH"
ruff check xsparse tests tools
lit -v tests/filecheck
python -m pytest -q -n auto tests
