"""The order language on the standard map: every notation players use, read for each phase,
the DATC and MILA corpora, and the fast table runner against Lark's own parser."""

from __future__ import annotations

import logging
import time
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lark import Lark
from lark.exceptions import UnexpectedInput, VisitError

from gm.engine.errors import ErrorKind, OrderError
from gm.engine.geo import Location
from gm.engine.map import GameMap
from gm.engine.orders import (
    AnyOrder,
    Build,
    Convoy,
    Disband,
    Hold,
    Move,
    Remove,
    Retreat,
    SupportHold,
    SupportMove,
    UnitSpec,
    Waive,
)
from gm.engine.phase import PhaseType
from gm.engine.units import UnitType
from gm.notation import parse_location, parse_order, parse_unit, resolve_province
from gm.notation.lalr import NoParse
from gm.notation.names import protect_hyphens
from gm.notation.parser import GRAMMAR_FILE, START_SYMBOLS, order_lark, table_parser
from gm.notation.transformer import OrderBuilder, Rejected, StrayWord
from gm.variants.maps import standard_map

DATC = sorted((Path(__file__).resolve().parent.parent / "scenarios" / "datc").glob("*.txt"))
MILA = Path(__file__).parent.parent / "data" / "differential" / "random_games.txt"


@cache
def gmap() -> GameMap:
    return standard_map()


def order(text: str, phase: PhaseType | None = None) -> AnyOrder:
    parsed = parse_order(text, gmap(), phase)
    assert not isinstance(parsed, OrderError), parsed.message
    return parsed


A, F, AF = UnitType.ARMY, UnitType.FLEET, UnitType.ARMY_FLEET


def unit(kind: UnitType | None, province: str, coast: str | None = None) -> UnitSpec:
    return UnitSpec(kind, Location(province, coast))


# Each notation, and the canonical text it means (str of the parsed order).
NOTATIONS = [
    ("A Par-Bur", "A Par - Bur"),
    ("A Par - Bur", "A Par - Bur"),
    ("A(Par)-Bur", "A Par - Bur"),
    ("Army Paris -> Burgundy", "A Par - Bur"),
    ("army paris => burgundy", "A Par - Bur"),
    ("A Par – Bur", "A Par - Bur"),
    ("A Par move to Bur", "A Par - Bur"),
    ("A Par moves to Bur", "A Par - Bur"),
    ("A Par to Bur", "A Par - Bur"),
    ("A Par H", "A Par H"),
    ("A Par holds", "A Par H"),
    ("A Par hold", "A Par H"),
    ("A ven HOLD", "A Ven H"),
    ("Par H", "Par H"),
    ("A Par S A Mar-Bur", "A Par S A Mar - Bur"),
    ("A Par supports Mar", "A Par S Mar"),
    ("A Par S Mar", "A Par S Mar"),
    ("A Par S A Mar H", "A Par S A Mar"),
    ("A Par supports A Mar - Bur", "A Par S A Mar - Bur"),
    ("A wal SUPPORTS F lon-yor", "A Wal S F Lon - Yor"),
    ("F ENG C A Lon-Bre", "F ENG C A Lon - Bre"),
    ("F ENG convoys A Lon to Bre", "F ENG C A Lon - Bre"),
    ("F ENG C Lon-Bre", "F ENG C Lon - Bre"),
    ("F nth Convoys A lon-bel", "F NTH C A Lon - Bel"),
    ("A Lon-Bre via convoy", "A Lon - Bre via convoy"),
    ("A Lon - Bre by convoy", "A Lon - Bre via convoy"),
    ("A Lon-ENG-Bre", "A Lon - Bre via convoy"),
    ("A Lon - NTH - Nwy", "A Lon - Nwy via convoy"),
    ("F StP/nc H", "F StP/nc H"),
    ("F StP(nc) H", "F StP/nc H"),
    ("F Spa(sc) H", "F Spa/sc H"),
    ("F Spa nc H", "F Spa/nc H"),
    ("F Spa/NC H", "F Spa/nc H"),
    ("F StP north coast H", "F StP/nc H"),
    ("F Bul east coast H", "F Bul/ec H"),
    ("F StP (north coast) H", "F StP/nc H"),
    ("F StP n.c. - BAR", "F StP/nc - BAR"),
    ("F StP/N.C. H", "F StP/nc H"),
    ("F mid - spa/nc", "F MAO - Spa/nc"),
    ("F gol supports f wes-spa/sc", "F LYO S F WMS - Spa/sc"),
    ("F nat - nrg", "F NAO - NWG"),
    ("F aeg - bul/ec", "F AEG - Bul/ec"),
    ("F STP/sc - BOT", "F StP/sc - BOT"),
    ("A BUD - GAL", "A Bud - Gal"),
    ("F English Channel - Mid-Atlantic Ocean", "F ENG - MAO"),
    ("F Mid-Atlantic Ocean-Spa/nc", "F MAO - Spa/nc"),
    ("F North Atlantic Ocean - Norwegian Sea", "F NAO - NWG"),
    ("F Gulf of Lyon - Spa/sc", "F LYO - Spa/sc"),
    ("A St. Petersburg - Moscow", "A StP - Mos"),
    ("A St Petersburg - Moscow", "A StP - Mos"),
    ("A St.Petersburg - Moscow", "A StP - Mos"),
    ("A/F ENG - MAO", "A/F ENG - MAO"),
    ("A/F(ENG) - MAO", "A/F ENG - MAO"),
    ("A Par H.", "A Par H"),
    ("A Par - Bur.", "A Par - Bur"),
    ("  A Par - Bur ;", "A Par - Bur"),
    ("A Bur R Par", "A Bur R Par"),
    ("A Bur retreats to Par", "A Bur R Par"),
    ("A Bur disband", "A Bur D"),
    ("A Bur D", "A Bur D"),
    ("Disband A Bur", "A Bur D"),
    ("Build A Par", "Build A Par"),
    ("B F StP/nc", "Build F StP/nc"),
    ("build fleet St. Petersburg north coast", "Build F StP/nc"),
    ("Build F Bre.", "Build F Bre"),
    ("Remove A Mos", "Remove A Mos"),
    ("Remove gol", "Remove LYO"),
    ("Waive", "Waive"),
]


