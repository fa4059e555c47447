#!/usr/bin/env bash
# xDSL's own test suites with xsparse loaded and without: does embedding
# xsparse into an xDSL compiler change anything? (issue 38)
#
#   tools/xdsl_suite.sh PATH-TO-xdsl-checkout
#
# Runs the checkout's lit suite (tests/filecheck) and pytest suite (tests/)
# twice against the INSTALLED xDSL, the checkout supplying only the tests
# (its tag or sdist version must be the installed xDSL's, and its xdsl/
# sources the installed ones):
# - plain: a cached venv holding what the active venv holds (`pip freeze`),
#   xsparse and its `xdsl.universe` entry point excepted;
# - with xsparse: the active venv, every Python process (xdsl-opt, lit's
#   `python` tests, pytest and its workers) importing xsparse first through
#   tools/xdsl_suite_site/sitecustomize.py: our context built, every dialect
#   whose factory is ours loaded, one einsum compiled through the whole
#   pipeline. Your PYTHONPATH is kept (a worktree's xsparse is the one
#   loaded); lit passes no PYTHONPATH to its tests, so that run puts shims
#   of the venv's commands first on PATH.
# Prints the counts of both runs and, by name, the tests that pass plain and
# fail (or vanish) with xsparse; exits 1 if there is any, 2 on a setup error.
# The plain results are cached (same checkout, packages and options);
# XDSL_SUITE_FRESH=1 runs them again. A checkout: the release's sdist
# (`pip download --no-deps --no-binary :all: xdsl==VERSION`, unpacked) or
# `git worktree add DIR vVERSION`.
#
# Options (environment): XDSL_SUITE_LIT / XDSL_SUITE_PYTEST, the paths to run
# (default tests/filecheck and tests; empty skips that suite); XDSL_SUITE_JOBS
# (default nproc); XDSL_SUITE_LIT_TIMEOUT, seconds per lit test in both runs
# (default 300: xDSL's own 20 s is too short for a test of ten xdsl-opt runs
# each loading xsparse); XDSL_MLIR_OPT / XDSL_MLIR_TRANSLATE (default
# mlir-opt-22 / mlir-translate-22 where installed; empty turns xDSL's
# with-mlir tests off); XDSL_SUITE_CACHE (default ~/.cache/xdsl-suite).
# xDSL's test-only packages (pytest-asyncio, its tests/my_plugin) come from
# an overlay on both pytest runs' PYTHONPATH, not from the venv. xDSL's GUI
# tests need textual, pyclip and its JIT tests cffi: install them into the
# venv (the plain venv copies it), or they fail in both runs.
#
# Measured on 2 cores shared with other jobs (load ~6; xDSL 0.74.0, with-mlir
# tests on): creating the plain venv 35 s and plain lit 9 min, plain pytest
# 50 s (once, then cached); with xsparse, lit 29 min (1044 Python processes,
# each loading xsparse: ~1.2 s of CPU more than plain xdsl-opt's 0.2 s) and
# pytest 30 s. 40 min in all the first time, 30 min after.
set -euo pipefail

die() { echo "xdsl_suite: $*" >&2; exit 2; }
[ $# -eq 1 ] || die "usage: $0 PATH-TO-xdsl-checkout"
[ -d "$1/tests/filecheck" ] || die "$1: not an xDSL checkout (no tests/filecheck)"
CHECKOUT=$(cd "$1" && pwd -P)
SITE=$(cd "$(dirname "$0")/xdsl_suite_site" && pwd -P)
PY=$(command -v python) || die "no python on PATH: activate the venv with xsparse"
VENV=$("$PY" -c 'import sys; print(sys.prefix if sys.prefix != sys.base_prefix else "")')
[ -n "$VENV" ] || die "$PY is not in a venv: activate the venv with xsparse"
VER=$("$PY" -c 'from importlib.metadata import version; print(version("xdsl"))')
XSPARSE=$("$PY" -c 'import os, xsparse; print(os.path.dirname(xsparse.__file__))') ||
  die "xsparse does not import in $VENV"
INSTALLED=$("$PY" -c 'import os, xdsl; print(os.path.dirname(xdsl.__file__))')

# The checkout's version: its git tag, else the sdist's PKG-INFO.
if [ "$(git -C "$CHECKOUT" rev-parse --show-toplevel 2>/dev/null)" = "$CHECKOUT" ]; then
  TAGS=$(git -C "$CHECKOUT" tag --points-at HEAD | tr '\n' ' ')
  case " $TAGS " in
    *" v$VER "* | *" $VER "*) ;;
    *) die "$CHECKOUT is at tag(s) '${TAGS% }', not v$VER, the installed xDSL's: check out v$VER" ;;
  esac
  # (lit writes its test times beside the tests: not a change)
  [ -z "$(git -C "$CHECKOUT" status --porcelain -- tests xdsl \
    ':(exclude,glob)**/.lit_test_times.txt')" ] ||
    die "$CHECKOUT has local changes under tests/ or xdsl/"
