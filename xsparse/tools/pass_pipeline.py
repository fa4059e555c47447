"""Pass pipelines as mlir-opt reads them, into xDSL's passes.

`-p 'a,b{opt=v}'` lists passes (xdsl-opt's form); `--pass-pipeline=
'builtin.module(a,func.func(b{opt=v}))'` is MLIR's textual pipeline, which
`-p` takes too. Options are spelled as in MLIR, with dashes
(`parallelization-strategy=dense-outer-loop`); the field's own spelling
(`parallelization_strategy`) is accepted as well. A flag option written alone
(`{enable-x}`) is true; a list option takes `a=1,2,3`.

Every pass is a ModulePass, run on the whole module: passes nested in
`func.func(...)` or `any(...)` run on the module too, which is what MLIR does
for passes that work function by function. Other anchors are refused.

A mistake raises UsageError with a one-line message.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import re
import textwrap
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from difflib import get_close_matches
from types import NoneType, UnionType
from typing import Any, Literal, NoReturn, Union, get_args, get_origin, get_type_hints

from xdsl.passes import ModulePass
from xdsl.utils.arg_spec import ArgSpec, ParameterType
from xdsl.utils.hints import isa

from xsparse.tools.command_line import UsageError

MODULE_ANCHOR = "builtin.module"
NESTED_ANCHORS = ("func.func", "any")
"""Anchors whose passes run on the whole module."""
UNANCHORED = (
    "expected pass pipeline to be wrapped with the anchor operation type, "
    "e.g. 'builtin.module(...)'"
)
"""MLIR's words for a `--pass-pipeline` without `builtin.module(...)`."""

NAME = re.compile(r"[\w.\-]+")
OPTION_NAME = re.compile(r"[\w\-]+")
ITEM = re.compile(r'"[^"]*"|[^\s,{}"]+')
"""A value of an option, or one element of a list value: quoted, or bare."""
INTEGER = re.compile(r"[-+]?\d+")
FLOAT = re.compile(r"[-+]?\d+\.\d*(?:[eE][-+]?\d+)?")

PassFactories = dict[str, Callable[[], type[ModulePass]]]


@dataclass(frozen=True)
class PassOption:
    key: str
    """As written: `parallelization-strategy`."""
    items: tuple[str, ...] | None
    """The value's elements as written (quotes kept); None without `=`."""
    text: str
    """The option as written: `vl=abc`."""


@dataclass(frozen=True)
class PassText:
    name: str
    options: tuple[PassOption, ...]


@dataclass(frozen=True)
class Anchor:
    """`name(elements)`: passes nested on an operation type."""

    name: str
    elements: tuple[PassText | Anchor, ...]


