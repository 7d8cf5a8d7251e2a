"""The rulebook a game plays (gm.engine.rulebook): every DATC case passes under the rulebook it
is written for. The v2.4 cases and the cases v3.0 added (tests/scenarios/datc, datc_v3) are the
2000 rulebook's; tests/scenarios/datc_2023 holds the v3.0 cases the 2023 rulebook decides
differently. The cases both rulebooks decide alike pass under 2023 as well."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gm.cli.scenario import print_result
from gm.engine.frozen import replace
from gm.engine.rulebook import RULEBOOK_KEY, rulebook_of, with_rulebook
from gm.scenario.format import Case, Line, read_file, read_text
from gm.scenario.runner import build_state, run_case
from gm.variants.registry import get_variant

SCENARIOS = Path(__file__).parent.parent / "scenarios"
CASES_2000 = [c for d in ("datc", "datc_v3") for p in sorted((SCENARIOS / d).glob("*.txt"))
              for c in read_file(p)]
CASES_2023 = [c for p in sorted((SCENARIOS / "datc_2023").glob("*.txt")) for c in read_file(p)]
# The 2000 readings of the cases the 2023 rulebook decides differently (their 2023 versions are
# in datc_2023): "via convoy" with no convoy (v2.4: over land), and an unneeded own fleet's
# convoy order showing intent (datc_v3's 6.G.19 is the 1971 reading).
DIFFERENT = {"6.G.8", "6.G.19"}


def _fail_message(case: Case) -> str | None:
    result = run_case(case)
    if result.passed:
        return None
    out = io.StringIO()
    print_result(result, out)
    return out.getvalue()


@pytest.mark.parametrize("case", CASES_2023, ids=[c.name for c in CASES_2023])
def test_datc_v3_under_the_2023_rulebook(case: Case) -> None:
    assert case.rulebook is not None and case.rulebook.text == "2023"
    message = _fail_message(case)
    if message:
        pytest.fail(message, pytrace=False)


SAME = [c for c in CASES_2000 if c.name not in DIFFERENT]


@pytest.mark.parametrize("case", SAME, ids=[c.name for c in SAME])
def test_the_other_datc_cases_pass_under_the_2023_rulebook_too(case: Case) -> None:
    assert case.rulebook is None
    message = _fail_message(replace(case, rulebook=Line(0, "2023")))
    if message:
        pytest.fail(message, pytrace=False)


def test_the_2023_cases_cover_what_changed() -> None:
    names = {c.name.removesuffix(".2023") for c in CASES_2023}
    assert {"6.G.7", "6.G.8", "6.G.11", "6.G.11.explicit", "6.G.19"} <= names
    assert {f"6.J.{i}" for i in range(1, 12)} | {"6.J.9.second"} <= names
    assert len(CASES_2023) == 17


@pytest.mark.parametrize("name", ["6.G.8.2023", "6.G.19.2023", "6.J.2.2023",
                                  "6.J.10.2023", "6.J.11.2023"])
def test_the_setting_decides(name: str) -> None:
    """The changed cases fail when played under the 2000 rulebook: the setting is what
    decides them."""
    case = next(c for c in CASES_2023 if c.name == name)
    assert _fail_message(replace(case, rulebook=Line(0, "2000")))


def test_the_2000_cases_fail_under_2023_where_the_rulebooks_differ() -> None:
    differing = [c for c in CASES_2000 if c.name in DIFFERENT]
    assert len(differing) == len(DIFFERENT)
    for case in differing:
        assert _fail_message(replace(case, rulebook=Line(0, "2023"))), case.name


def test_the_rulebook_is_kept_in_the_state() -> None:
    state = get_variant("standard").start_state()
    assert rulebook_of(state) == "2000" and RULEBOOK_KEY not in state.extra
    assert rulebook_of(with_rulebook(state, "2023")) == "2023"
    assert with_rulebook(with_rulebook(state, "2023"), "2000") == state
    with pytest.raises(ValueError, match="no rulebook '1971'"):
        with_rulebook(state, "1971")


def test_the_scenario_format_sets_it_per_file_and_per_case() -> None:
    text = """VARIANT_ALL Standard
RULEBOOK 2023
CASE a
END
CASE b
RULEBOOK 2000
END
"""
    a, b = read_text(text, "x.txt")
    assert rulebook_of(build_state(a, get_variant("standard"))) == "2023"
    assert rulebook_of(build_state(b, get_variant("standard"))) == "2000"
    (c,) = read_text("CASE c\nRULEBOOK 1999\nEND\n", "y.txt")
    with pytest.raises(Exception, match="no rulebook '1999'"):
        build_state(c, get_variant("standard"))