elif [ -f "$CHECKOUT/PKG-INFO" ]; then
  HAVE=$(sed -n 's/^Version: *//p' "$CHECKOUT/PKG-INFO" | head -1)
  [ "$HAVE" = "$VER" ] ||
    die "$CHECKOUT is xDSL $HAVE's sdist, not $VER, the installed xDSL's"
elif [ ! -d "$CHECKOUT/xdsl" ]; then
  die "$CHECKOUT: no git tag, PKG-INFO or xdsl/ sources to check against the installed xDSL $VER"
fi
# Same sources: the tests meet the code they were written for (and an
# archive without a tag or PKG-INFO is the release it matches).
if [ -d "$CHECKOUT/xdsl" ]; then
  DIFF=$(diff -rq --exclude=__pycache__ --exclude='*.pyi' "$CHECKOUT/xdsl" "$INSTALLED" |
    grep -E ' differ$|\.py$' || true)
  [ -z "$DIFF" ] || die "$CHECKOUT/xdsl is not the installed xDSL $VER ($INSTALLED):
$DIFF"
fi

CACHE=${XDSL_SUITE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/xdsl-suite}
JOBS=${XDSL_SUITE_JOBS:-$(nproc)}
LIT_PATHS=${XDSL_SUITE_LIT-tests/filecheck}
PYTEST_PATHS=${XDSL_SUITE_PYTEST-tests}
LIT_TIMEOUT=${XDSL_SUITE_LIT_TIMEOUT:-300}
export XDSL_MLIR_OPT=${XDSL_MLIR_OPT-$(command -v mlir-opt-22 || true)}
export XDSL_MLIR_TRANSLATE=${XDSL_MLIR_TRANSLATE-$(command -v mlir-translate-22 || true)}
mkdir -p "$CACHE"

# The plain venv: the active venv's packages at their versions, xsparse excepted.
FREEZE=$("$PY" -m pip freeze --exclude xsparse 2>/dev/null)
PLAIN="$CACHE/plain-$VER-$(printf '%s' "$FREEZE" | sha256sum | cut -c1-12)"
if [ ! -f "$PLAIN/.complete" ]; then
  echo "xdsl_suite: creating $PLAIN (the active venv's packages, xsparse excepted)"
  rm -rf "$CACHE"/plain-* "$CACHE"/results-*  # older packages' venvs and results
  env -u PYTHONPATH "$PY" -m venv "$PLAIN"
  printf '%s\n' "$FREEZE" >"$PLAIN/requirements.txt"
  env -u PYTHONPATH "$PLAIN/bin/python" -m pip install -q -r "$PLAIN/requirements.txt" 2>&1 |
    grep -v 'is ignored: it is neither a file nor a directory' || true
  touch "$PLAIN/.complete"
fi
(cd / && env -u PYTHONPATH "$PLAIN/bin/python" - "$VER") <<'EOF' || die "$PLAIN has xsparse"
import importlib.util, sys
from importlib.metadata import entry_points, version
assert version("xdsl") == sys.argv[1], version("xdsl")
assert importlib.util.find_spec("xsparse") is None, "xsparse importable"
names = [e.name for e in entry_points(group="xdsl.universe")]
assert names == ["xdsl"], names
EOF

# xDSL's test-only packages, on both pytest runs' PYTHONPATH: pytest-asyncio
# at its lock file's version (its GUI tests need it; installed in the venv,
# it would warn in every pytest run of a project that does not configure it)
# and its tests/my_plugin, whose entry point test_multiverse looks for.
ASYNCIO_VER=$(sed -n '/^name = "pytest-asyncio"$/{n;s/^version = "\(.*\)"$/\1/p;}' \
  "$CHECKOUT/uv.lock" 2>/dev/null || true)