class PipelineReader:
    """A recursive-descent reader of MLIR's textual pass pipeline."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0

    def error(self, message: str) -> NoReturn:
        where = f"at column {self.pos + 1}" if self.pos < len(self.text) else "at end"
        raise UsageError(f"invalid pass pipeline '{self.text}': {message} {where}")

    def peek(self) -> str:
        return self.text[self.pos : self.pos + 1]

    def skip_spaces(self) -> None:
        while self.peek().isspace():
            self.pos += 1

    def expect(self, char: str) -> None:
        self.skip_spaces()
        if self.peek() != char:
            self.error(f"expected '{char}'")
        self.pos += 1

    def read(self, pattern: re.Pattern[str], what: str) -> str:
        match = pattern.match(self.text, self.pos)
        if match is None:
            self.error(f"expected {what}")
        self.pos = match.end()
        return match.group(0)

    def read_all(self) -> tuple[PassText | Anchor, ...]:
        self.skip_spaces()
        if self.pos == len(self.text):
            return ()
        elements = self.read_elements()
        self.skip_spaces()
        if self.pos < len(self.text):
            self.error("expected ',' between passes")
        return elements

    def read_elements(self) -> tuple[PassText | Anchor, ...]:
        elements = [self.read_element()]
        self.skip_spaces()
        while self.peek() == ",":
            self.pos += 1
            elements.append(self.read_element())
            self.skip_spaces()
        return tuple(elements)

    def read_element(self) -> PassText | Anchor:
        self.skip_spaces()
        name = self.read(NAME, "a pass name")
        self.skip_spaces()
        if self.peek() == "(":
            self.pos += 1
            self.skip_spaces()
            elements = () if self.peek() == ")" else self.read_elements()
            self.expect(")")
            return Anchor(name, elements)
        if self.peek() == "{":
            self.pos += 1
            return PassText(name, self.read_options())
        return PassText(name, ())

    def read_options(self) -> tuple[PassOption, ...]:
        """`key[=value]` separated by spaces, up to the closing `}`."""
        options: list[PassOption] = []
        while True:
            self.skip_spaces()
            if self.peek() == "}":
                self.pos += 1
                return tuple(options)
            start = self.pos
            key = self.read(OPTION_NAME, "an option name")
            items = None
            if self.peek() == "=":
                self.pos += 1
                items = self.read_value()
            options.append(PassOption(key, items, self.text[start : self.pos]))
            if not (self.peek().isspace() or self.peek() == "}"):
                self.error("expected a space or '}' after an option")

    def read_value(self) -> tuple[str, ...]:
        items = [self.read(ITEM, "an option value")]
        while self.peek() == ",":
            self.pos += 1
            items.append(self.read(ITEM, "an option value"))
        return tuple(items)


def read_pipeline(text: str, anchored: bool) -> tuple[PassText, ...]:
    """The passes of `text` in the order they run; `anchored` asks for MLIR's
    `builtin.module(...)` around them (`--pass-pipeline`)."""
    elements = PipelineReader(text).read_all()
    if anchored and not all(
        isinstance(e, Anchor) and e.name == MODULE_ANCHOR for e in elements
    ):
        raise UsageError(UNANCHORED)
    return tuple(p for e in elements for p in passes_in(e, top=True))


def passes_in(element: PassText | Anchor, top: bool) -> Iterator[PassText]:
    if isinstance(element, PassText):
        yield element
        return
    if element.name not in NESTED_ANCHORS and (element.name, top) != (
        MODULE_ANCHOR,
        True,
    ):
        anchors = ", ".join([MODULE_ANCHOR, *NESTED_ANCHORS])
        raise UsageError(
            f"passes anchored on '{element.name}' are not supported: xsparse-opt "
            f"runs every pass on the whole module (anchors: {anchors})"
        )
    for nested in element.elements:
        yield from passes_in(nested, top=False)


def build_passes(
    texts: Sequence[PassText], available: PassFactories
) -> tuple[ModulePass, ...]:
    return tuple(build_pass(text, available) for text in texts)


def build_pass(text: PassText, available: PassFactories) -> ModulePass:
    if text.name not in available:
        close = get_close_matches(text.name, list(available), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        raise UsageError(
            f"'{text.name}' does not refer to a registered pass or pass pipeline{hint}"
        )
    pass_type = available[text.name]()
    fields = option_fields(pass_type)
    hints = get_type_hints(pass_type)
    parameters: dict[str, tuple[ParameterType, ...]] = {}
    for option in text.options:
        field = option.key.replace("-", "_")
        if field not in fields:
            raise UsageError(unknown_option(text.name, option.key, fields))
        values = typed_values(option.items, hints[field])
        if not accepts(hints[field], values):
            raise UsageError(
                f"invalid pass option: '{option.text}' for pass '{text.name}': "
                f"expected {describe(hints[field])}"
            )
        parameters[field] = values
    missing = sorted(pass_type.required_fields() - parameters.keys())
    if missing:
        raise UsageError(
            f"invalid pass option: pass '{text.name}' requires option "
            f"'{option_name(missing[0])}'"
        )
    try:
        return pass_type.from_spec(ArgSpec(text.name, parameters))
    except ValueError as e:
        raise UsageError(f"invalid pass option: pass '{text.name}': {e}") from None


def option_fields(pass_type: type[ModulePass]) -> list[str]:
    return [f.name for f in dataclasses.fields(pass_type) if f.init]


def field_docs(pass_type: type) -> dict[str, str]:
    """Each field's docstring (the string after it in the class body), on
    one line; along the bases."""
    docs: dict[str, str] = {}
    for klass in reversed(pass_type.__mro__):
        try:
            tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        except (OSError, TypeError, SyntaxError):
            continue
        body = (
            tree.body[0].body
            if tree.body and isinstance(tree.body[0], ast.ClassDef)
            else []
        )
        for field, doc in zip(body, body[1:], strict=False):
            if (
                isinstance(field, ast.AnnAssign)
                and isinstance(field.target, ast.Name)
                and isinstance(doc, ast.Expr)
                and isinstance(doc.value, ast.Constant)
                and isinstance(doc.value.value, str)
            ):
                docs[field.target.id] = " ".join(doc.value.value.split())
    return docs


def pass_help(name: str, pass_type: type[ModulePass]) -> list[str]:
    """The pass and its options as `mlir-opt --help` lists them: `--name`
    and its summary, then `--option=<value>` with what it takes."""
    paragraph = " ".join((pass_type.__doc__ or "").strip().split("\n\n")[0].split())
    summary = paragraph.split(". ")[0].rstrip(".")
    lines = [f"      --{name:<40} -   {summary}"]
    hints = get_type_hints(pass_type)
    docs = field_docs(pass_type)
    for field in dataclasses.fields(pass_type):
        if not field.init:
            continue
        hint = hints[field.name]
        flag = option_name(field.name)
        if hint is not bool:
            flag += "=<value>" if get_origin(hint) is Literal else f"=<{_kind(hint)}>"
        default = field.default
        choices = get_origin(hint) is Literal
        text = docs.get(field.name) or ("" if choices else describe(hint))
        if default is not dataclasses.MISSING and default is not None:
            shown = str(default).lower() if isinstance(default, bool) else default
            text += f" (default: {shown})" if text else f"default: {shown}"
        lines.append(f"        --{flag:<38} - {text}")
        if choices:
            lines += [f"          ={value}" for value in get_args(hint)]
    return lines


def _kind(hint: Any) -> str:
    kinds = {int: "int", float: "number", bool: "bool"}
    if get_origin(hint) is tuple:
        return "list"
    if get_origin(hint) in (Union, UnionType):
        return next(
            (kinds.get(a, "string") for a in get_args(hint) if a is not NoneType),
            "string",
        )
    return kinds.get(hint, "string")


def option_name(field: str) -> str:
    """MLIR's spelling of an option: dashes."""
    return field.replace("_", "-")


