"""`--verify-diagnostics` as mlir-opt checks diagnostics (MLIR's
DiagnosticVerifierHandler, mlir/lib/IR/Diagnostics.cpp).

The input says which diagnostics it expects: `// expected-error {{message}}`
(or `-warning`, `-note`, `-remark`) on the line the diagnostic points at, or
elsewhere with a designator: `@+N` / `@-N` lines from the annotation,
`@above` / `@below` the nearest line without an annotation, `@unknown` a
diagnostic without a location. The message is a substring of the
diagnostic's; with `expected-error-re`, `{{...}}` inside it are regular
expressions. Every diagnostic must be expected and every expectation met;
each failure is reported in MLIR's words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.utils.lexer import Input, Span

from xsparse.errors import format_span

ANNOTATION = re.compile(
    r"expected-(?P<severity>error|note|remark|warning)(?P<regex>-re)? *"
    r"(?:@(?P<designator>[+-][0-9]+|above|below|unknown))? *\{\{(?P<message>.*)\}\}$"
)
"""MLIR's annotation syntax (the `expected` regex of Diagnostics.cpp)."""
LOCATED = re.compile(
    r"(?P<file>.*?):(?P<line>\d+):\d+: (?P<severity>error|warning|note|remark): "
    r"(?P<message>.*)"
)
UNLOCATED = re.compile(
    r"(?P<file>.*?): (?P<severity>error|warning|note|remark): (?P<message>.*)"
)
REGEX_PART = re.compile(r"\{\{(.*?)\}\}")


@dataclass(frozen=True)
class Diagnostic:
    """One diagnostic as xsparse-opt prints it."""

    severity: str
    line: int | None
    """The line it points at; None without a location."""
    message: str
    text: str
    """As printed: `file:line:col: severity: message`, source line, caret."""

    @staticmethod
    def read(text: str) -> Diagnostic:
        first = text.split("\n", 1)[0]
        if (located := LOCATED.fullmatch(first)) is not None:
            line = int(located.group("line"))
            return Diagnostic(
                located.group("severity"), line, located.group("message"), text
            )
        if (unlocated := UNLOCATED.fullmatch(first)) is not None:
            return Diagnostic(
                unlocated.group("severity"), None, unlocated.group("message"), text
            )
        return Diagnostic("error", None, first, text)

    def reported_as(self, problem: str) -> str:
        """This diagnostic's text with `problem` in place of its message."""
        first, _, context = self.text.partition("\n")
        head = first[: len(first) - len(self.message)].rsplit(f"{self.severity}: ", 1)[
            0
        ]
        return f"{head}error: {problem}" + (f"\n{context}" if context else "")


@dataclass
class Expectation:
    severity: str
    line: int | None
    """The line the diagnostic must point at; None for `@unknown`."""
    pattern: re.Pattern[str]
    message: str
    annotation: Span
    """Where the annotation is, to report it unmet."""
    met: bool = False

    def missing_report(self) -> str:
        problem = f'expected {self.severity} "{self.message}" was not produced'
        return format_span(self.annotation, problem)


def read_expectations(source: str, name: str) -> list[Expectation]:
    """The annotations of `source`, by the line they expect (line numbers of
    `source`, which holds a chunk padded to its place in the file)."""
    expectations: list[Expectation] = []
    for_next_line: list[Expectation] = []
    last_plain_line = 0
    source_input = Input(source, name)
    offset = 0
    for number, line in enumerate(source.split("\n"), start=1):
        match = ANNOTATION.search(line.rstrip())
        if match is None:
            for expectation in for_next_line:
                expectation.line = number
            for_next_line.clear()
            last_plain_line = number
        else:
            start = offset + match.start()
            message = match.group("message")
            span = Span(start, start + max(len(message), 1), source_input)
            designator = match.group("designator")
            expectation = Expectation(
                match.group("severity"),
                target_line(designator, number, last_plain_line),
                message_pattern(message, match.group("regex") is not None),
                message,
                span,
            )
            expectations.append(expectation)
            if designator == "below":
                for_next_line.append(expectation)
        offset += len(line) + 1
    return expectations


def target_line(designator: str | None, line: int, last_plain_line: int) -> int | None:
    if designator is None:
        return line
    if designator == "above":
        return last_plain_line
    if designator == "below":
        return 0  # no line yet: set on reaching the next plain line
    if designator == "unknown":
        return None
    return line + int(designator)


def message_pattern(message: str, regex: bool) -> re.Pattern[str]:
    if not regex:
        return re.compile(re.escape(message))
    parts = REGEX_PART.split(message)
    return re.compile(
        "".join(part if i % 2 else re.escape(part) for i, part in enumerate(parts))
    )


def check(diagnostic: Diagnostic, expectations: Sequence[Expectation]) -> str | None:
    """None when `diagnostic` was expected (the expectation is then met),
    else MLIR's report of it."""
    candidates = [
        e
        for e in expectations
        if e.line == diagnostic.line and e.pattern.search(diagnostic.message)
    ]
    same = [e for e in candidates if e.severity == diagnostic.severity]
    if same:
        next((e for e in same if not e.met), same[0]).met = True
        return None
    if candidates:  # reported where the annotation is, as MLIR reports it
        expected = candidates[0]
        return format_span(
            expected.annotation,
            f"'{diagnostic.severity}' diagnostic emitted when expecting a "
            f"'{expected.severity}'",
        )
    return diagnostic.reported_as(
        f"unexpected {diagnostic.severity}: {diagnostic.message}"
    )
