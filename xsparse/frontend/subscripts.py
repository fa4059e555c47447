"""numpy's einsum subscripts (`"ij,j->i"`, `"ii"`, `"ij->ji"`) as an `Assignment`.

The rules are numpy's: one term of letters per operand, separated by commas;
`->` names the output, else (implicit mode) the output is every letter used
exactly once, in alphabetical order. A letter twice in one term is a
diagonal; a letter missing from the output is summed over. Spaces are
ignored. The ellipsis (`...`) is not supported.
"""

from __future__ import annotations

from collections import Counter

from xsparse.frontend.expression import Access, Assignment, product


def parse_subscripts(subscripts: str, count: int) -> Assignment:
    """The assignment `subscripts` describes for `count` operands; ValueError
    naming the expression when it is malformed or does not fit `count`."""
    if not isinstance(subscripts, str):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise TypeError(
            f"einsum subscripts must be a str, got {type(subscripts).__name__}"
        )
    text = subscripts.replace(" ", "")
    where = f"einsum {subscripts!r}"
    if "." in text:
        raise ValueError(
            f"{where}: the ellipsis '...' is not supported; name every index"
        )
    inputs_text, arrow, output_text = text.partition("->")
    if "->" in output_text or "-" in inputs_text or ">" in inputs_text:
        raise ValueError(
            f"{where}: '->' must appear at most once, between inputs and output"
        )
    terms = inputs_text.split(",")
    for term in [*terms, output_text]:
        bad = [c for c in term if not c.isascii() or not c.isalpha()]
        if bad:
            raise ValueError(f"{where}: {bad[0]!r} is not an index letter (a-z, A-Z)")
    if count == 0:
        raise ValueError(f"{where}: einsum needs at least one operand")
    if len(terms) != count:
        raise ValueError(
            f"{where}: the subscripts name {len(terms)} operand(s), got {count} operand(s)"
        )
    used = Counter(c for term in terms for c in term)
    if arrow:
        output = tuple(output_text)
        for letter, times in Counter(output).items():
            if times > 1:
                raise ValueError(
                    f"{where}: output index {letter!r} appears {times} times"
                )
            if letter not in used:
                raise ValueError(
                    f"{where}: output index {letter!r} appears in no operand's subscripts"
                )
    else:
        output = tuple(sorted(c for c, times in used.items() if times == 1))
    rhs = product([Access(k, tuple(term)) for k, term in enumerate(terms)])
    names = tuple(f"operand {k}" for k in range(count))
    return Assignment(subscripts, output, rhs, names)
