"""Differential testing of `xsparse.compile` on random kernels, one per seed.

`check_case(seed)` draws a kernel and its data (`kernel_cases`), compiles it
(`kernel_text`), calls it on SparseTensors, scipy matrices and numpy arrays,
and compares the result with numpy's (`kernel_reference`); for one seed in
`TWO_FOUR_PRODUCT_SHARE` it also checks a 2:4 matrix product of its own
(`random_two_four_product`), and every kernel taking a row-major 2:4 tensor is
also run after `sparse-decompose-tensors` on the tensor's (values, metadata)
pair (`xsparse.two_four`). With `mlir=True`
(where MLIR 22's tools are installed) the same case also runs as an
integration program through `xsparse-run` and through `mlir-opt-22
--sparsifier | mlir-runner-22`, which must print the same values (storage
included); where they differ but xsparse-run prints numpy's values, MLIR 22 is
wrong and the case passes, and a program MLIR 22 cannot compile or run skips
the MLIR part (both said in the outcome's detail). `check_shrunk(seed)` also
shrinks a failing case (`kernel_shrink`), for `tools/fuzz.py --shrink`.

Verdicts: OK; REFUSED when `xsparse.compile` raises an `XSparseError` located
at the source (`<source>:line:col: error: ...`) that is not an internal
error; WRONG when a result differs; ERROR for anything else (an exception, an
internal error, a diagnostic without a location, a refusal for "no loop
order" where the sparse operands' level orders agree).
"""

from __future__ import annotations

import contextlib
import re
import shutil
import subprocess
import sys
import tempfile
import traceback
import warnings
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

import numpy as np

from xsparse.testing.kernel_cases import (
    DTYPES,
    TWO_FOUR_PRODUCT_SHARE,
    WIDTH_ERROR,
    Array,
    Case,
    Format,
    Layout,
    Operand,
    has_semiring,
    is_float,
    output_width_fit,
    random_case,
    random_two_four_product,
)
from xsparse.testing.kernel_reference import expected_output
from xsparse.testing.kernel_text import kernel_text, loops_used, program_text
from xsparse.testing.outcome import CaseOutcome, Verdict

LOCATED = re.compile(r"^<source>:\d+:\d+: error: ")
MLIR_LIBS = Path("/usr/lib/llvm-22/lib")
MLIR_TIMEOUT_S = 30
"""MLIR 22's tools past this are taken as failing (its direct code for some
2:4 programs runs forever): the case's MLIR part is skipped."""
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|inf|nan)")


def check_case(seed: int, *, mlir: bool = False) -> CaseOutcome:
    """The verdict on the kernel of `seed` (and, with `mlir`, on its
    integration program against MLIR 22)."""
    try:
        case = random_case(seed)
    except Exception:
        return CaseOutcome(
            Verdict.ERROR,
            f"generating seed {seed} failed:\n{traceback.format_exc()}",
            f"from xsparse.testing.kernel_cases import random_case\nrandom_case({seed})\n",
        )
    outcome = check(case, mlir=mlir)
    if outcome.verdict is Verdict.OK and seed % TWO_FOUR_PRODUCT_SHARE == 0:
        return check(random_two_four_product(seed), mlir=mlir)
    return outcome


def check(case: Case, *, mlir: bool = False) -> CaseOutcome:
    """The verdict on one case."""
    source = kernel_text(case)
    outcome = _check_numpy(case, source)
    if outcome.verdict in (Verdict.OK, Verdict.REFUSED):
        outcome = _check_two_four(case, source, outcome)
    if not mlir or outcome.verdict is not Verdict.OK:
        return outcome
    verdict, detail, program = check_mlir(case)
    options = sparsifier_options(case)
    reproducer = outcome.reproducer + _mlir_reproducer(program, options)
    return CaseOutcome(verdict, detail, reproducer)


@contextlib.contextmanager
def on_threads(count: int) -> Generator[None, None, None]:
    """With `count` threads and grain 0 (every parallel loop on the pool);
    nothing changed for 0."""
    from xsparse.backend import threads

    if not count:
        yield
        return
    saved = threads.get_num_threads(), threads.get_grain()
    threads.set_num_threads(count)
    threads.set_grain(0)
    try:
        yield
    finally:
        threads.set_num_threads(saved[0])
        threads.set_grain(saved[1])


