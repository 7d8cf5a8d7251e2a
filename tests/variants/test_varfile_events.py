"""A variant file's `[[events]]` (gm.variants.file_events): one meaning per file (no table of a
built-in variant applies: a `new centre` on a province abbreviated like a Deluge II one goes to
the unit there or nobody, never to a Deluge II power), the events of a season run in the order
written, and an event that cannot happen when it comes due is an error of the check with its
line, never a silent drop in play."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.engine.game import advance
from gm.engine.geo import Terrain
from gm.variants.varfile import VariantFileErrors, read_variant

# The documentation's triangle, its middle province called Tyr (Deluge II's Tyrolia has a rule
# 5 boundary: Austria's) and no centre, so that a `new centre` event can make it one.
TRIANGLE = '''name = "triangle"
title = "Triangle"
victory = 2
start = "{start}"
map = """
map triangle
edge ~N "the northern edge"
edge ~E "the eastern edge"
edge ~S "the southern edge"
edge ~W "the western edge"

Wes land "Westmark" at 100,100 home Red
    ring ~N Tyr LAK ~S ~W
Tyr land "Tyrol" at 300,60
    ring ~N Eas LAK Wes
Eas land "Eastmark" at 500,100 home Blue
    ring ~N ~E ~S LAK Tyr
LAK sea "The Lake" at 300,180
    ring Tyr Eas ~S Wes
"""

[[powers]]
name = "Red"
units = ["A Wes"]

[[powers]]
name = "Blue"
units = ["A Eas"]
{events}'''


def _event(when: str, kind: str, *provinces: str) -> str:
    names = ", ".join(f'"{p}"' for p in provinces)
    return f'\n[[events]]\nwhen = "{when}"\nkind = "{kind}"\nprovinces = [{names}]\n'


def _write(tmp_path: Path, *events: str, start: str = "Winter 1901") -> Path:
    path = tmp_path / "triangle.toml"
    path.write_text(TRIANGLE.format(start=start, events="".join(events)))
    return path


def _errors(path: Path) -> list[str]:
    with pytest.raises(VariantFileErrors) as caught:
        read_variant(path)
    return [p.message for p in caught.value.problems]


def _lines(path: Path, needle: str) -> list[int]:
    return [n for n, line in enumerate(path.read_text().splitlines(), 1) if needle in line]


def test_a_new_centre_named_like_a_deluge2_province_is_neutral_not_austrian(
        tmp_path: Path) -> None:
    v = read_variant(_write(tmp_path, _event("W1901", "new centre", "Tyr"))).variant
    step = advance(v, v.start_state(), [])
    state = step.state
    assert "Tyr" in v.map_for(state).centres
    assert "Tyr" not in state.owners  # no unit there: neutral (Deluge II would say Austria)
    words = " ".join(e for r in step.reports for e in r.events)
    assert "Tyrol becomes a supply centre; it is neutral." in words
    assert "Austria" not in words


def test_a_new_centre_under_a_unit_goes_to_its_power(tmp_path: Path) -> None:
    path = _write(tmp_path, _event("W1901", "new centre", "Tyr"))
    path.write_text(path.read_text().replace('units = ["A Wes"]', 'units = ["A Tyr"]'))
    v = read_variant(path).variant
    state = advance(v, v.start_state(), []).state
    assert state.owners["Tyr"] == "Red"


def test_a_season_s_events_run_in_the_order_written(tmp_path: Path) -> None:
    # dry, then new centre, in one Winter: the lake becomes land, then a centre
    v = read_variant(_write(tmp_path, _event("W1901", "dry", "LAK"),
                            _event("W1901", "new centre", "LAK"))).variant
    state = advance(v, v.start_state(), []).state
    after = v.map_for(state)
    assert after.terrain["LAK"] is Terrain.LAND and "LAK" in after.centres


def test_a_new_centre_written_before_the_dry_that_makes_it_land_is_refused(
        tmp_path: Path) -> None:
    path = _write(tmp_path, _event("W1901", "new centre", "LAK"), _event("W1901", "dry", "LAK"))
    with pytest.raises(VariantFileErrors) as caught:
        read_variant(path)
    [problem] = caught.value.problems
    assert problem.line == _lines(path, "[[events]]")[0]
    assert problem.message.startswith(
        "new centre LAK cannot happen: The Lake is a sea in Winter 1901: a supply centre can "
        "only appear on land; make it land first")


@pytest.mark.parametrize(("event", "why"), [
    (_event("W1901", "submerge", "LAK"), "submerge LAK cannot happen: The Lake is already "
     "water in Winter 1901"),
    (_event("W1901", "dry", "Wes"), "dry Wes cannot happen: Westmark is land in Winter 1901"),
    (_event("W1901", "passable", "Wes"), "passable Wes cannot happen: Westmark is land in "
     "Winter 1901, not impassable"),
    (_event("W1901", "lose centre", "Tyr"), "lose centre Tyr cannot happen: Tyrol is not a "
     "supply centre in Winter 1901"),
    (_event("W1901", "new centre", "Wes"), "new centre Wes cannot happen: Westmark is already "
     "a supply centre then"),
    (_event("F1901", "submerge", "Tyr"), "this event is dated Fall 1901, before the game "
     "starts (Winter 1901)"),
])
def test_an_event_that_cannot_happen_is_an_error_with_its_line(
        tmp_path: Path, event: str, why: str) -> None:
    path = _write(tmp_path, event)
    with pytest.raises(VariantFileErrors) as caught:
        read_variant(path)
    [problem] = caught.value.problems
    assert problem.line == _lines(path, "[[events]]")[0]
    assert problem.message.startswith(why), problem.message


def test_a_centre_on_a_mountain_is_refused_until_it_opens(tmp_path: Path) -> None:
    mountain = _write(tmp_path, _event("W1901", "new centre", "Tyr"))
    mountain.write_text(mountain.read_text().replace('victory = 2', 'victory = 2\nterrain = '
                                                     '{ Tyr = "mountain" }'))
    [message] = _errors(mountain)
    assert message.startswith("new centre Tyr cannot happen: Tyrol is a mountain (impassable) "
                              "in Winter 1901")
    opened = _write(tmp_path, _event("W1901", "passable", "Tyr"),
                    _event("W1901", "new centre", "Tyr"))
    opened.write_text(opened.read_text().replace('victory = 2', 'victory = 2\nterrain = '
                                                 '{ Tyr = "mountain" }'))
    v = read_variant(opened).variant
    assert "Tyr" in v.map_for(advance(v, v.start_state(), []).state).centres


def test_the_months_calendar_s_when_is_explained_with_months(tmp_path: Path) -> None:
    path = _write(tmp_path, _event("W1914", "dry", "LAK"), start="July 1914")
    path.write_text(path.read_text().replace('victory = 2', 'victory = 2\ncalendar = "months"'))
    [message] = _errors(path)
    assert message == ('when must be a month and a year, e.g. when = "December 1914" or when '
                       '= "Jan1915" (January 1915), not \'W1914\'')
    path.write_text(path.read_text().replace('"W1914"', '"December 1914"'))
    [event] = read_variant(path).variant.scheduled
    assert (event.season, event.year, event.kind) == ("December", 1914, "land")
