"""Adversarial cases: what a hostile or unlucky user does to the compiler.

Each seed draws one attack of a kind (`KINDS`) with random parameters: sizes
whose allocations cannot succeed or whose byte counts overflow, integer
division by zero and INT_MIN / -1, sparse results that overflow narrow
position or coordinate widths, refused calls that must leave every argument
as it was, deeply nested IR, quoted symbol names, undecodable input, a
tampered disk cache, forks while compiling or while a kernel runs on
threads, absurd thread counts and non-integer shapes. The case is a
self-contained Python script (its reproducer) run in a child process under
an address-space limit (`RLIMIT_AS`), so an allocation that cannot succeed
fails there instead of taking the machine's memory. The script ends by
printing one verdict line; the child's exit tells the rest:

- OK: the result is numpy's (or the valid input ran);
- REFUSED: a clean error (MemoryError / ValueError / TypeError / XSparseError,
  or a located `error:` line from a CLI) and every argument unchanged;
- WRONG: a result that is not numpy's, or an argument changed by a refused call;
- ERROR: any other exception, a traceback or an unlocated diagnostic;
- CRASH: the child was killed by a signal (or glibc aborted);
- HANG: no verdict within the time limit.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable

import numpy as np

from xsparse.testing.outcome import CaseOutcome, Verdict

ADDRESS_SPACE = 6 << 30
"""RLIMIT_AS of a case's process: 6 GiB (the JIT, numpy and a few threads
fit; a workspace of 2^30 doubles does not)."""
TIMEOUT = 240.0
"""Seconds before a case is a HANG (a compile of a few kernels fits)."""
MARK = "@@verdict"
CSR_TEXT = "#sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>"
SVEC_TEXT = "#sparse_tensor.encoding<{ map = (i) -> (i : compressed) }>"

PRELUDE = f'''
import os, resource, sys, hashlib, subprocess, tempfile, threading, time, warnings
resource.setrlimit(resource.RLIMIT_AS, ({ADDRESS_SPACE}, {ADDRESS_SPACE}))
import numpy as np
import scipy.sparse as sp
import xsparse
from xsparse import SparseTensor

CLEAN = (MemoryError, ValueError, TypeError, xsparse.XSparseError)
CSR_ENC = "{CSR_TEXT}"
SVEC_ENC = "{SVEC_TEXT}"


def verdict(kind, detail=""):
    print("{MARK}", kind, str(detail).replace("\\n", " | ")[:400], flush=True)
    os._exit(0)


def digest(*arrays):
    h = hashlib.sha256()
    for a in arrays:
        if isinstance(a, SparseTensor):
            parts = [*a.positions, *a.coordinates, a.values]
        elif sp.issparse(a):
            a = a.tocsr() if a.format not in ("csr", "csc") else a
            parts = [a.indptr, a.indices, a.data]
        else:
            parts = [a]
        for p in parts:
            if p is not None:
                h.update(np.ascontiguousarray(p).tobytes())
    return h.hexdigest()


def refused_or(call, expected, *arguments):
    """Run `call`; a clean refusal must leave `arguments` unchanged, a result
    must equal `expected()` (dense)."""
    before = digest(*arguments)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call()
    except UnicodeError as e:
        verdict("error", f"{{type(e).__name__}}: {{e}}")
    except CLEAN as e:
        if digest(*arguments) != before:
            verdict("wrong", f"refused ({{type(e).__name__}}: {{e}}) and changed an argument")
        if not str(e):
            verdict("error", f"{{type(e).__name__}} without a message")
        still_usable()
        verdict("refused", f"{{type(e).__name__}}: {{e}}")
    want = expected()
    if sp.issparse(want):  # too large to compare dense
        got = result.to_scipy() if isinstance(result, SparseTensor) else result
        same = got.shape == want.shape and (abs(got - want) > 0).nnz == 0
    else:
        dense = result.toarray() if hasattr(result, "toarray") else np.asarray(result)
        same = dense.shape == want.shape and np.array_equal(dense, want)
    if not same:
        verdict("wrong", f"result differs from numpy's")
    still_usable()
    verdict("ok")


def valid(result):
    """A sparse result that its own validation accepts (else WRONG: the kernel
    returned corrupt buffers)."""
    try:
        result.validate()
    except ValueError as e:
        verdict("wrong", f"the result fails validate(): {{e}}")
    return result


def still_usable():
    """The process runs a small kernel right after."""
    a = sp.random_array((30, 20), density=0.2, format="csr", rng=1)
    x = np.arange(20.0)
    if not np.allclose(xsparse.einsum("ij,j->i", a, x), a @ x):
        verdict("wrong", "a kernel after the case gives a wrong result")


def cli(*command, stdin=None):
    """(exit code, stdout, stderr) of one of our CLIs on this interpreter."""
    run = subprocess.run(
        [sys.executable, "-m", *command], input=stdin, capture_output=True, timeout=200
    )
    return run.returncode, run.stdout.decode(errors="replace"), run.stderr.decode(errors="replace")


def cli_verdict(code, out, err):
    """A CLI's run: 0 is ok; 1 with a located `error:` line and no traceback is
    refused; anything else is an error (a signal is a crash)."""
    if code < 0:
        print(err[-2000:], file=sys.stderr)
        os.kill(os.getpid(), -code)
    if code == 0:
        verdict("ok")
    located = any(":" in line.split("error:")[0] for line in err.splitlines() if "error:" in line)
    if code == 1 and located and "Traceback" not in err and "internal error" not in err:
        verdict("refused", err.strip().splitlines()[0])
    verdict("error", f"exit {{code}}: {{err.strip()[-600:]}}")
'''

CSR = CSR_TEXT
SVEC = SVEC_TEXT


def _workspace(rng: np.random.Generator) -> str:
    """SpGEMM whose row workspace has 2^k slots (A 2x4, B 4 x 2^k, 2 entries)."""
    k = int(rng.integers(10, 45))
    cols = sorted({int(rng.integers(0, 2**k)) for _ in range(2)})
    return f"""