def check_shrunk(seed: int, budget: int = 150) -> CaseOutcome:
    """`check_case(seed)`; when it fails, the outcome of the smallest variant
    of the case that fails the same way (`kernel_shrink`), its reproducer
    followed by the original's."""
    from xsparse.testing.kernel_shrink import shrink

    outcome = check_case(seed)
    if outcome.verdict not in (Verdict.WRONG, Verdict.ERROR):
        return outcome
    case = random_case(seed)
    if check(case).verdict is not outcome.verdict:  # (the 2:4 product failed)
        case = random_two_four_product(seed)
    small = shrink(case, lambda c: check(c).verdict is outcome.verdict, budget)
    shrunk = check(small)
    if shrunk.verdict is not outcome.verdict:
        return outcome
    reproducer = (
        f"# Shrunk from seed {seed}:\n{shrunk.reproducer}\n"
        f"# The original case:\n# {outcome.reproducer.replace(chr(10), chr(10) + '# ')}\n"
    )
    return CaseOutcome(shrunk.verdict, shrunk.detail, reproducer)


def case_reproducer(seed: int) -> str:
    """The reproducer of `seed`'s case without running it (after a crash)."""
    case = random_case(seed)
    try:
        expected = expected_output(case, arguments(case)[1])
    except Exception:
        expected = None
    return reproducer(case, kernel_text(case), expected)


def _blocked(fmt: Format | None) -> bool:
    return fmt is not None and fmt.order is None


def known_defects(case: Case) -> list[str]:
    """Labels of reported defects a failing case may be an instance of (it
    still fails; the label groups it in reports)."""
    blocked = [op.format for op in case.inputs if _blocked(op.format)]
    labels: list[str] = []
    if (blocked or _blocked(case.out_format)) and loops_used(case.body):
        labels.append("linalg.index in a demapped (BSR/2:4) kernel")
    if blocked and case.update in ("reduce", "mul"):
        labels.append("custom or product reduction over BSR blocks")
    if (
        has_semiring(case.body)
        and all(op.format is None for op in case.inputs)
        and case.out_format is None
    ):
        labels.append("semiring op in a kernel without sparse operands")
    widths = {(f.pos_width, f.crd_width) for f in blocked if f is not None}
    if len(widths) > 1:
        labels.append("block-encoded operands with different widths")
    if any(_signed_positions(op) for op in case.inputs):
        labels.append("8/16-bit positions past the signed range")
    if case.out_kind == "empty" and all(op.format is None for op in case.inputs):
        labels.append("explicit zeros in a sparse result of dense operands (MLIR part)")
    return labels


def _signed_positions(operand: Operand) -> bool:
    fmt = operand.format
    if fmt is None or fmt.pos_width not in (8, 16):
        return False
    stored = int(np.count_nonzero(operand.data)) * int(np.prod(fmt.multiples))
    return stored >= 2 ** (fmt.pos_width - 1)


def _outcome(case: Case, verdict: Verdict, detail: str, reproducer: str) -> CaseOutcome:
    labels = known_defects(case) if verdict in (Verdict.WRONG, Verdict.ERROR) else []
    prefix = "".join(f"[known: {label}] " for label in labels)
    head = f"seed {case.seed}: {case.describe()}\n"
    return CaseOutcome(verdict, prefix + head + detail, reproducer)


