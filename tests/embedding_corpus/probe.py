"""What a process that never asked for xsparse sees of xDSL, before and after
xsparse is loaded and used in it (run by `tests/test_embedding.py`, in a
fresh interpreter, so that nothing imported earlier counts).

    python probe.py CORPUS_DIR RESULT.json [xsparse|only-xdsl|known-patches]

1. Through plain xDSL contexts (xDSL's own dialects, registered lazily as
   `xdsl-opt` registers them; never `Universe.get_multiverse()`), parse,
   verify and print every input of the corpus (`*.mlir` in CORPUS_DIR, split
   at `// -----`; an input with a `// EMIT: <target>` line is also emitted
   through that xDSL target), and snapshot every attribute of xDSL's dialect,
   IR, IRDL, parser, printer and lexer modules and of the classes they define
   (by identity; dialects, containers, IRDL definitions and traits also by
   content, since those are mutable in place).
2. Import xsparse, build its contexts, load every dialect they register,
   load the `xdsl.universe` multiverse, run `xsparse.einsum`, the
   `sparsifier` pipeline and `xsparse-opt -p sparsifier` once.
3. Do 1 again and write what differs to RESULT.json: the inputs whose
   result differs (before and after) and the attributes added, removed or
   changed (by qualified name).

In place of step 2, `only-xdsl` runs xDSL's own passes (the control: the
probe must see nothing) and `known-patches` patches xDSL as xsparse once did
(the probe must see each patch).
"""

from __future__ import annotations

import functools
import importlib
import io
import json
import pkgutil
import re
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields, is_dataclass
from pathlib import Path
from types import FunctionType, MethodType, ModuleType
from typing import Any

SNAPSHOT_PACKAGES = ("xdsl.dialects", "xdsl.ir", "xdsl.irdl", "xdsl.parser")
"""Packages whose every module is snapshot."""
SNAPSHOT_MODULES = (
    "xdsl.printer",
    "xdsl.context",
    "xdsl.traits",
    "xdsl.universe",
    "xdsl.utils.lexer",
    "xdsl.utils.mlir_lexer",
    "xdsl.utils.base_printer",
    "xdsl.pattern_rewriter",
    "xdsl.rewriter",
    "xdsl.backend.wgsl.wgsl_printer",
)
"""Further modules snapshot (the parser's, printer's and lexer's, the
registries', and those that xDSL's own tools and backends dispatch through)."""

SPLIT = "// -----\n"
EMIT = re.compile(r"^// EMIT: (\S+)$", re.MULTILINE)
SYMBOL = re.compile(r"@([\w$.]+)")

# ----------------------------------------------------------------------------
# The corpus through plain xDSL
# ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Input:
    """One input of the corpus, and the xDSL targets to emit it through."""

    name: str
    text: str
    targets: tuple[str, ...]


def read_corpus(directory: Path) -> list[Input]:
    """Every input of every `*.mlir` file, named `file:line (@first symbol)`."""
    inputs: list[Input] = []
    for path in sorted(directory.glob("*.mlir")):
        line = 1
        for text in path.read_text().split(SPLIT):
            symbol = SYMBOL.search(text)
            label = f" (@{symbol.group(1)})" if symbol else ""
            targets = tuple(EMIT.findall(text))
            inputs.append(Input(f"{path.name}:{line}{label}", text, targets))
            line += text.count("\n") + 1
    return inputs


def plain_context() -> Any:
    """A context with xDSL's own dialects, registered as `xdsl-opt` does
    (lazily, by name), without the `xdsl.universe` plugins."""
    from xdsl.context import Context
    from xdsl.dialects import get_all_dialects

    ctx = Context()
    for name, factory in get_all_dialects().items():
        ctx.register_dialect(name, factory)
    return ctx


