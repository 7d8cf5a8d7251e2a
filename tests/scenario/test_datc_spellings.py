"""The DATC cases written the ways players write orders: full province names, aliases, words
for the order keywords, any case. Every case must adjudicate exactly as in its plain spelling."""

from __future__ import annotations

import random
import re
from collections.abc import Callable

import pytest

from gm.engine.frozen import replace
from gm.engine.map import GameMap
from gm.scenario.format import Case, Line
from gm.scenario.runner import run_case
from gm.variants.maps import standard_map
from tests.scenario.test_datc import CASES

_COAST_WORDS = {"nc": "north coast", "sc": "south coast", "ec": "east coast", "wc": "west coast"}
_KEYWORDS = {
    "-": ("->", "to", "-", "moves to", "m"),
    "S": ("supports", "s", "Support"),
    "C": ("convoys", "c", "Convoy"),
    "H": ("holds", "h", "Hold", "stands"),
    "R": ("retreats to", "r", "retreat"),
    "D": ("disbands", "d", "Disband"),
}
_UNIT_WORDS = {"A": ("Army", "a", "A"), "F": ("Fleet", "f", "F")}
_PLACE = re.compile(r"^\(?([A-Za-z]+)(?:/([a-z]{2}))?\)?$")

Respell = Callable[[str], str]


def _place(gmap: GameMap, token: str, pick: Callable[[GameMap, str], str]) -> str | None:
    match = _PLACE.match(token)
    if match is None or match.group(1) not in gmap.provinces:
        return None
    name = pick(gmap, match.group(1))
    coast = match.group(2)
    if coast is None:
        return name
    return f"{name} ({_COAST_WORDS.get(coast, coast)})"


def _full_name(gmap: GameMap, abbr: str) -> str:
    return gmap.provinces[abbr].name


def _alias_or_name(rng: random.Random) -> Callable[[GameMap, str], str]:
    def pick(gmap: GameMap, abbr: str) -> str:
        province = gmap.provinces[abbr]
        choices = [abbr, province.name, *province.aliases]
        return rng.choice(choices)

    return pick


def _respell(order: str, gmap: GameMap, pick: Callable[[GameMap, str], str],
             rng: random.Random | None) -> str:
    out = []
    for n, token in enumerate(order.split()):
        place = _place(gmap, token, pick)
        if place is not None and (n > 0 or token not in _UNIT_WORDS):
            out.append(place)
        elif token in _UNIT_WORDS:
            out.append(rng.choice(_UNIT_WORDS[token]) if rng else _UNIT_WORDS[token][0])
        elif token in _KEYWORDS:
            out.append(rng.choice(_KEYWORDS[token]) if rng else _KEYWORDS[token][0])
        else:
            out.append(token)
    return " ".join(out)


def _with_orders(case: Case, respell: Respell) -> Case:
    orders = case.block("ORDERS")
    if orders is None:
        return case
    lines = []
    for line in orders:
        power, sep, order = line.text.partition(":")
        text = f"{power}: {respell(order.strip())}" if sep else line.text
        lines.append(Line(line.number, text))
    return replace(case, blocks={**case.blocks, "ORDERS": lines})


def _outcomes(case: Case) -> list[tuple[str, str]]:
    result = run_case(case)
    assert result.passed, f"{case.name}: {result.differences or result.error}"
    return [(r.power, r.outcome.value) for r in result.results]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_full_names_and_words(case: Case) -> None:
    gmap = standard_map()
    spelled = _with_orders(case, lambda o: _respell(o, gmap, _full_name, None))
    assert _outcomes(spelled) == _outcomes(case)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_aliases_keywords_and_case_at_random(case: Case) -> None:
    gmap = standard_map()
    rng = random.Random(case.name)

    def respell(order: str) -> str:
        text = _respell(order, gmap, _alias_or_name(rng), rng)
        return rng.choice((text, text.lower(), text.upper()))

    spelled = _with_orders(case, respell)
    assert _outcomes(spelled) == _outcomes(case)