def _check_numpy(case: Case, source: str) -> CaseOutcome:
    import xsparse

    try:
        kernel = xsparse.compile(source, **dict(case.options))
    except xsparse.XSparseError as e:
        message = str(e)
        first = message.split("\n", 1)[0]
        repro = reproducer(case, source, None)
        if not LOCATED.match(first) or "internal error" in first:
            return _outcome(case, Verdict.ERROR, message, repro)
        if "no loop order" in first and loop_order_exists(case):
            detail = "refused although the sparse operands' level orders agree:\n"
            return _outcome(case, Verdict.ERROR, detail + message, repro)
        return _outcome(case, Verdict.REFUSED, message, repro)
    except Exception:
        return _outcome(
            case, Verdict.ERROR, traceback.format_exc(), reproducer(case, source, None)
        )
    try:
        args, stored = arguments(case)
        expected = expected_output(case, stored)
    except Exception:
        detail = "building the arguments or numpy's result failed:\n"
        return _outcome(
            case,
            Verdict.ERROR,
            detail + traceback.format_exc(),
            reproducer(case, source, None),
        )
    repro = reproducer(case, source, expected)
    fit = output_width_fit(case, None if case.then_sum else expected)
    try:
        with warnings.catch_warnings(), on_threads(case.threads):
            warnings.simplefilter("ignore")
            result = kernel(*args, scratch_outputs=case.scratch_outputs)
        got = _as_dense(case, result)
    except ValueError as e:
        if fit != "fits" and WIDTH_ERROR.search(str(e)):  # as it must or may
            return _outcome(case, Verdict.OK, f"refused: {e}", repro)
        return _outcome(case, Verdict.ERROR, traceback.format_exc(), repro)
    except Exception:
        return _outcome(case, Verdict.ERROR, traceback.format_exc(), repro)
    if fit == "overflows":
        detail = "the result does not fit its widths, but no ValueError was raised"
        return _outcome(case, Verdict.WRONG, detail, repro)
    difference = compare(got, expected, case.dtype)
    if difference:
        return _outcome(case, Verdict.WRONG, difference, repro)
    return _outcome(case, Verdict.OK, "", repro)


def _check_two_four(case: Case, source: str, outcome: CaseOutcome) -> CaseOutcome:
    """Where the kernel takes a row-major 2:4 SparseTensor: the same kernel
    after `sparse-decompose-tensors`, called with each such tensor's
    (values, metadata) pair (`xsparse.two_four`), must give numpy's result
    too, whether `xsparse.compile` took the kernel itself (OK) or refused it
    at a located op (REFUSED; the case is then OK). A
    decomposition refused at a located op (a use of the 2:4 tensor other
    than a product) leaves `outcome` as it is."""
    import xsparse
    from xsparse import SparseTensor
    from xsparse.transforms.decompose.decompose_tensors import is_two_four_encoding
    from xsparse.two_four import TwoFour, decompose

    args, stored = arguments(case)
    if not any(
        isinstance(arg, SparseTensor) and is_two_four_encoding(arg.encoding)
        for arg in args
    ):
        return outcome
    try:
        kernel = xsparse.compile(decompose(source), **dict(case.options))
    except xsparse.XSparseError as e:
        first = str(e).split("\n", 1)[0]
        if LOCATED.match(first) and "internal error" not in first:
            return outcome
        return _outcome(
            case, Verdict.ERROR, f"2:4 decomposition: {e}", outcome.reproducer
        )
    flat: list[Any] = []
    for arg in args:
        if isinstance(arg, SparseTensor) and is_two_four_encoding(arg.encoding):
            pair = TwoFour.from_sparse_tensor(arg)
            flat += [pair.values, pair.metadata]
        else:
            flat.append(arg)
    expected = expected_output(case, stored)
    try:
        with warnings.catch_warnings(), on_threads(case.threads):
            warnings.simplefilter("ignore")
            got = _as_dense(case, kernel(*flat))
    except Exception:
        detail = "2:4 decomposition: " + traceback.format_exc()
        return _outcome(case, Verdict.ERROR, detail, outcome.reproducer)
    difference = compare(got, expected, case.dtype)
    if difference:
        detail = "2:4 decomposition, (values, metadata) arguments: " + difference
        return _outcome(case, Verdict.WRONG, detail, outcome.reproducer)
    if outcome.verdict is Verdict.REFUSED:
        detail = "refused as written; its 2:4 decomposition computes numpy's result"
        return _outcome(case, Verdict.OK, detail, outcome.reproducer)
    return outcome


# -- arguments -----------------------------------------------------------------------


def stored_mask(tensor: Any, shape: tuple[int, ...]) -> Array:
    """Which entries a SparseTensor stores (explicit zeros included)."""
    coords, _ = tensor.to_coo()
    mask = np.zeros(shape, bool)
    if coords.size:
        mask[tuple(coords.T)] = True
    return mask