@pytest.mark.parametrize(("text", "canonical"), NOTATIONS)
def test_notation_reads_as_its_canonical_text(text: str, canonical: str) -> None:
    assert str(order(text)) == canonical


def test_values_of_the_main_forms() -> None:
    assert order("A Par-Bur") == Move(unit(A, "Par"), Location("Bur"))
    assert order("Par H") == Hold(unit(None, "Par"))
    assert order("A Par S Mar") == SupportHold(unit(A, "Par"), unit(None, "Mar"))
    assert order("A Par S A Mar-Bur") == SupportMove(
        unit(A, "Par"), unit(A, "Mar"), Location("Bur")
    )
    assert order("F ENG C Lon-Bre") == Convoy(unit(F, "ENG"), unit(None, "Lon"), Location("Bre"))
    assert order("A Lon-ENG-Bre") == Move(unit(A, "Lon"), Location("Bre"), via_convoy=True)
    assert order("A/F ENG - MAO") == Move(unit(AF, "ENG"), Location("MAO"))
    assert order("B F StP/nc") == Build(unit(F, "StP", "nc"))
    assert order("Waive") == Waive()


def test_a_missing_coast_is_not_guessed() -> None:
    assert order("F mid - spa") == Move(unit(F, "MAO"), Location("Spa"))
    assert order("F StP H") == Hold(unit(F, "StP"))


def test_a_coast_named_for_a_province_with_one_coast_is_dropped() -> None:
    assert order("F Bre/nc H") == Hold(unit(F, "Bre"))


def test_case_does_not_matter() -> None:
    assert order("a PAR s a MAR - bur") == order("A Par S A Mar - Bur")
    assert order("f stp/SC - bot") == order("F StP/sc - BOT")


# -- phases ------------------------------------------------------------------------------------
def test_retreat_phase_reads_moves_as_retreats() -> None:
    retreat = Retreat(unit(A, "Bur"), Location("Par"))
    assert order("A Bur-Par", PhaseType.RETREAT) == retreat
    assert order("A Bur R Par", PhaseType.RETREAT) == retreat
    assert order("A Bur retreats to Par", PhaseType.RETREAT) == retreat
    assert order("A Bur D", PhaseType.RETREAT) == Disband(unit(A, "Bur"))
    assert order("A Bur disband", PhaseType.RETREAT) == Disband(unit(A, "Bur"))
    assert order("Remove A Bur", PhaseType.RETREAT) == Disband(unit(A, "Bur"))


def test_adjustment_phase_reads_disbands_as_removals() -> None:
    remove = Remove(unit(A, "Mos"))
    assert order("Remove A Mos", PhaseType.ADJUSTMENT) == remove
    assert order("A Mos D", PhaseType.ADJUSTMENT) == remove
    assert order("A Mos disband", PhaseType.ADJUSTMENT) == remove
    assert order("Build A Par", PhaseType.ADJUSTMENT) == Build(unit(A, "Par"))
    assert order("Waive", PhaseType.ADJUSTMENT) == Waive()