OVERLAY="$CACHE/pytest-overlay-$VER-${ASYNCIO_VER:-latest}"
if [ -n "$PYTEST_PATHS" ] && [ ! -f "$OVERLAY/.complete" ]; then
  rm -rf "$OVERLAY"
  PLUGIN=()
  [ -f "$CHECKOUT/tests/my_plugin/pyproject.toml" ] && PLUGIN=("$CHECKOUT/tests/my_plugin")
  "$PY" -m pip install --no-deps --target "$OVERLAY" \
    "pytest-asyncio${ASYNCIO_VER:+==$ASYNCIO_VER}" "${PLUGIN[@]}" >"$OVERLAY.log" 2>&1 ||
    die "could not install xDSL's test packages into $OVERLAY (see $OVERLAY.log)"
  touch "$OVERLAY/.complete"
fi

OUT=$(mktemp -d "${TMPDIR:-/tmp}/xdsl-suite.XXXXXX")
# Shims of the active venv's commands that load xsparse first (lit keeps
# PATH but drops PYTHONPATH); lit and filecheck run as they are.
SHIMS="$OUT/bin-xsparse"
LOG="$OUT/xsparse-processes.log"
XSPARSE_PYTHONPATH="$SITE${PYTHONPATH:+:$PYTHONPATH}"
mkdir -p "$SHIMS"
for tool in "$VENV"/bin/*; do
  name=$(basename "$tool")
  case "$name" in activate* | lit | filecheck | pip*) continue ;; esac
  [ -f "$tool" ] && [ -x "$tool" ] || continue
  printf '#!/usr/bin/env bash\nPYTHONPATH=%q XDSL_SUITE_LOG=%q exec %q "$@"\n' \
    "$XSPARSE_PYTHONPATH" "$LOG" "$tool" >"$SHIMS/$name"
  chmod +x "$SHIMS/$name"
done
(cd / && "$SHIMS/python" -c 'import sys; assert "xsparse" in sys.modules') ||
  die "the sitecustomize in $SITE did not load xsparse"

# The key of the plain results: everything they depend on.
PLAIN_KEY=$( {
  echo "$VER $CHECKOUT $PLAIN $OVERLAY $JOBS $LIT_TIMEOUT"
  echo "$LIT_PATHS | $PYTEST_PATHS | $XDSL_MLIR_OPT | $XDSL_MLIR_TRANSLATE"
  (cd "$CHECKOUT" && find tests -type f ! -name .lit_test_times.txt -printf '%P %s %T@\n' | sort)
} | sha256sum | cut -c1-16)
PLAIN_RESULTS="$CACHE/results-$PLAIN_KEY"

# run_lit BIN PATH-PREFIX RESULT [env...]: lit over LIT_PATHS with that venv's lit.
run_lit() {
  local bin=$1 prefix=$2 result=$3
  shift 3
  # shellcheck disable=SC2086  # a list of paths
  (cd "$CHECKOUT" && env "$@" PATH="$prefix:$PATH" "$bin/lit" -q -j "$JOBS" \
    --timeout "$LIT_TIMEOUT" -o "$result" $LIT_PATHS) >"${result%.json}.log" 2>&1 || true
}
# run_pytest BIN RESULT [env...]: pytest over PYTEST_PATHS, with the venv's
# `pytest` (not `python -m`, which would put the checkout's xdsl/ first).
run_pytest() {
  local bin=$1 result=$2 parallel=()
  shift 2
  if [ "$JOBS" -gt 1 ] && "$bin/python" -c 'import xdist' 2>/dev/null; then
    parallel=(-n "$JOBS")
  fi
  # shellcheck disable=SC2086  # a list of paths
  (cd "$CHECKOUT" && env "$@" "$bin/pytest" -q -p no:cacheprovider "${parallel[@]}" \
    --maxfail=0 --import-mode=importlib --junitxml="$result" $PYTEST_PATHS) \
    >"${result%.xml}.log" 2>&1 || true
}
timed() {
  local start=$SECONDS
  "$@"
  echo "  ($((SECONDS - start)) s)"
}

if [ -n "${XDSL_SUITE_FRESH:-}" ] || [ ! -f "$PLAIN_RESULTS/.complete" ]; then
  rm -rf "$PLAIN_RESULTS"
  mkdir -p "$PLAIN_RESULTS"
  if [ -n "$LIT_PATHS" ]; then
    echo "xdsl_suite: lit, plain"
    timed run_lit "$PLAIN/bin" "$PLAIN/bin" "$PLAIN_RESULTS/lit-plain.json" -u PYTHONPATH
  fi
  if [ -n "$PYTEST_PATHS" ]; then
    echo "xdsl_suite: pytest, plain"
    timed run_pytest "$PLAIN/bin" "$PLAIN_RESULTS/pytest-plain.xml" PYTHONPATH="$OVERLAY"
  fi
  touch "$PLAIN_RESULTS/.complete"
else
  echo "xdsl_suite: plain results from $PLAIN_RESULTS (XDSL_SUITE_FRESH=1 reruns them)"
fi
cp "$PLAIN_RESULTS"/*-plain.* "$OUT/" 2>/dev/null || true
if [ -n "$LIT_PATHS" ]; then
  echo "xdsl_suite: lit, with xsparse"
  timed run_lit "$VENV/bin" "$SHIMS:$VENV/bin" "$OUT/lit-xsparse.json"
fi
if [ -n "$PYTEST_PATHS" ]; then
  echo "xdsl_suite: pytest, with xsparse"
  timed run_pytest "$VENV/bin" "$OUT/pytest-xsparse.xml" \
    PYTHONPATH="$XSPARSE_PYTHONPATH:$OVERLAY" XDSL_SUITE_LOG="$LOG"
fi

echo "xDSL $VER's suites at $CHECKOUT; xsparse from $XSPARSE; logs in $OUT"
"$PY" - "$OUT" "$LOG" <<'EOF'
"""Compare the plain and xsparse runs' results; exit 1 on a new failure."""

import collections
import json
import os
import sys
import xml.etree.ElementTree as ET

out, log = sys.argv[1], sys.argv[2]
PASS, FAIL, SKIP = "pass", "fail", "skip"


def lit_results(path: str) -> dict[str, str]:
    kinds = {"PASS": PASS, "XFAIL": PASS, "UNSUPPORTED": SKIP}
    with open(path) as f:
        tests = json.load(f)["tests"]
    return {t["name"].split(" :: ", 1)[-1]: kinds.get(t["code"], FAIL) for t in tests}


def pytest_results(path: str) -> dict[str, str]:
    results: dict[str, str] = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname')}::{case.get('name')}"
        tags = {child.tag for child in case}
        kind = FAIL if tags & {"failure", "error"} else SKIP if "skipped" in tags else PASS
        if results.get(name) != FAIL:  # an error in teardown is a second entry
            results[name] = kind
    return results


def summary(results: dict[str, str]) -> str:
    counts = collections.Counter(results.values())
    return f"{counts[PASS]} pass, {counts[FAIL]} fail, {counts[SKIP]} skipped"


new_failures = 0
for suite, read, ext in (("lit", lit_results, "json"), ("pytest", pytest_results, "xml")):
    plain_path, xsparse_path = (f"{out}/{suite}-{run}.{ext}" for run in ("plain", "xsparse"))
    if not os.path.exists(plain_path) and not os.path.exists(xsparse_path):
        continue
    if not (os.path.exists(plain_path) and os.path.exists(xsparse_path)):
        print(f"{suite}: a run left no results (see the logs in {out})", file=sys.stderr)
        sys.exit(2)
    plain, xsparse = read(plain_path), read(xsparse_path)
    broken = sorted(n for n, k in plain.items() if k == PASS and xsparse.get(n) != PASS)
    fixed = sum(1 for n, k in xsparse.items() if k == PASS and plain.get(n) != PASS)
    print(f"{suite:6}  plain: {summary(plain)}")
    print(f"{'':6}  with xsparse: {summary(xsparse)}")
    print(f"{'':6}  pass plain, not with xsparse: {len(broken)}; the reverse: {fixed}")
    for name in broken:
        print(f"{'':8}{name} ({xsparse.get(name, 'missing')})")
    new_failures += len(broken)
with open(log) as f:
    programs = collections.Counter(line.split()[1] for line in f)
print(
    f"xsparse loaded in {sum(programs.values())} processes:",
    ", ".join(f"{p} {n}" for p, n in programs.most_common()),
)
if sum(programs.values()) < 2:  # only the check before the runs
    print("xsparse was loaded in none of the tests' processes", file=sys.stderr)
    sys.exit(2)
sys.exit(1 if new_failures else 0)
EOF