def laid_out(data: Array, layout: Layout) -> Array:
    """`data` as a row-major, column-major or strided (non-contiguous) array."""
    if layout == "f":
        return np.asfortranarray(data)
    if layout == "strided" and data.ndim:
        return np.repeat(data, 2, axis=0)[::2]
    return np.array(data, order="C")


def _argument(operand: Operand, shape: tuple[int, ...]) -> tuple[Any, Array]:
    from xsparse import SparseTensor

    data = np.array(operand.data, order="C")
    fmt = operand.param_format
    if fmt is None:
        return laid_out(data, operand.layout), np.ones(shape, bool)
    tensor = SparseTensor.from_dense(data, fmt.text)
    mask = stored_mask(tensor, shape)
    if operand.passed_as == "scipy":
        import scipy.sparse as sp

        matrix = sp.csr_array(data) if fmt.scipy_kind == "csr" else sp.csc_array(data)
        return matrix, mask
    if operand.passed_as == "numpy":
        return data.copy(), mask
    return tensor, mask


def arguments(case: Case) -> tuple[list[Any], list[Array]]:
    """The kernel's arguments and the stored-entry masks of its inputs."""
    from xsparse import SparseTensor

    args: list[Any] = []
    stored: list[Array] = []
    for operand in case.inputs:
        if operand.is_parameter:
            arg, mask = _argument(operand, case.shape_of(operand))
            args.append(arg)
        elif operand.format is None:  # (the dense constant itself)
            mask = np.ones(case.shape_of(operand), bool)
        else:  # (what its conversion from the constant stores)
            tensor = SparseTensor.from_dense(operand.data, operand.format.text)
            mask = stored_mask(tensor, case.shape_of(operand))
        stored.append(mask)
    if case.out_kind == "dense":
        args.append(laid_out(case.out_init, case.out_layout))
    elif case.out_kind == "inplace":
        assert case.out_format is not None
        args.append(SparseTensor.from_dense(case.out_init, case.out_format.text))
    if case.then_sum:
        args.append(np.ones((), DTYPES[case.dtype]))
    return args, stored


def _as_dense(case: Case, result: Any) -> Array:
    from xsparse import SparseTensor

    if case.out_format is None or case.then_sum:
        if not isinstance(result, np.ndarray):
            raise TypeError(f"expected a numpy array, got {type(result).__name__}")
        return cast(Array, result)
    if not isinstance(result, SparseTensor):
        raise TypeError(f"expected a SparseTensor, got {type(result).__name__}")
    result.validate()
    if result.shape != case.out_shape:
        raise ValueError(f"result shape {result.shape}, expected {case.out_shape}")
    return result.to_dense()


def compare(got: Array, expected: Array, dtype: str) -> str:
    """Empty when `got` matches `expected` (exactly for integers, closely for
    floats), else what differs."""
    if got.shape != expected.shape:
        return f"shape {got.shape}, expected {expected.shape}"
    if got.dtype != expected.dtype:
        return f"dtype {got.dtype}, expected {expected.dtype}"
    if is_float(dtype):
        rtol = 1e-4 if dtype == "f32" else 1e-9
        finite = expected[np.isfinite(expected)]
        scale = max(1.0, float(np.abs(finite).max())) if finite.size else 1.0
        same = np.isclose(got, expected, rtol=rtol, atol=rtol * scale, equal_nan=True)
    else:
        same = got == expected
    if bool(np.all(same)):
        return ""
    wrong = np.argwhere(~same)
    shown = ", ".join(
        f"{tuple(int(i) for i in w)}: got {got[tuple(w)]!r} expected {expected[tuple(w)]!r}"
        for w in wrong[:6]
    )
    with np.printoptions(threshold=400, linewidth=120):
        return (
            f"wrong result: {len(wrong)} of {expected.size} entries differ ({shown})\n"
            f"got:\n{got}\nexpected:\n{expected}"
        )


# -- loop orders ---------------------------------------------------------------------


