"""Located diagnostics: `file:line:col: error: message`, the source line and a caret.

Parsing records where every operation starts, so that a verifier failure
found after parsing (or after a pass) still points at the source text.
"""

from __future__ import annotations

from typing import cast
from weakref import WeakKeyDictionary

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Attribute, Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Span

from xsparse.dialects.sparse_tensor.encoding import (
    SparseTensorEncodingAttr,
    verify_encoding_for_tensor,
)


class XSparseError(Exception):
    """An error in user input, already formatted with its location."""


class LocatingParser(Parser):
    """xDSL's parser, remembering the source span where each operation starts."""

    def __init__(self, ctx: Context, text: str, name: str = "<input>") -> None:
        super().__init__(ctx, text, name)
        self.op_spans: WeakKeyDictionary[Operation, Span] = WeakKeyDictionary()

    def parse_operation(self) -> Operation:
        start = self._current_token.span
        op = super().parse_operation()
        self.op_spans[op] = start
        return op


def format_span(
    span: Span[str] | Span[bytes], message: str, severity: str = "error"
) -> str:
    """MLIR's diagnostic layout: location, severity, message, line, caret."""
    location = span.get_location()
    context = span.print_with_context().split("\n", 1)[1]
    return f"{location}: {severity}: {message}\n{context.rstrip()}"


def format_parse_error(error: ParseError) -> str:
    return format_span(error.span, error.msg)


def _verify_tensor_encodings(op: Operation) -> None:
    """MLIR's `verifyEncoding` on the sparse tensor types an op uses (xDSL's
    TensorType cannot check its encoding against its shape itself)."""
    values = [*op.operands, *op.results]
    values += [
        arg for region in op.regions for block in region.blocks for arg in block.args
    ]
    for value in values:
        t = value.type
        if isinstance(t, TensorType) and isinstance(
            t.encoding, SparseTensorEncodingAttr
        ):
            verify_encoding_for_tensor(t.encoding, cast(TensorType[Attribute], t))


def first_verify_error(module: Operation) -> tuple[Operation, str] | None:
    """Verify operations one by one, outermost first; the first failure, with
    MLIR's `'op' op` prefix for an op's own verifier."""
    for op in module.walk():
        try:
            _verify_tensor_encodings(op)
        except VerifyException as e:  # a type error: MLIR prints no op prefix
            return op, str(e).split("\n", 1)[0]
        try:
            op.verify(verify_nested_ops=False)
        except VerifyException as e:
            return op, f"'{op.name}' op " + str(e).split("\n", 1)[0]
        except Exception as e:  # a verifier that crashed is still a user error
            return op, f"'{op.name}' op {type(e).__name__}: {e}"
    return None


def verify_located(
    module: Operation, spans: WeakKeyDictionary[Operation, Span], filename: str
) -> None:
    """Raise XSparseError with a located message when `module` does not verify."""
    failure = first_verify_error(module)
    if failure is None:
        return
    op, message = failure
    target: Operation | None = op
    while target is not None and target not in spans:
        target = target.parent_op()
    if target is not None:
        raise XSparseError(format_span(spans[target], message))
    raise XSparseError(f"{filename}: error: {message}")


def locate_error(
    error: Exception, spans: WeakKeyDictionary[Operation, Span], filename: str
) -> str:
    """A pass's error message at the source location of its op (`error.op`)."""
    message = str(error).split("\n", 1)[0]
    target = getattr(error, "op", None)
    while isinstance(target, Operation) and target not in spans:
        target = target.parent_op()
    if isinstance(target, Operation):
        return format_span(spans[target], message)
    return f"{filename}: error: {message}"


def parse_module(ctx: Context, text: str, filename: str = "<input>") -> ModuleOp:
    """Parse and verify, raising XSparseError with a located message."""
    return parse_module_with_spans(ctx, text, filename)[0]


def parse_module_with_spans(
    ctx: Context, text: str, filename: str = "<input>"
) -> tuple[ModuleOp, WeakKeyDictionary[Operation, Span]]:
    """Parse and verify; also where each op starts, to locate later errors."""
    try:
        parser = LocatingParser(ctx, text, filename)  # lexes the first token
    except ParseError as e:
        raise XSparseError(format_parse_error(e)) from None
    try:
        module = parser.parse_module()
    except ParseError as e:
        raise XSparseError(format_parse_error(e)) from None
    except VerifyException as e:
        span = parser._current_token.span
        raise XSparseError(format_span(span, str(e).split("\n", 1)[0])) from None
    except Exception as e:  # a bug in a parser: still a located diagnostic
        span = parser._current_token.span
        message = f"internal error while parsing: {type(e).__name__}: {e}"
        raise XSparseError(format_span(span, message)) from None
    verify_located(module, parser.op_spans, filename)
    return module, parser.op_spans
