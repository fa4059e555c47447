"""The error that user input raises, and MLIR's layout for its message.

The lowest layer of the package: dialects, passes, the backend and the CLIs
all raise `XSparseError` for bad input, with the location formatted as
`file:line:col: error: message`, the source line and a caret.
"""

from __future__ import annotations

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Span


class XSparseError(Exception):
    """An error in user input, already formatted with its location."""


class ConversionWarning(UserWarning):
    """A kernel argument was converted to the encoding the kernel takes (a
    CSC matrix given to a CSR kernel, a dense array to a sparse one), on
    every call. Silence it with `warnings.simplefilter("ignore",
    xsparse.ConversionWarning)`, make it an error with "error", or refuse
    such calls with `kernel(..., strict=True)`."""


class UncheckedMemrefWarning(RuntimeWarning):
    """A kernel takes raw memrefs from Python (`xsparse.compile`, once per
    kernel): as in MLIR, its loads and stores of them are not bounds-checked,
    so arrays smaller than its loops assume are read and written out of
    bounds. Only arguments of tensor types are checked (shapes, sparse
    buffers). Silence it with `warnings.simplefilter("ignore",
    xsparse.UncheckedMemrefWarning)`."""


def format_span(
    span: Span[str] | Span[bytes], message: str, severity: str = "error"
) -> str:
    """MLIR's diagnostic layout: location, severity, message, line, caret."""
    location = span.get_location()
    context = span.print_with_context().split("\n", 1)[1]
    return f"{location}: {severity}: {message}\n{context.rstrip()}"


def format_parse_error(error: ParseError) -> str:
    return format_span(error.span, error.msg)