def loop_order_exists(case: Case) -> bool:
    """Whether some loop order visits every sparse operand's levels in order
    (only judged for permutation encodings; True means "refusing is wrong")."""
    sparse: list[tuple[tuple[int, ...], Format]] = [
        (op.loops, op.format) for op in case.inputs if op.format is not None
    ]
    if case.out_format is not None:
        sparse.append((case.out_loops, case.out_format))
    edges: set[tuple[int, int]] = set()
    for loops, fmt in sparse:
        if fmt.order is None:
            return False
        chain = [loops[d] for d in fmt.order]
        edges |= set(zip(chain, chain[1:], strict=False))
    return _acyclic(len(case.sizes), edges)


def _acyclic(n: int, edges: set[tuple[int, int]]) -> bool:
    done: list[int] = []
    while len(done) < n:
        ready = [
            v
            for v in range(n)
            if v not in done and all(a in done for a, b in edges if b == v)
        ]
        if not ready:
            return False
        done.append(ready[0])
    return True


# -- reproducers ---------------------------------------------------------------------


def _literal(data: Array) -> str:
    """A Python expression rebuilding `data`."""
    values = ", ".join(
        f'float("{v}")' if isinstance(v, float) and not np.isfinite(v) else repr(v)
        for v in data.ravel().tolist()
    )
    return f"np.array([{values}], dtype=np.{data.dtype}).reshape({data.shape})"


def _layout_text(name: str, layout: Layout) -> str:
    if layout == "f":
        return f"np.asfortranarray({name})"
    if layout == "strided":
        return f"np.repeat({name}, 2, axis=0)[::2]"
    return f"{name}.copy()"


def _argument_text(k: int, operand: Operand) -> str:
    fmt = operand.param_format
    if fmt is None:
        return _layout_text(f"in{k}", operand.layout)
    if operand.passed_as == "numpy":
        return f"in{k}.copy()"
    if operand.passed_as == "scipy":
        return f"sp.{fmt.scipy_kind}_array(in{k})"
    return f'SparseTensor.from_dense(in{k}, "{fmt.text}")'


def reproducer(case: Case, source: str, expected: Array | None) -> str:
    """A Python script that runs the case and prints the result and numpy's."""
    lines = [
        f'"""Generated kernel, seed {case.seed}: {case.describe()}',
        "",
        "The same case: python -c 'from xsparse.testing.kernels import check_case; "
        f"print(check_case({case.seed}))'",
        '"""',
        "import numpy as np",
        "import scipy.sparse as sp",
        "",
        "import xsparse",
        "from xsparse import SparseTensor",
        "",
        f'SOURCE = """\n{source}"""',
        "",
    ]
    for k, operand in enumerate(case.inputs):
        lines.append(f"in{k} = {_literal(operand.data)}")
    args = [
        _argument_text(k, op) for k, op in enumerate(case.inputs) if op.is_parameter
    ]
    lines.append(f"init = {_literal(case.out_init)}")
    if case.out_kind == "dense":
        args.append(_layout_text("init", case.out_layout))
    elif case.out_kind == "inplace":
        assert case.out_format is not None
        args.append(f'SparseTensor.from_dense(init, "{case.out_format.text}")')
    if case.then_sum:
        args.append(f"np.ones((), np.{np.dtype(DTYPES[case.dtype])})")
    if case.threads:
        lines += [
            "from xsparse.backend import threads",
            f"threads.set_num_threads({case.threads})",
            "threads.set_grain(0)  # every parallel loop on the pool",
        ]
    lines += [
        f"kernel = xsparse.compile(SOURCE{''.join(f', {k}={v!r}' for k, v in case.options)})",
        f"result = kernel({', '.join(args)}"
        + (", scratch_outputs=True)" if case.scratch_outputs else ")"),
        "if isinstance(result, SparseTensor):",
        "    result = result.to_dense()",
        'print("result:", result, sep="\\n")',
    ]
    if expected is not None:
        lines += [
            f"expected = {_literal(expected)}",
            'print("expected (numpy):", expected, sep="\\n")',
        ]
    return "\n".join(lines) + "\n"