n = 2 ** {k}
a = sp.csr_array((np.array([1.0, 2.0]), (np.array([0, 1]), np.array([1, 3]))), shape=(2, 4))
rows = np.array([1, 3][: len({cols})])
b = sp.csr_array((np.array([3.0, 5.0][: len({cols})]), (rows, np.array({cols}))), shape=(4, n))
def expected():
    return (a @ b[:, {cols}]).toarray()
def call():
    c = xsparse.einsum("ik,kj->ij", a, b)
    if c.shape != (2, n) or c.nnz > 2 * len({cols}):
        verdict("wrong", f"shape {{c.shape}}, {{c.nnz}} entries")
    return c[:, {cols}]
refused_or(call, expected, a, b)
"""


def _dense_result(rng: np.random.Generator) -> str:
    """A dense result `tensor.empty(%n, %m)` of a drawn size, filled by a generic."""
    n = int(rng.choice([3, 1000, 10**5, 2**31, 2**61, 2**62 + 1, 2**63 - 1]))
    m = int(rng.choice([1, 4, 10**5, 2**33]))
    return f'''
text = """
func.func @fill(%n: index, %m: index, %v: f64) -> tensor<?x?xf64> {{
  %e = tensor.empty(%n, %m) : tensor<?x?xf64>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}} outs(%e : tensor<?x?xf64>) {{
  ^bb0(%o: f64):
    linalg.yield %v : f64
  }} -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}}"""
n, m = {n}, {m}
kernel = xsparse.compile(text)
refused_or(lambda: kernel(n, m, 2.5), lambda: np.full((n, m), 2.5))
'''


def _static_dense(rng: np.random.Generator) -> str:
    """A static dense result of a drawn size from a CSR input (scale into dense)."""
    n = int(rng.choice([7, 10**4, 10**5, 3 * 10**5]))
    return f'''
n = {n}
text = f"""
#CSR = {{CSR_ENC}}
func.func @scale(%a: tensor<{{n}}x{{n}}xf64, #CSR>) -> tensor<{{n}}x{{n}}xf64> {{{{
  %e = tensor.empty() : tensor<{{n}}x{{n}}xf64>
  %r = linalg.generic {{{{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}}}} ins(%a : tensor<{{n}}x{{n}}xf64, #CSR>)
      outs(%e : tensor<{{n}}x{{n}}xf64>) {{{{
  ^bb0(%x: f64, %o: f64):
    %y = arith.mulf %x, %x : f64
    linalg.yield %y : f64
  }}}} -> tensor<{{n}}x{{n}}xf64>
  return %r : tensor<{{n}}x{{n}}xf64>
}}}}"""
a = sp.csr_array((np.array([3.0]), (np.array([n - 1]), np.array([0]))), shape=(n, n))
kernel = xsparse.compile(text)
def expected():
    d = np.zeros((n, n))
    d[n - 1, 0] = 9.0
    return d
refused_or(lambda: kernel(a), expected, a)
'''


DIVISIONS = {
    "divsi": "trunc",
    "remsi": "rem",
    "floordivsi": "floor",
    "ceildivsi": "ceil",
    "divui": "udiv",
    "remui": "urem",
    "ceildivui": "uceil",
}


def _division(rng: np.random.Generator) -> str:
    """c = a op b on a CSR a (with INT_MIN, -1, 0 among the values) and dense
    b (zeros and -1), compared with the op on Python integers (x / 0 -> 0,
    INT_MIN / -1 wraps, as numpy)."""
    op = str(rng.choice(list(DIVISIONS)))
    bits = int(rng.choice([8, 16, 32, 64]))
    vl = int(rng.choice([1, 1, 4, 8, 16]))
    threads = int(rng.choice([1, 2]))
    return f'''
op, bits, rule = "{op}", {bits}, "{DIVISIONS[op]}"
T = f"i{{bits}}"
text = f"""
#CSR = {{CSR_ENC}}
func.func @div(%a: tensor<?x?x{{T}}, #CSR>, %b: tensor<?x?x{{T}}>, %c: tensor<?x?x{{T}}>) -> tensor<?x?x{{T}}> {{{{
  %r = linalg.generic {{{{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>,
      affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}}}
      ins(%a, %b : tensor<?x?x{{T}}, #CSR>, tensor<?x?x{{T}}>) outs(%c : tensor<?x?x{{T}}>) {{{{
  ^bb0(%x: {{T}}, %y: {{T}}, %o: {{T}}):
    %q = arith.{{op}} %x, %y : {{T}}
    linalg.yield %q : {{T}}
  }}}} -> tensor<?x?x{{T}}>
  return %r : tensor<?x?x{{T}}>
}}}}"""
rng = np.random.default_rng({int(rng.integers(1 << 30))})
dtype = np.dtype(f"int{{bits}}")
lo, hi = -(2 ** (bits - 1)), 2 ** (bits - 1) - 1
shape = (int(rng.integers(1, 40)), int(rng.integers(1, 70)))
pool = np.array([lo, lo + 1, -1, 0, 1, 2, -2, 7, -7, hi], dtype=np.int64)
a = rng.choice(pool, shape) * (rng.random(shape) < 0.6)
b = rng.choice(np.array([0, 0, -1, 1, 3, -3, lo, hi]), shape)
def semantics(x, y):
    m = 2 ** bits
    if rule.startswith("u"):
        x, y = x % m, y % m
    if y == 0:
        return 0
    if rule in ("trunc", "rem"):
        q = abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1)
        value = q if rule == "trunc" else x - y * q
    elif rule == "floor":
        value = x // y
    elif rule == "ceil":
        value = -((-x) // y)
    elif rule == "udiv":
        value = x // y
    elif rule == "urem":
        value = x % y
    else:
        value = -((-x) // y)
    value %= m
    return value - m if value >= m // 2 else value
def expected():
    out = np.zeros(shape, dtype=np.int64)
    for i, j in zip(*np.nonzero(a)):
        out[i, j] = semantics(int(a[i, j]), int(b[i, j]))
    return out.astype(dtype)
kernel = xsparse.compile(text, vl={vl})
xsparse.set_num_threads({threads})
A = sp.csr_array(a.astype(dtype))
B = b.astype(dtype)
refused_or(lambda: kernel(A, B, np.zeros(shape, dtype)), expected, A, B)
'''


def _narrow_outer(rng: np.random.Generator) -> str:
    """x(i) * y(j) into CSR with narrow positions / coordinates: the result
    fits (numpy's) or is a ValueError naming the width."""
    pos = int(rng.choice([8, 16, 32]))
    crd = int(rng.choice([8, 16, 32]))
    n = int(rng.choice([10, 200, 300, 70000]))
    nx, ny = int(rng.integers(1, 30)), int(rng.integers(1, 30))
    threads = int(rng.choice([1, 2]))
    return f'''
n, nx, ny = {n}, {nx}, {ny}
OUT = "#sparse_tensor.encoding<{{ map = (i, j) -> (i : dense, j : compressed), posWidth = {pos}, crdWidth = {crd} }}>"
text = f"""
#SV = {{SVEC_ENC}}
#OUT = {{OUT}}
func.func @outer(%x: tensor<?xf64, #SV>, %y: tensor<?xf64, #SV>) -> tensor<?x?xf64, #OUT> {{{{
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf64, #SV>
  %m = tensor.dim %y, %c0 : tensor<?xf64, #SV>
  %e = tensor.empty(%n, %m) : tensor<?x?xf64, #OUT>
  %r = linalg.generic {{{{indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>,
      affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}}}}
      ins(%x, %y : tensor<?xf64, #SV>, tensor<?xf64, #SV>) outs(%e : tensor<?x?xf64, #OUT>) {{{{
  ^bb0(%a: f64, %b: f64, %o: f64):
    %p = arith.mulf %a, %b : f64
    linalg.yield %p : f64
  }}}} -> tensor<?x?xf64, #OUT>
  return %r : tensor<?x?xf64, #OUT>
}}}}"""
rng = np.random.default_rng({int(rng.integers(1 << 30))})
x = np.zeros(n); x[rng.choice(n, min(nx, n), replace=False)] = 1.0 + rng.random(min(nx, n))
y = np.zeros(n); y[rng.choice(n, min(ny, n), replace=False)] = 1.0 + rng.random(min(ny, n))
xsparse.set_num_threads({threads})
kernel = xsparse.compile(text)
X, Y = sp.coo_array(x), sp.coo_array(y)
X = SparseTensor.from_dense(x, "{SVEC}")
Y = SparseTensor.from_dense(y, "{SVEC}")
def call():
    return valid(kernel(X, Y))
refused_or(call, lambda: sp.csr_array(x[:, None]) @ sp.csr_array(y[None, :]), X, Y)
'''


def _narrow_convert(rng: np.random.Generator) -> str:
    """CSR -> CSR / CSC with narrow widths: fits or a ValueError."""
    pos = int(rng.choice([8, 16]))
    crd = int(rng.choice([8, 16, 32]))
    order = str(rng.choice(["i : dense, j : compressed", "j : dense, i : compressed"]))
    rows, cols = int(rng.choice([5, 40, 300])), int(rng.choice([5, 200, 300, 70000]))
    nnz = int(rng.choice([10, 200, 255, 256, 300, 70000]))
    threads = int(rng.choice([1, 2]))
    return f'''
DST = "#sparse_tensor.encoding<{{ map = (i, j) -> ({order}), posWidth = {pos}, crdWidth = {crd} }}>"
text = f"""
#SRC = {{CSR_ENC}}
#DST = {{DST}}
func.func @convert(%a: tensor<?x?xf64, #SRC>) -> tensor<?x?xf64, #DST> {{{{
  %0 = sparse_tensor.convert %a : tensor<?x?xf64, #SRC> to tensor<?x?xf64, #DST>
  return %0 : tensor<?x?xf64, #DST>
}}}}"""
rng = np.random.default_rng({int(rng.integers(1 << 30))})
shape = ({rows}, {cols})
flat = rng.choice(shape[0] * shape[1], min({nnz}, shape[0] * shape[1]), replace=False)
a = sp.csr_array((1.0 + rng.random(flat.size), (flat // shape[1], flat % shape[1])), shape=shape)
xsparse.set_num_threads({threads})
kernel = xsparse.compile(text)
def call():
    return valid(kernel(a))
refused_or(call, lambda: a.toarray(), a)
'''


def _refused_out(rng: np.random.Generator) -> str:
    """einsum / evaluate with out=, then a refused call: `out` keeps its values."""
    attack = str(rng.choice(["shape", "coordinate", "dtype", "positions"]))
    use_evaluate = bool(rng.random() < 0.5)
    return f'''
rng = np.random.default_rng({int(rng.integers(1 << 30))})
a = sp.random_array((50, 40), density=0.1, format="csr", rng=rng)
x = rng.random(40)
y = np.full(50, 7.0)
def run(a, x):
    if {use_evaluate}:
        return xsparse.evaluate("y(i) = A(i,j) * x(j)", A=a, x=x, out=y)
    return xsparse.einsum("ij,j->i", a, x, out=y)
run(a, x)
if not np.allclose(y, a @ x):
    verdict("wrong", "first call")
attack = "{attack}"
if attack == "shape":
    bad_a, bad_x = a, rng.random(41)
elif attack == "dtype":
    bad_a, bad_x = a, rng.random(40).astype(np.complex128) * 1j
else:
    t = SparseTensor.from_scipy(a)
    positions, coordinates = list(t.positions), list(t.coordinates)
    if attack == "coordinate":
        c = np.array(coordinates[1]); c[len(c) // 2] = 40 + int(rng.integers(0, 1000)); coordinates[1] = c
    else:
        p = np.array(positions[1]); p[len(p) // 2] = p[-1] + 5; positions[1] = p
    bad_a = SparseTensor(t.encoding, t.shape, positions, coordinates, t.values, validate=False)
    bad_x = x
refused_or(lambda: run(bad_a, bad_x), lambda: np.asarray(bad_a.toarray()) @ bad_x, y, bad_a, bad_x)
'''


def _deep_ir(rng: np.random.Generator) -> str:
    """Nested regions, brackets or a long op chain through xsparse-opt."""
    depth = int(rng.choice([100, 1000, 5000, 10000, 20000]))
    shape = str(rng.choice(["regions", "brackets", "chain"]))
    return f'''
depth, shape = {depth}, "{shape}"
if shape == "regions":
    body = "  %t = arith.constant true\\n" + "scf.if %t {{\\n" * depth + "}}\\n" * depth
    text = "func.func @f() {{\\n" + body + "  return\\n}}\\n"
elif shape == "brackets":
    text = "func.func @f() attributes {{x = " + "[" * depth + "1" + "]" * depth + "}} {{\\n  return\\n}}\\n"
else:
    lines = ["func.func @f(%a: f64) -> f64 {{", "  %v0 = arith.addf %a, %a : f64"]
    lines += [f"  %v{{k}} = arith.mulf %v{{k - 1}}, %a : f64" for k in range(1, depth)]
    lines += [f"  return %v{{depth - 1}} : f64", "}}"]
    text = "\\n".join(lines) + "\\n"
with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
    f.write(text)
cli_verdict(*cli("xsparse.tools.opt", f.name, "--sparsifier"))
'''


def _quoted_name(rng: np.random.Generator) -> str:
    """A kernel whose symbol needs quoting: compiled and called by its name."""
    name = str(rng.choice(["my kernel", "a.b-c", "x$y", "ümlaut", "1st"]))
    return f'''
name = "{name}"
text = f"""
#CSR = {{CSR_ENC}}
func.func @"{{name}}"(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {{{{
  %r = linalg.generic {{{{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
      affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}}}}
      ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {{{{
  ^bb0(%av: f64, %xv: f64, %o: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %o, %m : f64
    linalg.yield %s : f64
  }}}} -> tensor<?xf64>
  return %r : tensor<?xf64>
}}}}"""
a = sp.random_array((20, 10), density=0.3, format="csr", rng=3)
x = np.arange(10.0)
try:
    kernel = xsparse.compile(text, entry=name)
except xsparse.XSparseError as e:  # a name LLVM cannot look up: located
    if ":" not in str(e).split("error:")[0]:
        verdict("error", f"unlocated: {{e}}")
    verdict("refused", str(e))
refused_or(lambda: kernel(a, x, np.zeros(20)), lambda: a @ x, a, x)
'''


def _undecodable(rng: np.random.Generator) -> str:
    """Bytes that are not UTF-8 (or a lone surrogate) in otherwise valid input."""
    junk = bytes(int(b) for b in rng.integers(0x80, 0x100, int(rng.integers(1, 4))))
    where = str(rng.choice(["comment", "code", "string", "surrogate"]))
    return f'''
junk, where = {junk!r}, "{where}"
good = b"func.func @f(%a: f64) -> f64 {{\\n  return %a : f64\\n}}\\n"
if where == "surrogate":
    try:
        xsparse.compile(good.decode().replace("@f", "@f\\udc80"))
    except UnicodeError as e:
        verdict("error", f"{{type(e).__name__}}: {{e}}")
    except CLEAN as e:
        verdict("refused", f"{{type(e).__name__}}: {{e}}")
    verdict("ok")
text = {{"comment": b"// " + junk + b"\\n" + good, "code": good.replace(b"%a :", junk + b" %a :"),
        "string": good.replace(b"{{", b"attributes {{s = \\"" + junk + b"\\"}} {{", 1)}}[where]
with tempfile.NamedTemporaryFile("wb", suffix=".mlir", delete=False) as f:
    f.write(text)
cli_verdict(*cli("xsparse.tools.opt", f.name))
'''


def _cache_tamper(rng: np.random.Generator) -> str:
    """Compile into a private cache, tamper with it, compile again in a new process."""
    attack = str(
        rng.choice(["garbage", "swap", "metadata", "world-writable", "truncate"])
    )
    return f'''
attack = "{attack}"
directory = tempfile.mkdtemp()
program = """
import os, sys, numpy as np, scipy.sparse as sp, xsparse
k = int(sys.argv[1])
text = open(sys.argv[2]).read().replace("SCALE", str(float(k)))
a = sp.random_array((30, 20), density=0.3, format="csr", rng=5)
x = np.arange(20.0)
y = xsparse.compile(text)(a, x, np.zeros(30))
assert np.allclose(y, k * (a @ x)), "wrong"
print("fine")
"""
kernel = """
#CSR = {CSR}
func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>, %y: tensor<?xf64>) -> tensor<?xf64> {{
  %s = arith.constant SCALE : f64
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
      affine_map<(i, j) -> (i)>], iterator_types = ["parallel", "reduction"]}}
      ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>) outs(%y : tensor<?xf64>) {{
  ^bb0(%av: f64, %xv: f64, %o: f64):
    %m = arith.mulf %av, %xv : f64
    %t = arith.mulf %m, %s : f64
    %u = arith.addf %o, %t : f64
    linalg.yield %u : f64
  }} -> tensor<?xf64>
  return %r : tensor<?xf64>
}}"""
source = os.path.join(directory, "kernel.mlir")
with open(source, "w") as f:
    f.write(kernel)
env = dict(os.environ, XSPARSE_CACHE_DIR=os.path.join(directory, "cache"))
def child(k):
    run = subprocess.run([sys.executable, "-c", program, str(k), source], env=env,
                         capture_output=True, timeout=200)
    if run.returncode < 0:
        print(run.stderr.decode()[-2000:], file=sys.stderr)
        os.kill(os.getpid(), -run.returncode)
    return run.returncode, run.stderr.decode(errors="replace")
for k in (2, 3):
    code, err = child(k)
    if code:
        verdict("error", f"a clean compile failed: {{err[-400:]}}")
cache = env["XSPARSE_CACHE_DIR"]
entries = sorted(os.listdir(cache))
objects = [e for e in entries if e.endswith(".o")]
metadata = [e for e in entries if e.endswith(".kernel.json")]
rng = np.random.default_rng({int(rng.integers(1 << 30))})
def rewrite(name, payload):
    path = os.path.join(cache, name)
    with open(path, "rb") as f:
        header = f.read(16)
    import struct
    with open(path, "wb") as f:
        if header.startswith(b"xsparse cache"):
            f.write(header + struct.pack(">Q", len(payload)) + hashlib.sha256(payload).digest() + payload)
        else:
            f.write(payload)
if attack == "garbage" and objects:
    for name in objects:
        rewrite(name, bytes(rng.integers(0, 256, 4096, dtype=np.uint8)))
elif attack == "swap" and len(objects) >= 2:
    one, two = (os.path.join(cache, n) for n in objects[:2])
    data_one, data_two = open(one, "rb").read(), open(two, "rb").read()
    open(one, "wb").write(data_two); open(two, "wb").write(data_one)
    if len(metadata) >= 2:
        one, two = (os.path.join(cache, n) for n in metadata[:2])
        data_one, data_two = open(one, "rb").read(), open(two, "rb").read()
        open(one, "wb").write(data_two); open(two, "wb").write(data_one)
elif attack == "metadata" and metadata:
    for name in metadata:
        rewrite(name, b'{{"signatures": 7, "arguments": []}}')
elif attack == "world-writable":
    os.chmod(cache, 0o777)
elif attack == "truncate":
    for name in entries:
        path = os.path.join(cache, name)
        if os.path.isfile(path):
            os.truncate(path, os.path.getsize(path) // 2)
with warnings.catch_warnings():
    for k in (2, 3):
        code, err = child(k)
        if code:
            verdict("error" if "wrong" not in err else "wrong", f"after {{attack}}: {{err[-600:]}}")
verdict("ok")
'''


def _fork(rng: np.random.Generator) -> str:
    """Fork while another thread compiles, or while a kernel runs on threads;
    the child compiles and runs a kernel, the parent goes on."""
    moment = str(rng.choice(["idle", "compiling", "running"]))
    delay = float(rng.uniform(0.0, 0.5))
    return f'''
moment, delay = "{moment}", {delay}
xsparse.set_num_threads(2)
a = sp.random_array((20000, 2000), density=0.01, format="csr", rng=7)
x = np.arange(2000.0)
xsparse.einsum("ij,j->i", a, x)
stop = threading.Event()
def busy():
    k = 0
    while not stop.is_set():
        k += 1
        if moment == "compiling":
            xsparse.clear_cache()
            xsparse.evaluate(f"y(i) = A(i,j) * x(j) * {{float(k)}}", A=a, x=x)
        else:
            xsparse.einsum("ij,j->i", a, x)
worker = threading.Thread(target=busy, daemon=True)
if moment != "idle":
    worker.start()
time.sleep(delay)
pid = os.fork()
if pid == 0:
    try:
        b = sp.random_array((300, 200), density=0.05, format="csr", rng=9)
        y = np.arange(200.0)
        ok = np.allclose(xsparse.einsum("ij,j->i", b, y), b @ y)
        ok = ok and np.allclose(xsparse.evaluate("z(i) = B(i,j) * y(j) * 3.0", B=b, y=y), 3 * (b @ y))
        os._exit(0 if ok else 3)
    except BaseException:
        import traceback; traceback.print_exc()
        os._exit(4)
deadline = time.monotonic() + 120
while True:
    done, status = os.waitpid(pid, os.WNOHANG)
    if done:
        break
    if time.monotonic() > deadline:
        os.kill(pid, 9)
        os.waitpid(pid, 0)
        verdict("hang", f"the child forked while {{moment}} hung")
    time.sleep(0.05)
stop.set()
worker.join(60) if moment != "idle" else None
if os.WIFSIGNALED(status):
    verdict("crash", f"the child forked while {{moment}} was killed by signal {{os.WTERMSIG(status)}}")
code = os.WEXITSTATUS(status)
if code:
    verdict("wrong" if code == 3 else "error", f"the child forked while {{moment}} exited {{code}}")
still_usable()
verdict("ok")
'''


def _threads_and_shapes(rng: np.random.Generator) -> str:
    """Absurd thread counts; shapes that are not non-negative integers."""
    count = int(rng.choice([0, -1, 3, 64, 1000, 100000]))
    shape = str(rng.choice(["(4.5, 4)", "(4, -1)", "(True, 4)", "('4', 4)", "(4, 4)"]))
    return f'''
count = {count}
try:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        xsparse.set_num_threads(count)
except CLEAN as e:
    if count >= 1:
        verdict("wrong", f"set_num_threads({{count}}) refused: {{e}}")
else:
    if count < 1:
        verdict("wrong", f"set_num_threads({{count}}) accepted")
    if xsparse.get_num_threads() > 8 * (os.cpu_count() or 1):
        verdict("wrong", f"set_num_threads({{count}}) gave {{xsparse.get_num_threads()}} threads")
    still_usable()
    xsparse.set_num_threads(1)
    still_usable()
    extra = len(os.listdir("/proc/self/task"))
    if extra > 8:
        verdict("wrong", f"{{extra}} OS threads after set_num_threads(1)")
shape = {shape}
valid = all(type(s) is int and s >= 0 for s in shape)
for encoding in ("{CSR}", "#sparse_tensor.encoding<{{ map = (i, j) -> (i : compressed, j : compressed) }}>"):
    try:
        t = SparseTensor.from_coo(np.array([[1, 2]]), np.array([1.0]), shape, encoding)
    except CLEAN as e:
        if valid:
            verdict("wrong", f"shape {{shape}} refused: {{e}}")
        if "shape" not in str(e):
            verdict("error", f"shape {{shape}}: the message does not say shape: {{e}}")
        continue
    if not valid:
        verdict("wrong", f"shape {{shape}} accepted as {{t.shape}}")
verdict("refused" if not valid else "ok")
'''


KINDS: dict[str, Callable[[np.random.Generator], str]] = {
    "workspace": _workspace,
    "dense-result": _dense_result,
    "static-dense": _static_dense,
    "division": _division,
    "narrow-outer": _narrow_outer,
    "narrow-convert": _narrow_convert,
    "refused-out": _refused_out,
    "deep-ir": _deep_ir,
    "quoted-name": _quoted_name,
    "undecodable": _undecodable,
    "cache": _cache_tamper,
    "fork": _fork,
    "threads-shapes": _threads_and_shapes,
}


def adversarial_case(seed: int) -> tuple[str, str]:
    """(kind, script) of one seed."""
    rng = np.random.default_rng([seed, 37])
    kind = str(rng.choice(list(KINDS)))
    return kind, PRELUDE + KINDS[kind](rng)


def check_adversarial_case(seed: int, timeout: float = TIMEOUT) -> CaseOutcome:
    """Run one case's script in a child process and classify how it ended."""
    kind, script = adversarial_case(seed)
    return judge_script(kind, script, timeout)


def judge_script(kind: str, script: str, timeout: float = TIMEOUT) -> CaseOutcome:
    """Run `script` in a child process: its verdict line, or CRASH / HANG /
    ERROR from how the child ended."""
    reproducer = f"# adversarial case: {kind}\n{script}"
    with tempfile.TemporaryDirectory() as scratch:
        try:
            run = subprocess.run(
                [sys.executable, "-c", script],
                capture_output=True,
                timeout=timeout,
                cwd=scratch,
                env=dict(os.environ, PYTHONFAULTHANDLER="1"),
            )
        except subprocess.TimeoutExpired:
            return CaseOutcome(
                Verdict.HANG, f"{kind}: no verdict after {timeout:.0f} s", reproducer
            )
    out = run.stdout.decode(errors="replace")
    err = run.stderr.decode(errors="replace")
    if run.returncode < 0 or "Fatal Python error" in err:
        what = f"signal {-run.returncode}" if run.returncode < 0 else "a fatal error"
        return CaseOutcome(
            Verdict.CRASH, f"{kind}: killed by {what}\n{err[-1500:]}", reproducer
        )
    lines = [line for line in out.splitlines() if line.startswith(MARK)]
    if not lines:
        return CaseOutcome(
            Verdict.ERROR,
            f"{kind}: exit {run.returncode} without a verdict\n{err[-1500:]}",
            reproducer,
        )
    _, word, *detail = lines[-1].split(" ", 2)
    return CaseOutcome(
        Verdict(word), f"{kind}: {' '.join(detail)}".rstrip(": "), reproducer
    )
