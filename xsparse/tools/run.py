"""`xsparse-run FILE [-e main]`: compile with the sparsifier and run @main."""

import sys


def main() -> int:
    print("xsparse-run: not implemented yet", file=sys.stderr)
    return 2
