"""Scenario files: the reader (keywords, blocks, errors naming file and line), the runner
(every PRESTATE/POSTSTATE block), and the `gm scenario` command."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from gm.cli import main as gm_main
from gm.engine.frozen import replace
from gm.engine.geo import Terrain
from gm.engine.state import GameState
from gm.scenario.format import BLOCKS, Line, ScenarioSyntaxError, read_file, read_text
from gm.scenario.runner import run_case
from gm.variants import Hooks, HookStep, ScheduledEvent, Variant, get_variant

FULL = """\
# a comment line
variant_all Standard

CASE first case   # trailing comment
PRESTATE_SETPHASE Spring 1901, Movement
prestate
\tEngland: F nth   # indented, commented
  England: A lvp
ORDERS
\tEngland: F nth-pic
POSTSTATE_SAME
END

Case second
Variant Deluge II
PRESTATE_SETPHASE W1900A
POSTSTATE_SETPHASE Spring 1901, Movement
PRESTATE_TERRAIN
\tHol: sea
PRESTATE_BORDERS
\tcut Mun-Ber
PRESTATE_HOMES
\tGermany: Ber Kie
PRESTATE_STATE
\tice-turns A Bar: 1
PRESTATE_SUPPLYCENTERS
\tPar Bre Mar
\tBel
PRESTATE_SUPPLYCENTER_OWNERS
\tFrance: A Par
PRESTATE
PRESTATE_DISLODGED
\tItaly: A Vie
PRESTATE_RESULTS
\tSUCCESS: Austria: A tri-vie
ORDERS
POSTSTATE
\tFrance: A Par
POSTSTATE_DISLODGED
POSTSTATE_SUPPLYCENTER_OWNERS
\tFrance: Par
POSTSTATE_SUPPLYCENTERS
\tPar
POSTSTATE_TERRAIN
\tHol: land
POSTSTATE_BORDERS
\topen Mun-Ber
POSTSTATE_HOMES
\tFrance: Par
POSTSTATE_STATE
\tx: y
POSTSTATE_WINNERS
\tnone
END
"""


def test_reads_every_keyword_and_block() -> None:
    first, second = read_text(FULL, "full.txt")
    assert first.name == "first case"
    assert first.variant == "Standard"
    assert first.line == 4 and first.where == "full.txt:4"
    assert first.setphase == Line(5, "Spring 1901, Movement")
    assert first.block("PRESTATE") == [Line(7, "England: F nth"), Line(8, "England: A lvp")]
    assert first.block("ORDERS") == [Line(10, "England: F nth-pic")]
    assert first.poststate_same
    assert first.block("POSTSTATE") is None

    assert second.variant == "Deluge II"  # VARIANT overrides VARIANT_ALL for this case only
    assert second.setphase is not None and second.setphase.text == "W1900A"
    assert second.post_setphase is not None
    assert second.post_setphase.text == "Spring 1901, Movement"
    assert set(second.blocks) == set(BLOCKS)
    assert second.block("ORDERS") == []  # present but empty
    assert second.block("POSTSTATE_DISLODGED") == []
    assert second.block("PRESTATE_SUPPLYCENTERS") == [Line(27, "Par Bre Mar"), Line(28, "Bel")]
    assert second.block("PRESTATE_STATE") == [Line(25, "ice-turns A Bar: 1")]


def test_variant_all_is_the_default_for_later_cases_and_standard_before() -> None:
    text = "CASE a\nEND\nVARIANT_ALL sahara\nCASE b\nEND\n"
    a, b = read_text(text)
    assert (a.variant, b.variant) == ("standard", "sahara")


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("CASE a\nPRESTATE_FOO\nEND\n", 2, "unknown keyword 'PRESTATE_FOO'"),
        ("CASE a\nORDERS\nORDRES\nEND\n", 3, "unknown keyword 'ORDRES' (did you mean ORDERS?)"),
        ("CASE a\nPOSTSTATE_DISLODGE\n\tEngland: A Lvp\nEND\n", 2, "unknown keyword"),
        ("CASE a\nPRESTATE\nEngland: A Lvp\nCASE b\nEND\n", 4, "before the END of case 'a'"),
        ("\n\nCASE a\nPRESTATE\n", 3, "case 'a' has no END"),
        ("PRESTATE\n", 1, "outside a case"),
        ("CASE a\nEngland: A Lvp\nEND\n", 2, "neither a keyword nor inside a block"),
        ("CASE\nEND\n", 1, "CASE needs a value"),
        ("CASE a\nEND now\n", 2, "END takes nothing after it"),
        ("CASE a\nPOSTSTATE\nPOSTSTATE_SAME\nEND\n", 4, "both POSTSTATE and POSTSTATE_SAME"),
        ("CASE a\nVARIANT_ALL standard\nEND\n", 2, "VARIANT_ALL inside a case"),
    ],
)
def test_errors_name_file_and_line(text: str, line: int, message: str) -> None:
    with pytest.raises(ScenarioSyntaxError) as info:
        read_text(text, "bad.txt")
    assert info.value.line == line
    assert str(info.value).startswith(f"bad.txt:{line}: ")
    assert message in str(info.value)


def test_read_file_uses_the_path_in_messages(tmp_path: Path) -> None:
    path = tmp_path / "cases.txt"
    path.write_text("CASE x\nORDERS\n\tEngland: F NTH H\nPOSTSTATE_SAME\nEND\n")
    (case,) = read_file(path)
    assert case.path == str(path)
    path.write_text("CASE x\nORDRES\nEND\n")
    with pytest.raises(ScenarioSyntaxError, match=rf"{path}:2: unknown keyword 'ORDRES'"):
        read_file(path)


def test_the_reference_files_are_readable() -> None:
    files = (Path(__file__).parent.parent / "scenarios" / "datc").glob("*.txt")
    datc = [case for path in files for case in read_file(path)]
    assert len(datc) == 167


def test_the_differential_corpus_is_readable() -> None:
    differential = read_file(
        Path(__file__).parent.parent / "data" / "differential" / "random_games.txt")
    assert len(differential) == 305


# -- the runner and `gm scenario` ----------------------------------------------------------------

STATE_CASE = """\
CASE every state block
PRESTATE_SETPHASE F1902M
PRESTATE_TERRAIN
\tSwi: land
PRESTATE_BORDERS
\tcut Ber-Mun
PRESTATE_SUPPLYCENTERS
\tPar Bre Mar Swi Mun Ber
PRESTATE_HOMES
\tFrance: Par Swi
PRESTATE_STATE
\tnote: kept
PRESTATE
\tFrance: A Mar
\tGermany: A Mun
PRESTATE_SUPPLYCENTER_OWNERS
\tFrance: Par
\tGermany: A Mun
\tGermany: Ber
ORDERS
\tFrance: A Mar - Swi
\tGermany: A Mun - Ber
POSTSTATE
\tFrance: A Swi
\tGermany: A Mun
POSTSTATE_TERRAIN
\tSwi: land
\tNTH: sea
POSTSTATE_BORDERS
\tcut Mun-Ber
\topen Mun-Boh
POSTSTATE_SUPPLYCENTERS
\tPar Bre Mar Swi Mun Ber
POSTSTATE_SUPPLYCENTER_OWNERS
\tFrance: Par
\tFrance: Swi
\tGermany: Mun
\tGermany: Ber
POSTSTATE_HOMES
\tFrance: Par Swi
POSTSTATE_STATE
\tnote: kept
POSTSTATE_SETPHASE Winter 1902, Adjustment
POSTSTATE_WINNERS
\tnone
END
"""


def test_state_blocks_build_the_position_and_are_compared() -> None:
    (case,) = read_text(STATE_CASE, "state.txt")
    result = run_case(case)
    assert result.error is None
    assert result.differences == ()
    by_text = {r.text: r for r in result.results}
    assert by_text["A Mar - Swi"].outcome.word == "succeeds"  # Swi opened by PRESTATE_TERRAIN
    assert by_text["A Mun - Ber"].outcome.word == "illegal"  # the border is cut
    assert "France takes Swi." in result.events  # Swi is a centre by PRESTATE_SUPPLYCENTERS


@pytest.mark.parametrize(
    ("wrong", "right", "block"),
    [
        ("\tFrance: A Swi\n", "\tFrance: A Mar\n", "POSTSTATE"),
        ("\tSwi: land\n\tNTH", "\tSwi: mountain\n\tNTH", "POSTSTATE_TERRAIN"),
        ("\topen Mun-Boh", "\tcut Mun-Boh", "POSTSTATE_BORDERS"),
        ("Winter 1902, Adjustment", "Spring 1903, Movement", "POSTSTATE_SETPHASE"),
        ("\tFrance: Swi\n", "\tGermany: Swi\n", "POSTSTATE_SUPPLYCENTER_OWNERS"),
        ("\tPar Bre Mar Swi Mun Ber\nPOSTSTATE_SUPPLYCENTER_OWNERS",
         "\tPar Bre Mar Mun Ber\nPOSTSTATE_SUPPLYCENTER_OWNERS", "POSTSTATE_SUPPLYCENTERS"),
        ("POSTSTATE_HOMES\n\tFrance: Par Swi", "POSTSTATE_HOMES\n\tFrance: Par", "POSTSTATE_HOMES"),
        ("POSTSTATE_STATE\n\tnote: kept", "POSTSTATE_STATE\n\tnote: gone", "POSTSTATE_STATE"),
        ("\tnone\n", "\tFrance\n", "POSTSTATE_WINNERS"),
    ],
)
def test_each_poststate_block_detects_a_difference(wrong: str, right: str, block: str) -> None:
    assert wrong in STATE_CASE
    (case,) = read_text(STATE_CASE.replace(wrong, right, 1), "state.txt")
    result = run_case(case)
    assert not result.passed
    assert [d.block for d in result.differences] == [block]


def test_retreat_case_reads_attackers_and_standoffs_from_prestate_results() -> None:
    text = """\