def _mlir_reproducer(program: str, options: str) -> str:
    if options:
        how = (
            f'xsparse-opt --sparsifier="{options}" FILE | xsparse-run -e main'
            f' vs mlir-opt-22 --sparsifier="{options}" FILE'
        )
    else:
        how = "xsparse-run FILE vs mlir-opt-22 --sparsifier FILE"
    return (
        f"\n# The integration program ({how}"
        " | mlir-runner-22 -e main -entry-point-result=void --shared-libs=...):\n"
        f'PROGRAM = """\n{program}"""\n'
    )


# -- against MLIR 22 -----------------------------------------------------------------


def mlir_available() -> bool:
    return bool(shutil.which("mlir-opt-22") and shutil.which("mlir-runner-22"))


@dataclass(frozen=True)
class Run:
    ok: bool
    output: str


def _run(command: Sequence[str], stdin: str | None = None, timeout: int = 120) -> Run:
    try:
        done = subprocess.run(
            list(command), input=stdin, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return Run(False, f"{command[0]}: no result after {timeout} s")
    return Run(
        done.returncode == 0, done.stdout if done.returncode == 0 else done.stderr
    )


def sparsifier_options(case: Case) -> str:
    """The `--sparsifier` options both toolchains compile a case's
    integration program with: its vectorization (`vl`, which lowers to
    `llvm.intr.masked.load/store/gather/scatter`, and
    `enable-simd-index32`)."""
    options = dict(case.options)
    words = [f"vl={options['vl']}"] if "vl" in options else []
    if options.get("enable_simd_index32"):
        words.append("enable-simd-index32=true")
    return " ".join(words)


def run_mlir(path: Path, options: str = "") -> Run:
    """`mlir-opt-22 --sparsifier="OPTIONS" FILE | mlir-runner-22 -e main ...`;
    where that fails (MLIR's runtime library lacks some widths and types),
    the same with direct code (`enable-runtime-library=false`)."""
    ran = _run_mlir(path, f"--sparsifier={options}" if options else "--sparsifier")
    if ran.ok:
        return ran
    direct = f"--sparsifier={options} enable-runtime-library=false".replace("= ", "=")
    ran_direct = _run_mlir(path, direct)
    return ran_direct if ran_direct.ok else ran


def run_mlir_lowering(path: Path, options: str) -> Run:
    """`mlir-opt-22 --sparsifier="OPTIONS enable-runtime-library=false" FILE |
    xsparse-run -e main ...`: xsparse-run on MLIR 22's LLVM dialect (with
    `vl`, its `llvm.intr.masked.load/store/gather/scatter`)."""
    sparsifier = f"--sparsifier={options} enable-runtime-library=false"
    lowered = _run(["mlir-opt-22", sparsifier, str(path)], timeout=MLIR_TIMEOUT_S)
    if not lowered.ok:
        return Run(False, "mlir-opt-22: " + lowered.output)
    run = [sys.executable, "-m", "xsparse.tools.run", "-e", "main"]
    return _run([*run, "--entry-point-result=void"], lowered.output)


def _run_mlir(path: Path, sparsifier: str) -> Run:
    compiled = _run(["mlir-opt-22", sparsifier, str(path)], timeout=MLIR_TIMEOUT_S)
    if not compiled.ok:
        return Run(False, "mlir-opt-22: " + compiled.output)
    libs = ",".join(
        str(MLIR_LIBS / f"lib{name}.so.22.1")
        for name in ("mlir_c_runner_utils", "mlir_runner_utils")
    )
    runner = [
        "mlir-runner-22",
        "-e",
        "main",
        "-entry-point-result=void",
        f"--shared-libs={libs}",
    ]
    ran = _run(runner, compiled.output, timeout=MLIR_TIMEOUT_S)
    return ran if ran.ok else Run(False, "mlir-runner-22: " + ran.output)


def run_xsparse(path: Path, options: str = "") -> Run:
    """`xsparse-run FILE`; with `options`, as MLIR's users run it:
    `xsparse-opt --sparsifier="OPTIONS" FILE | xsparse-run -e main ...` (the
    LLVM dialect it reads then holds what the options lower to)."""
    run = [sys.executable, "-m", "xsparse.tools.run"]
    if not options:
        return _run([*run, str(path)])
    opt = [sys.executable, "-m", "xsparse.tools.opt", f"--sparsifier={options}"]
    compiled = _run([*opt, str(path)])
    if not compiled.ok:
        return Run(False, compiled.output)
    return _run([*run, "-e", "main", "--entry-point-result=void"], compiled.output)


def _mlir_skip_reason(case: Case) -> str | None:
    two_four = any(
        op.format is not None and op.format.structured is not None for op in case.inputs
    )
    if two_four and has_semiring(case.body):
        return "2:4 operands under semiring ops (xsparse stores 2:4 padding, MLIR 22 does not)"
    if output_width_fit(case, None) != "fits":
        return "a result its widths may not hold (MLIR 22 wraps it)"
    return None


def check_mlir(case: Case) -> tuple[Verdict, str, str]:
    """Run the case's integration program through xsparse-run and MLIR 22:
    the verdict, what happened, and the program."""
    program = program_text(case)
    head = f"seed {case.seed}: {case.describe()}\n"
    skip = _mlir_skip_reason(case)
    if skip is not None:
        return Verdict.OK, head + f"MLIR part skipped: {skip}", program
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / f"seed{case.seed}.mlir"
        path.write_text(program)
        reference = run_mlir(path, sparsifier_options(case))
        if not reference.ok:
            first = reference.output.strip().split("\n", 1)[0]
            return (
                Verdict.OK,
                head + f"MLIR part skipped (MLIR 22 fails): {first}",
                program,
            )
        options = sparsifier_options(case)
        ours = run_xsparse(path, options)
        crossed = run_mlir_lowering(path, options) if options and ours.ok else None
    if not ours.ok:
        first = ours.output.strip().split("\n", 1)[0]
        located = (
            re.match(r"^\S+:\d+:\d+: error: ", first) and "internal error" not in first
        )
        verdict = Verdict.REFUSED if located else Verdict.ERROR
        return (
            verdict,
            head + "xsparse-run failed where MLIR 22 ran:\n" + ours.output,
            program,
        )
    difference = compare_prints(ours.output, reference.output, case.dtype)
    if not difference and crossed is not None:
        if not crossed.ok:
            detail = "xsparse-run cannot run mlir-opt-22's lowering:\n"
            return Verdict.ERROR, head + detail + crossed.output, program
        difference = compare_prints(crossed.output, reference.output, case.dtype)
        if difference:
            detail = "xsparse-run on mlir-opt-22's lowering and mlir-runner-22 differ: "
            return Verdict.WRONG, head + detail + difference, program
    if not difference:
        return Verdict.OK, head, program
    if _printed_matches_numpy(case, ours.output) and not _printed_matches_numpy(
        case, reference.output
    ):
        note = "MLIR part: MLIR 22 differs from numpy, xsparse-run agrees with it: "
        return Verdict.OK, head + note + difference, program
    return (
        Verdict.WRONG,
        head + "xsparse-run and mlir-runner-22 differ: " + difference,
        program,
    )


def _printed_matches_numpy(case: Case, printed: str) -> bool:
    """Whether the dense values a program printed last are numpy's."""
    expected = expected_output(case, arguments(case)[1])
    numbers = [float(x) for x in NUMBER.findall(printed)]
    if len(numbers) < expected.size:
        return False
    got = np.array(numbers[len(numbers) - expected.size :]).reshape(expected.shape)
    return not compare(got.astype(expected.dtype), expected, case.dtype)


def compare_prints(ours: str, theirs: str, dtype: str) -> str:
    """Empty when two printouts agree: the same text around the numbers, and
    numbers equal (integers) or close (floats)."""
    if NUMBER.sub("#", ours) != NUMBER.sub("#", theirs):
        return f"the printouts differ:\n--- xsparse-run\n{ours}--- mlir-runner-22\n{theirs}"
    a = np.array([float(x) for x in NUMBER.findall(ours)])
    b = np.array([float(x) for x in NUMBER.findall(theirs)])
    rtol = 1e-5 if is_float(dtype) else 0.0
    if bool(np.all(np.isclose(a, b, rtol=rtol, atol=rtol, equal_nan=True))):
        return ""
    return f"values differ:\n--- xsparse-run\n{ours}--- mlir-runner-22\n{theirs}"
