"""Every DATC v2.4 section 6 case, in the project's transcription, adjudicates as the DATC says;
so do the cases DATC v3.0 added that this project's rule options decide
(tests/scenarios/datc_v3)."""

from __future__ import annotations

import io
import re
from collections import Counter
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.scenario.format import Case, read_file
from gm.scenario.runner import run_case

DATC_DIR = Path(__file__).parent.parent / "scenarios" / "datc"
CASES: list[Case] = [case for path in sorted(DATC_DIR.glob("*.txt")) for case in read_file(path)]
V3_DIR = Path(__file__).parent.parent / "scenarios" / "datc_v3"
V3_CASES: list[Case] = [case for path in sorted(V3_DIR.glob("*.txt")) for case in read_file(path)]
# DATC v3.0's new cases (6.G.19 as it reads for the 1971 rulebook); its changed ones (6.G.8,
# 6.G.11, 6.J) are played as v2.4 says under the 2000 rulebook, the default (their 2023
# readings: tests/scenarios/datc_2023, tests/scenario/test_datc_rulebooks.py).
V3_ADDED = {"6.B.15", "6.C.8", "6.C.9", "6.F.25", "6.G.19", "6.G.20"}

# DATC v2.4 section 6: number of test cases per subsection.
SECTION_SIZES = {"A": 12, "B": 14, "C": 7, "D": 34, "E": 15, "F": 24, "G": 18, "H": 16, "I": 7,
                 "J": 11}
EXTRA = re.compile(r"\.(old|mod|modified|extended|fleet\.support\.inland)$")


def test_every_datc_case_is_transcribed_once() -> None:
    names = [c.name for c in CASES]
    assert len(names) == len(set(names)), "duplicate case names"
    datc = {re.sub(r"\.part\d$", "", n) for n in names if not EXTRA.search(n)}
    per_section = Counter(n.split(".")[1] for n in datc)
    assert per_section == SECTION_SIZES
    for section, size in SECTION_SIZES.items():
        assert {f"6.{section}.{i}" for i in range(1, size + 1)} <= datc


def test_the_v3_cases_are_the_added_ones() -> None:
    assert sorted(c.name for c in V3_CASES) == sorted(V3_ADDED)


def test_cases_say_what_they_check() -> None:
    for path in [*DATC_DIR.glob("*.txt"), *V3_DIR.glob("*.txt")]:
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines):
            if line.startswith("CASE "):
                j = i
                while lines[j - 1].startswith("#"):
                    j -= 1
                heading = lines[j:i]
                assert heading, f"{path}:{i + 1}: no comment"
                assert heading[0].startswith(("# DATC 6.", "# EXTRA")), f"{path}:{i + 1}"


@pytest.mark.parametrize("case", CASES + V3_CASES,
                         ids=[c.name for c in CASES] + [f"v3-{c.name}" for c in V3_CASES])
def test_datc_case(case: Case) -> None:
    result = run_case(case)
    if not result.passed:
        out = io.StringIO()
        print_result(result, out)
        pytest.fail(out.getvalue(), pytrace=False)