def through_xdsl(item: Input) -> str:
    """What plain xDSL makes of `item`: the verifier's verdict, the printed
    module, and each target's output (or the exception at the step that
    raised it)."""
    from xdsl.parser import Parser
    from xdsl.printer import Printer
    from xdsl.targets import get_all_targets

    ctx = plain_context()
    try:
        module = Parser(ctx, item.text, item.name).parse_module()
    except Exception as e:
        return f"parse: {type(e).__name__}: {e}"
    try:
        module.verify()
        verdict = "verifies"
    except Exception as e:
        verdict = f"verify: {type(e).__name__}: {e}"
    out = io.StringIO()
    try:
        Printer(stream=out).print_op(module)
    except Exception as e:
        out.write(f"print: {type(e).__name__}: {e}")
    result = f"{verdict}\n{out.getvalue()}"
    for target in item.targets:
        emitted = io.StringIO()
        try:
            target_class = get_all_targets()[target]()
            target_class().emit(ctx, module, emitted)
        except Exception as e:
            emitted.write(f"{type(e).__name__}: {e}")
        result += f"\n-- {target} --\n{emitted.getvalue()}"
    return result


# ----------------------------------------------------------------------------
# The snapshot of xDSL's modules and classes
# ----------------------------------------------------------------------------


def snapshot_modules() -> list[ModuleType]:
    """The modules to snapshot, imported (those that need an optional
    dependency that is not installed are left out)."""
    names = list(SNAPSHOT_MODULES)
    for package_name in SNAPSHOT_PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names += [
            info.name
            for info in pkgutil.walk_packages(
                package.__path__, f"{package_name}.", onerror=lambda _: None
            )
        ]
    modules: list[ModuleType] = []
    for name in sorted(set(names)):
        try:
            modules.append(importlib.import_module(name))
        except Exception:  # an optional dependency missing
            continue
    return modules


def label(value: object) -> str:
    """A readable name for `value` (its qualified name where it has one)."""
    if isinstance(value, classmethod | staticmethod):
        return f"{type(value).__name__}({label(value.__func__)})"
    if isinstance(value, property):
        return f"property({label(value.fget)})"
    if isinstance(value, MethodType):
        return f"method {label(value.__func__)}"
    if isinstance(value, type | FunctionType):
        return f"{value.__module__}.{value.__qualname__}"
    if isinstance(value, ModuleType):
        return f"module {value.__name__}"
    if value is None or isinstance(value, bool | int | float | str | bytes):
        text = repr(value)
        return text if len(text) <= 80 else f"{text[:77]}..."
    if isinstance(value, re.Pattern):
        return f"re.compile({value.pattern!r})"
    return f"<{type(value).__module__}.{type(value).__qualname__} at {id(value):#x}>"


def ident(value: object) -> str:
    """`label(value)`, made unique by the object's identity where two objects
    may share a label (a replaced function keeps its qualified name)."""
    if value is None or isinstance(value, bool | int | float | str | bytes):
        return repr(value)
    return f"{label(value)} @{id(value):#x}"


def dialect_content(dialect: Any) -> dict[str, Any]:
    """A dialect's ops and attributes: name -> the class registered for it."""
    return {
        "operations": {op.name: ident(op) for op in dialect.operations},
        "attributes": {attr.name: ident(attr) for attr in dialect.attributes},
    }


def irdl_content(cls: type) -> dict[str, Any] | None:
    """The parts of an IRDL op or attribute definition, by value (xDSL's
    definitions are mutable dataclasses: an operand's constraint can be
    replaced in place), its traits included."""
    from xdsl.irdl import IRDLOperation, ParametrizedAttribute

    if "get_irdl_definition" not in vars(cls):
        return None
    if IRDLOperation not in cls.__mro__ and ParametrizedAttribute not in cls.__mro__:
        return None  # (not issubclass: ABCs cache every class asked about)
    try:
        definition = cls.get_irdl_definition()
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}
    if not is_dataclass(definition):
        return {"definition": repr(definition)}
    parts = {f.name: getattr(definition, f.name) for f in fields(definition)}
    content: dict[str, Any] = {}
    for name, value in parts.items():
        if name == "traits":
            content[name] = sorted(repr(t) for t in value)
        elif name == "custom_directives":
            content[name] = {k: ident(v) for k, v in value.items()}
        else:
            content[name] = repr(value)
    return content


