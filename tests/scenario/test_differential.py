"""The differential corpus: 305 phases of random standard games adjudicated by the `diplomacy`
package (tests/data/differential: how it was made and how to regenerate it)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case

CORPUS = Path(__file__).parent.parent / "data" / "differential" / "random_games.txt"
CASES: list[Case] = read_file(CORPUS)


def test_the_corpus_is_complete() -> None:
    assert len(CASES) == 305
    phases = {c.name.rsplit(".", 1)[1][-1] for c in CASES}
    assert phases == {"M", "R", "A"}


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_differential_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)