def test_without_a_phase_every_form_keeps_its_natural_reading() -> None:
    assert order("A Bur-Par") == Move(unit(A, "Bur"), Location("Par"))
    assert order("A Bur R Par") == Retreat(unit(A, "Bur"), Location("Par"))
    assert order("A Bur D") == Disband(unit(A, "Bur"))
    assert order("Remove A Mos") == Remove(unit(A, "Mos"))


def test_movement_phase_keeps_support_and_convoy_forms_in_retreat_phase_too() -> None:
    # DATC 6.H.1: a support given in a retreat phase is read, and judged illegal elsewhere.
    assert order("A ser S F tri-alb", PhaseType.RETREAT) == SupportMove(
        unit(A, "Ser"), unit(F, "Tri"), Location("Alb")
    )


# -- names -------------------------------------------------------------------------------------
def test_every_name_of_the_map_reads_in_an_order() -> None:
    m = gmap()
    for name, abbr in m.names.items():
        for written in (name, name.upper(), name.title()):
            assert order(f"A {written} H") == Hold(unit(A, abbr)), written
            source = "Mos" if abbr == "Bre" else "Bre"
            assert order(f"F {source} - {written}") == Move(unit(F, source), Location(abbr))
            assert parse_location(written, m) == Location(abbr)
            assert resolve_province(written, m) == abbr


def test_every_location_reads_back() -> None:
    m = gmap()
    for province in m.provinces:
        coasts = [Location(province, c) for c in m.coasts.get(province, ())]
        for loc in [Location(province), *coasts]:
            assert parse_location(str(loc), m) == loc


def test_parse_unit() -> None:
    m = gmap()
    assert parse_unit("A Par", m) == unit(A, "Par")
    assert parse_unit("F StP/sc", m) == unit(F, "StP", "sc")
    assert parse_unit("fleet St. Petersburg (south coast)", m) == unit(F, "StP", "sc")
    assert parse_unit("A/F ENG", m) == unit(AF, "ENG")
    assert parse_unit("Par", m) == unit(None, "Par")
    assert isinstance(parse_unit("A Par H", m), OrderError)


def test_resolve_province() -> None:
    m = gmap()
    assert resolve_province("Gulf of Lyon", m) == "LYO"
    assert resolve_province("gol", m) == "LYO"
    assert resolve_province("  english   channel ", m) == "ENG"
    assert resolve_province("ST. PETERSBURG", m) == "StP"
    assert resolve_province("Mid-Atlantic Ocean", m) == "MAO"
    error = resolve_province("Burgndy", m)
    assert isinstance(error, OrderError)
    assert error.kind is ErrorKind.UNKNOWN_PROVINCE
    assert error.suggestions[0] == "Bur (Burgundy)"


# -- reference corpora -------------------------------------------------------------------------
def corpus_orders(path: Path) -> list[tuple[PhaseType, str]]:
    """(phase, order) for every ORDERS line; `Power:` and `# comments` cut as the scenario
    reader cuts them."""
    found: list[tuple[PhaseType, str]] = []
    block, phase = "", PhaseType.MOVEMENT
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].rstrip()
        if not line.strip():
            continue
        if not raw[0].isspace():
            block = line.split()[0].upper()
            if block == "PRESTATE_SETPHASE":
                phase = PhaseType(line.rsplit(",", 1)[1].strip())
            continue
        if block == "ORDERS":
            found.append((phase, line.split(":", 1)[1].strip()))
    return found


# Orders of the DATC that the text alone shows to be impossible (6.A.4, 6.A.5, 6.A.8, 6.D.34).
DATC_ILLEGAL_AS_WRITTEN = {
    "F Kie - Kie",
    "A Yor - Yor",
    "F NTH convoys A Yor - Yor",
    "A Lvp supports A Yor - Yor",
    "F Tri supports F Tri",
    "A Pru S A Lvn - Pru",
}


def test_every_datc_order_reads() -> None:
    lines = [line for path in DATC for line in corpus_orders(path)]
    assert len(lines) > 600
    for phase, text in lines:
        parsed = parse_order(text, gmap(), phase)
        if text in DATC_ILLEGAL_AS_WRITTEN:
            assert isinstance(parsed, OrderError) and parsed.kind is ErrorKind.ILLEGAL, text
        else:
            assert not isinstance(parsed, OrderError), f"{text}: {parsed}"


