"""The error a pass raises for input it cannot compile, located at an op."""

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException


class PassFailure(DiagnosticException):
    """A pass rejected `op`; xsparse-opt prints the message at the op's location."""

    def __init__(self, op: Operation, message: str) -> None:
        super().__init__(f"'{op.name}' op {message}")
        self.op = op