CASE retreat
PRESTATE_SETPHASE Spring 1901, Retreat
PRESTATE
\tAustria: A Vie
\tGermany: A Mun
\tGermany: A Sil
PRESTATE_DISLODGED
\tItaly: A Vie
PRESTATE_RESULTS
\tSUCCESS: Austria: A Tri - Vie
\tFAILURE: Germany: A Mun - Boh
\tFAILURE: Germany: A Sil - Boh
\tFAILURE: Italy: A Vie H
ORDERS
\tItaly: A Vie - %s
POSTSTATE
\tAustria: A Vie
\tGermany: A Mun
\tGermany: A Sil
%sEND
"""
    # Boh was left empty by a standoff; Tri is where the attacker came from; Gal is free
    for dest, survives in [("Boh", False), ("Tri", False), ("Gal", True)]:
        extra = f"\tItaly: A {dest}\n" if survives else ""
        (case,) = read_text(text % (dest, extra))
        result = run_case(case)
        assert result.passed, (dest, result.differences)


def test_an_order_for_an_unknown_power_is_void_not_fatal() -> None:
    (case,) = read_text(
        "CASE typo\nPRESTATE\n\tGermany: A Wal\n\tGermany: F Lon\n\tEngland: A Yor\n"
        "ORDERS\n\tPrussia: A Wal S F Lon - Yor\n\tGermany: F Lon - Yor\n"
        "POSTSTATE_SAME\nEND\n"
    )
    result = run_case(case)
    assert result.passed  # without the support, F Lon bounces off A Yor
    void = [r for r in result.results if r.power == "Prussia"]
    assert len(void) == 1 and "no power called 'Prussia'" in void[0].reason


def test_a_power_misspelt_by_a_letter_is_read_as_that_power() -> None:
    # DATC 6.A.5 as some transcriptions write it: `Germnay`, whose result reads it as German
    (case,) = read_text(
        "CASE typo\nPRESTATE\n\tGermany: A Wal\n\tGermany: F Lon\n\tEngland: A Yor\n"
        "ORDERS\n\tGermnay: A Wal S F Lon - Yor\n\tGermany: F Lon - Yor\n"
        "POSTSTATE\n\tGermany: A Wal\n\tGermany: F Yor\nPOSTSTATE_DISLODGED\n\tEngland: A Yor\n"
        "END\n"
    )
    result = run_case(case)
    assert result.passed, result.differences
    assert [r.power for r in result.results if "Wal" in r.text] == ["Germany"]


def test_a_bad_position_fails_the_case_with_file_and_line() -> None:
    (case,) = read_text("CASE bad\nPRESTATE\n\tFrance: A Xyz\nPOSTSTATE_SAME\nEND\n", "bad.txt")
    result = run_case(case)
    assert not result.passed
    assert result.error is not None and result.error.startswith("bad.txt:3: ")
    (case,) = read_text("VARIANT_ALL Deluge III\nCASE v\nPOSTSTATE_SAME\nEND\n", "v.txt")
    error = run_case(case).error
    assert error is not None and error.startswith("v.txt:1: ") and "Deluge III" in error


TWO_CASES = """\
CASE holds
PRESTATE
\tEngland: F NTH
ORDERS
\tEngland: F NTH - Pic
POSTSTATE_SAME
END
CASE wrongly expected
PRESTATE
\tEngland: F NTH
ORDERS
\tEngland: F NTH - Hol
POSTSTATE
\tEngland: F NTH
END
"""


def test_cli_reports_failures_and_counts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "two.txt"
    path.write_text(TWO_CASES)
    assert gm_main(["scenario", str(path)]) == 1
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[-1] == "1 passed, 1 failed"
    assert lines[0] == f"FAIL wrongly expected  ({path}:8)"
    assert "    expected, not found: England: F NTH" in lines
    assert "    found, not expected: England: F Hol" in lines
    assert "    England: F NTH - Hol: succeeds (moves to Hol)" in lines
    assert "holds" not in out.split("FAIL")[0]  # passing cases are quiet

    assert gm_main(["scenario", "-v", "-k", "HOLDS", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("PASS holds")
    assert out.splitlines()[-1] == "1 passed, 0 failed"


def test_cli_unreadable_file_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_text("CASE x\nPRESTATE\n\tEngland: F NTH\nPOSTSTATE_SAMEE\nEND\n")
    assert gm_main(["scenario", str(bad)]) == 2
    captured = capsys.readouterr()
    assert f"{bad}:4: unknown keyword 'POSTSTATE_SAMEE'" in captured.err
    assert captured.out.splitlines()[-1] == "0 passed, 0 failed"
    assert gm_main(["scenario", str(tmp_path / "missing.txt")]) == 2
    assert "missing.txt" in capsys.readouterr().err


def test_the_format_is_printed_as_installed_and_files_are_asked_for(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert gm_main(["scenario", "--format"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("# Scenario files: the adjudication test format")
    assert "PRESTATE_SETPHASE" in text and "POSTSTATE_SAME" in text
    assert gm_main(["scenario"]) == 2
    assert "gm scenario --format" in capsys.readouterr().err


def test_the_command_process_writes_everything_and_exits_with_the_status(
    tmp_path: Path,
) -> None:
    """`gm scenario FILE` as its own process ends without the interpreter's tear-down (see
    gm.cli._plain_scenario): its output must still arrive whole, and its exit status."""
    path = tmp_path / "two.txt"
    path.write_text(TWO_CASES)
    command = [sys.executable, "-m", "gm", "scenario"]
    done = subprocess.run([*command, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 1, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"FAIL wrongly expected  ({path}:8)"
    assert lines[-1] == "1 passed, 1 failed"
    missing = subprocess.run([*command, str(tmp_path / "missing.txt")], capture_output=True,
                             text=True, check=False)
    assert missing.returncode == 2
    assert "missing.txt" in missing.stderr
    assert missing.stdout.splitlines()[-1] == "0 passed, 0 failed"


def test_the_map_is_in_its_state_for_the_phase() -> None:
    # A variant whose table opens Switzerland after the Winter 1901 adjustments (in the manner
    # of Deluge II rule 6): a Spring 1902 case starts with Swi open unless PRESTATE_TERRAIN
    # says otherwise; a Fall 1901 case starts with it closed.
    def open_spaces(variant: Variant, state: GameState, due: Sequence[ScheduledEvent]) -> HookStep:
        terrain = dict(state.terrain)
        for event in due:
            terrain |= {p: Terrain.LAND for p in event.provinces}
        return HookStep(state.evolve(terrain=terrain))

    variant = replace(
        get_variant("standard"),
        scheduled=(ScheduledEvent("Winter", 1901, "passable", ("Swi",)),),
        hooks=Hooks(apply_scheduled=open_spaces),
    )
    text = "CASE c\nPRESTATE_SETPHASE %s\n%sPRESTATE\n\tFrance: A Bur\nORDERS\n" \
           "\tFrance: A Bur - Swi\nPOSTSTATE\n\tFrance: A %s\nEND\n"
    closed = "PRESTATE_TERRAIN\n\tSwi: impassable\n"
    for phase, terrain, where in [("S1902M", "", "Swi"), ("S1902M", closed, "Bur"),
                                  ("F1901M", "", "Bur")]:
        (case,) = read_text(text % (phase, terrain, where))
        result = run_case(case, variant)
        assert result.passed, (phase, terrain, result.differences, result.error)


def test_an_item_may_follow_its_block_keyword_and_owners_may_share_a_line() -> None:
    """`POSTSTATE_WINNERS none` on one line; `France: Par Bre Mar` and `Russia: A Mos, F Sev`
    list several centres of one power."""
    text = (
        "CASE lenient\n"
        "PRESTATE_SETPHASE Fall 1901, Movement\n"
        "PRESTATE\n\tFrance: A Par\n\tRussia: A Mos\n"
        "PRESTATE_SUPPLYCENTER_OWNERS\n\tFrance: Par Bre Mar\n\tRussia: A Mos, F Sev\n"
        "ORDERS\n\tFrance: A Par - Bur\n"
        "POSTSTATE France: A Bur\n\tRussia: A Mos\n"
        "POSTSTATE_SUPPLYCENTER_OWNERS\n\tFrance: Par Bre Mar\n\tRussia: Mos Sev\n"
        "POSTSTATE_WINNERS none\n"
        "END\n"
    )
    (case,) = read_text(text, "lenient.txt")
    result = run_case(case)
    assert result.error is None and result.differences == (), result
    (wrong,) = read_text(text.replace("Russia: Mos Sev", "Russia: Mos War"), "lenient.txt")
    assert [d.block for d in run_case(wrong).differences] == ["POSTSTATE_SUPPLYCENTER_OWNERS"]