def test_every_mila_order_reads() -> None:
    lines = corpus_orders(MILA)
    assert len(lines) > 4000
    for phase, text in lines:
        parsed = parse_order(text, gmap(), phase)
        assert not isinstance(parsed, OrderError), f"{text}: {parsed}"
        # Upper-case MILA text reads back from its canonical form.
        assert parse_order(str(parsed), gmap(), phase) == parsed


def test_parsing_is_fast() -> None:
    """Well under 0.2 ms of CPU per order (the MILA corpus; CPU time, so a busy machine does
    not make the test fail; the bound is loose, the measured figure is far lower)."""
    texts = [text for _, text in corpus_orders(MILA)]
    m = gmap()
    parse_order(texts[0], m)
    best = float("inf")
    for _ in range(3):
        start = time.process_time()
        for text in texts:
            parse_order(text, m)
        best = min(best, (time.process_time() - start) / len(texts))
    assert best < 0.0004


# -- the table runner agrees with Lark ---------------------------------------------------------
def outcome_fast(text: str, start: str) -> tuple[object, ...]:
    m = gmap()
    prepared = protect_hyphens(text, m)
    try:
        return ("value", table_parser().parse(prepared, start, OrderBuilder(m, text)))
    except NoParse:
        return ("unreadable",)
    except (Rejected, StrayWord) as stop:
        return ("stopped", type(stop), str(stop))


def outcome_lark(text: str, start: str) -> tuple[object, ...]:
    m = gmap()
    prepared = protect_hyphens(text, m)
    try:
        tree = order_lark().parse(prepared, start=start)
    except UnexpectedInput:
        return ("unreadable",)
    try:
        return ("value", OrderBuilder(m, text).transform(tree))
    except VisitError as error:
        return ("stopped", type(error.orig_exc), str(error.orig_exc))


def assert_same_reading(text: str, start: str = "order") -> None:
    fast, lark = outcome_fast(text, start), outcome_lark(text, start)
    if fast[0] == "stopped" and lark[0] == "unreadable":
        return  # the runner builds while it parses: a bad name can stop it before a bad word
    assert fast == lark, text


VOCABULARY = [
    "A", "F", "a/f", "Army", "fleet", "Par", "Bur", "mar", "StP", "spa", "nc", "sc", "north",
    "coast", "St.", "Petersburg", "English", "Channel", "Mid-Atlantic", "Ocean", "gulf", "of",
    "lyon", "-", "->", "–", "to", "move", "m", "S", "supports", "C", "convoys", "H", "holds",
    "R", "retreats", "D", "disband", "B", "Build", "Remove", "waive", "via", "by", "convoy",
    "/", "(", ")", ".", ",", "x", "@", "2", "Burgndy", "n.c.", "ENG", "Bre", "Lon",
]  # fmt: skip


@settings(max_examples=600, deadline=None)
@given(st.lists(st.sampled_from(VOCABULARY), max_size=9), st.booleans())
def test_table_runner_agrees_with_lark_on_word_salad(words: list[str], tight: bool) -> None:
    # `tight`: no space before or after punctuation (`A(Par)-Bur`), else a space everywhere
    text = "".join(w if w in "-/()., " else f" {w}" for w in words) if tight else " ".join(words)
    for start in ("order", "unit", "location"):
        assert_same_reading(text, start)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="AFSCHRDBaf/()-.>,;:!_ 'Pabcdeilmnorstuv\t\n", max_size=24))
def test_table_runner_agrees_with_lark_on_any_text(text: str) -> None:
    assert_same_reading(text)


def test_table_runner_agrees_with_lark_on_the_corpora() -> None:
    for path in (*DATC, MILA):
        for _, text in corpus_orders(path):
            assert_same_reading(text)
    for text, _ in NOTATIONS:
        assert_same_reading(text)


def test_every_rule_of_the_grammar_has_a_builder_method() -> None:
    rules = table_parser().callbacks
    assert {"order", "move", "hold", "unit", "location", "name"} <= rules
    assert all(callable(getattr(OrderBuilder, name, None)) for name in rules)


def test_grammar_has_no_lalr_conflicts(caplog: pytest.LogCaptureFixture) -> None:
    # Lark settles a shift/reduce conflict silently (as a shift) and only logs it; the
    # grammar must have none, so that what it reads is what it says.
    caplog.set_level(logging.DEBUG, logger="lark")
    Lark(GRAMMAR_FILE.read_text(encoding="utf-8"), parser="lalr", start=list(START_SYMBOLS))
    assert not [r for r in caplog.records if "conflict" in r.getMessage().lower()]
    # and the check can fail: a grammar with a conflict is logged
    Lark('start: x "b"?\nx: "a" "b"?\n', parser="lalr")
    assert [r for r in caplog.records if "conflict" in r.getMessage().lower()]