def unknown_option(pass_name: str, key: str, fields: Sequence[str]) -> str:
    if not fields:
        return f"invalid pass option: pass '{pass_name}' takes no options ('{key}')"
    names = ", ".join(option_name(f) for f in fields)
    return (
        f"invalid pass option: '{key}' is not an option of pass '{pass_name}' "
        f"(options: {names})"
    )


def typed_values(items: tuple[str, ...] | None, hint: Any) -> tuple[ParameterType, ...]:
    """The option's value as xDSL's pass fields take it; a flag alone is true,
    and an integer is a float where the option takes floats."""
    if items is None:
        return (True,) if hint is bool else ()
    values = tuple(parameter_value(item) for item in items)
    if mentions(hint, float) and not mentions(hint, int):
        return tuple(
            float(v) if isinstance(v, int) and not isinstance(v, bool) else v
            for v in values
        )
    return values


def parameter_value(item: str) -> ParameterType:
    if item.startswith('"'):
        return item[1:-1]
    if INTEGER.fullmatch(item):
        return int(item)
    if FLOAT.fullmatch(item):
        return float(item)
    if item in ("true", "false"):
        return item == "true"
    return item


def accepts(hint: Any, values: tuple[ParameterType, ...]) -> bool:
    """Whether xDSL takes `values` for a field of type `hint` (one value, a
    tuple, or nothing for an optional field)."""
    if not values:
        return NoneType in get_args(hint)
    return (len(values) == 1 and isa(values[0], hint)) or isa(values, hint)


def mentions(hint: Any, t: type) -> bool:
    return hint is t or any(mentions(arg, t) for arg in get_args(hint))


def describe(hint: Any) -> str:
    """What a field of type `hint` takes, in words."""
    origin = get_origin(hint)
    args = get_args(hint)
    if origin is Literal:
        return "one of " + ", ".join(str(a) for a in args)
    if origin in (Union, UnionType):
        return " or ".join(describe(a) for a in args if a is not NoneType)
    if origin is tuple:
        return f"a comma-separated list, each {describe(args[0])}"
    words = {bool: "true or false", int: "an integer", float: "a number"}
    return words.get(hint, "a string")
