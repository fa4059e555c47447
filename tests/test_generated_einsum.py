"""Random `xsparse.einsum` / `xsparse.evaluate` calls
(`xsparse.testing.einsum_cases`): numpy arrays, scipy.sparse arrays and
matrices of every format and `SparseTensor`s in random encodings, random
expressions, sizes (0 included) and dtypes; each must give numpy's result or
a ValueError/TypeError naming the expression. A failure prints the case."""

from __future__ import annotations

import pytest

from xsparse.testing.einsum_cases import check_einsum_case, random_einsum_case
from xsparse.testing.outcome import Verdict

SEEDS = range(150)


@pytest.mark.parametrize("seed", SEEDS)
def test_generated_einsum(seed: int) -> None:
    outcome = check_einsum_case(seed)
    if outcome.verdict not in (Verdict.OK, Verdict.REFUSED):
        pytest.fail(
            f"{outcome.verdict.value.upper()}: {outcome.detail}\n\n"
            f"Reproducer:\n{outcome.reproducer}",
            pytrace=False,
        )


def test_the_generator_draws_every_kind_of_operand() -> None:
    kinds = {
        p.kind.split("|")[0] + ("|" + p.kind.split("|")[1] if "scipy" in p.kind else "")
        for seed in SEEDS
        for p in random_einsum_case(seed).operands
    }
    scipy = {f"scipy|{f}" for f in ("csr", "csc", "coo", "bsr", "dia", "lil", "dok")}
    assert {"numpy", "tensor"} | scipy <= kinds
    cases = [random_einsum_case(seed) for seed in SEEDS]
    assert sum(c.notation for c in cases) >= 30
    assert sum(c.threads > 0 for c in cases) >= 30
    assert sum(c.format is not None for c in cases) >= 20
