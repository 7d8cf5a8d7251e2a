"""The differential corpus: 263 phases of random games adjudicated by the MILA engine."""

from __future__ import annotations

import io

import pytest

from gm.cli.scenario import print_result
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case
from tests.shared import REFERENCE

CORPUS = REFERENCE / "differential" / "mila_random_games.txt"
CASES: list[Case] = read_file(CORPUS)


def test_the_corpus_is_complete() -> None:
    assert len(CASES) == 263


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_differential_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)