def content(value: object) -> Any:
    """What in `value` may change while its identity stays: a dialect's
    registrations, a container's elements (by identity), a pattern's text,
    a singledispatch function's registry."""
    from xdsl.ir import Dialect

    if isinstance(value, Dialect):
        return dialect_content(value)
    if isinstance(value, dict):
        return {repr(k): ident(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = [ident(v) for v in value]
        return sorted(items) if isinstance(value, set | frozenset) else items
    if isinstance(value, re.Pattern):
        return [value.pattern, value.flags]
    if isinstance(value, functools.singledispatchmethod):
        value = value.dispatcher
    if hasattr(value, "registry") and hasattr(value, "dispatch"):
        # a singledispatch function: the classes it dispatches on
        return {label(k): ident(v) for k, v in value.registry.items()}
    return None


@dataclass(frozen=True)
class Entry:
    """One attribute as seen: the object, and what in it may change in place."""

    value: object
    """Kept, so that its id is not reused by a replacement."""
    content: Any


def class_entries(prefix: str, cls: type, module: str) -> Iterator[tuple[str, Entry]]:
    """Every attribute of `cls` (and of the classes nested in it), and its
    IRDL definition."""
    definition = irdl_content(cls)
    if definition is not None:
        yield f"{prefix}.<irdl definition>", Entry(None, definition)
    for name, value in list(vars(cls).items()):
        key = f"{prefix}.{name}"
        yield key, Entry(value, content(value))
        if (
            isinstance(value, type)
            and value.__module__ == module
            and value.__qualname__ == f"{cls.__qualname__}.{name}"
        ):
            yield from class_entries(key, value, module)


def snapshot(modules: list[ModuleType]) -> dict[str, Entry]:
    """Every attribute of `modules` and of the classes defined in them."""
    entries: dict[str, Entry] = {}
    for module in modules:
        for name, value in list(vars(module).items()):
            key = f"{module.__name__}.{name}"
            entries[key] = Entry(value, content(value))
            if (
                isinstance(value, type)
                and value.__module__ == module.__name__
                and value.__qualname__ == name
            ):
                entries.update(class_entries(key, value, module.__name__))
    return entries


def registries() -> dict[str, Entry]:
    """The names xDSL's own registries hand out (dialects, passes, targets)."""
    from xdsl.dialects import get_all_dialects
    from xdsl.targets import get_all_targets
    from xdsl.transforms import get_all_passes

    return {
        f"{f.__module__}.{f.__qualname__}()": Entry(
            None, {name: label(factory) for name, factory in f().items()}
        )
        for f in (get_all_dialects, get_all_passes, get_all_targets)
    }


def load_every_dialect() -> None:
    """Load each of xDSL's dialects once (importing its modules), so that
    what loading them imports is there before the first snapshot."""
    ctx = plain_context()
    for name in list(ctx.registered_dialect_names):
        ctx.load_registered_dialect(name)


Observation = tuple[dict[str, str], dict[str, Entry]]
"""Each input's result, and the snapshot."""


def observe(corpus: list[Input], modules: list[ModuleType]) -> Observation:
    """The corpus's results and the snapshot."""
    outputs = {item.name: through_xdsl(item) for item in corpus}
    return outputs, {**snapshot(modules), **registries()}


# ----------------------------------------------------------------------------
# xsparse, used as a user would
# ----------------------------------------------------------------------------

KERNEL = """
#CSR = #sparse_tensor.encoding<{ map = (i, j) -> (i : dense, j : compressed) }>
#spmv = {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (j)>,
                          affine_map<(i, j) -> (i)>],
         iterator_types = ["parallel", "reduction"]}
func.func @spmv(%a: tensor<?x?xf64, #CSR>, %x: tensor<?xf64>,
                %y: tensor<?xf64>) -> tensor<?xf64> {
  %0 = linalg.generic #spmv ins(%a, %x : tensor<?x?xf64, #CSR>, tensor<?xf64>)
      outs(%y : tensor<?xf64>) {
  ^bb0(%av: f64, %xv: f64, %yv: f64):
    %m = arith.mulf %av, %xv : f64
    %s = arith.addf %yv, %m : f64
    linalg.yield %s : f64
  } -> tensor<?xf64>
  return %0 : tensor<?xf64>
}
"""


def use_xsparse() -> None:
    """Import xsparse, build its contexts with every dialect loaded, load the
    multiverse, compile and run a kernel, run the sparsifier (parallel and
    vectorized, so that scf.parallel and vector ops are built) and
    `xsparse-opt -p sparsifier`."""
    import os
    import tempfile

    import numpy as np
    import scipy.sparse
    from xdsl.printer import Printer
    from xdsl.universe import Universe

    import xsparse
    from xsparse.diagnostics import parse_module
    from xsparse.dialect_registry import make_context
    from xsparse.tools.opt import main as xsparse_opt
    from xsparse.transforms.pipeline import SparsifierPass

    ctx = make_context()
    for name in list(ctx.registered_dialect_names):
        ctx.load_registered_dialect(name)
    multiverse = Universe.get_multiverse()
    assert "sparse_tensor" in multiverse.all_dialects, "xsparse's entry point"
    assert "sparsifier" in multiverse.all_passes

    matrix = scipy.sparse.random(30, 30, density=0.2, format="csr", random_state=1)
    got = xsparse.einsum("ij,j->i", matrix, np.ones(30))
    assert np.allclose(np.asarray(got), matrix @ np.ones(30))

    for sparsifier in (
        SparsifierPass(),
        SparsifierPass(parallelization_strategy="any-storage-any-loop", vl=4),
    ):
        ctx = make_context()
        module = parse_module(ctx, KERNEL)
        sparsifier.apply(ctx, module)
        module.verify()
        Printer(stream=io.StringIO()).print_op(module)

    with tempfile.TemporaryDirectory() as tmp:
        kernel = Path(tmp) / "spmv.mlir"
        kernel.write_text(KERNEL)
        assert xsparse_opt([str(kernel), "-p", "sparsifier", "-o", os.devnull]) == 0


def use_only_xdsl() -> None:
    """The control: xDSL's own passes over the corpus's inputs that verify,
    printed in the generic form (a use of xDSL that fills whatever caches
    plain use fills, and changes nothing)."""
    from xdsl.parser import Parser
    from xdsl.printer import Printer
    from xdsl.transforms import get_all_passes

    passes = get_all_passes()
    for item in read_corpus(Path(__file__).parent):
        ctx = plain_context()
        try:
            module = Parser(ctx, item.text, item.name).parse_module()
            module.verify()
        except Exception:
            continue
        for name in ("canonicalize", "cse", "convert-scf-to-cf", "dce"):
            passes[name]()().apply(ctx, module)
        Printer(stream=io.StringIO(), print_generic_format=True).print_op(module)


def use_known_patches() -> None:
    """The probe's own check: one patch of each kind that xsparse made to
    xDSL 0.74 before issue 38: a method replaced and one added on an op
    class, an operand constraint and the traits changed in an op's IRDL
    definition in place, an op appended to a dialect, a lexer pattern
    replaced (by an equal one: only its identity tells), a handler
    registered on a singledispatch printer. (Made-up names where a later
    xDSL might have the real one.)"""
    from xdsl.backend.wgsl.wgsl_printer import WGSLPrinter
    from xdsl.dialects import arith, llvm, memref, vector
    from xdsl.irdl import AnyAttr, IRDLOperation, OperandDef, irdl_op_definition
    from xdsl.printer import Printer
    from xdsl.traits import NoTerminator
    from xdsl.utils.mlir_lexer import MLIRLexer

    def print_select(op: arith.SelectOp, printer: Printer) -> None:
        printer.print_string(" patched")

    arith.SelectOp.print = print_select
    memref.CastOp.probe_added = classmethod(lambda cls: None)
    operands = llvm.SelectOp.get_irdl_definition().operands
    operands[0] = (operands[0][0], OperandDef(AnyAttr()))
    arith.AddiOp.get_irdl_definition().traits.add_trait(NoTerminator())

    @irdl_op_definition
    class ProbeOp(IRDLOperation):
        name = "vector.probe_added"

    vector.Vector._operations.append(ProbeOp)
    pattern = min(k for k, v in vars(MLIRLexer).items() if isinstance(v, re.Pattern))
    re.purge()  # (else `re.compile` hands back the same object)
    setattr(MLIRLexer, pattern, re.compile(getattr(MLIRLexer, pattern).pattern))
    WGSLPrinter.print.register(ProbeOp)(lambda self, op: None)


EXERCISES: dict[str, Callable[[], None]] = {
    "xsparse": use_xsparse,
    "only-xdsl": use_only_xdsl,
    "known-patches": use_known_patches,
}


# ----------------------------------------------------------------------------
# The difference
# ----------------------------------------------------------------------------


def changed(before: Entry, after: Entry) -> dict[str, Any] | None:
    """How an attribute changed: replaced (both objects), changed in place
    (what differs in its content), both, or not at all (None)."""
    if before.value is after.value and before.content == after.content:
        return None
    report: dict[str, Any] = {}
    if before.value is not after.value:
        report["before"] = ident(before.value)
        report["after"] = ident(after.value)
    if before.content != after.content:
        report["content"] = content_difference(before.content, after.content)
    return report


def content_difference(before: Any, after: Any) -> Any:
    """The keys of two nested dicts whose values differ, with both values."""
    if isinstance(before, dict) and isinstance(after, dict):
        keys = sorted(set(before) | set(after), key=str)
        return {
            str(k): content_difference(before.get(k), after.get(k))
            for k in keys
            if before.get(k) != after.get(k)
        }
    return {"before": before, "after": after}


def difference(before: Observation, after: Observation) -> dict[str, Any]:
    """The report: the inputs whose result differs, and the attributes
    added, removed and changed, by qualified name."""
    outputs, entries = before
    outputs_after, entries_after = after
    return {
        "inputs": len(outputs),
        "attributes": len(entries),
        "differing_inputs": {
            name: {"before": out, "after": outputs_after[name]}
            for name, out in outputs.items()
            if outputs_after[name] != out
        },
        "added": {
            k: ident(entries_after[k].value)
            for k in entries_after.keys() - entries.keys()
        },
        "removed": {
            k: ident(entries[k].value) for k in entries.keys() - entries_after.keys()
        },
        "changed": {
            k: report
            for k in entries.keys() & entries_after.keys()
            if (report := changed(entries[k], entries_after[k])) is not None
        },
    }


def top_level_modules() -> set[str]:
    """The top-level packages and modules imported so far."""
    return {name.partition(".")[0] for name in sys.modules}


def main(corpus_dir: str, result: str, exercise: Callable[[], None]) -> None:
    """Look, run `exercise`, look again, and write the difference to `result`."""
    assert "xsparse" not in sys.modules, "xsparse imported before the first look"
    corpus = read_corpus(Path(corpus_dir))
    load_every_dialect()
    modules = snapshot_modules()
    before = observe(corpus, modules)
    loaded = top_level_modules()
    exercise()
    report = difference(before, observe(corpus, modules))
    report["modules_loaded_by_exercise"] = sorted(top_level_modules() - loaded)
    Path(result).write_text(json.dumps(report, indent=1, sort_keys=True))


if __name__ == "__main__":
    exercise = sys.argv[3] if len(sys.argv) > 3 else "xsparse"
    main(sys.argv[1], sys.argv[2], EXERCISES[exercise])
