"""The rulebook a game plays, by mail through the real service: chosen at CREATE or by SET
RULEBOOK before START, kept in the game's position, named in every report's first line and in
HELP, and deciding adjudication (gm.engine.rulebook; DATC v3.0 6.G.8)."""

from __future__ import annotations

from pathlib import Path

from gm.engine.rulebook import rulebook_of
from gm.engine.state import GameState
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.service.test_service_gm_control import Mail, _reply_to, _text
from tests.support.service_support import GM, PLAYERS


def _setup(game: str, create: str, *before_start: str) -> str:
    return "\n".join(
        [create]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["SET EARLY OFF", *before_start, "START"])


def _state(db: Database, game: str) -> GameState:
    with db.read() as s:
        found = games_repo.find_game(s, game)
        assert found is not None
        phase = phases_repo.current_phase(s, found.id)
        assert phase is not None
        return phase.state


async def _play_a_via_convoy_move(mail: Mail, game: str) -> str:
    """France orders A Mar - Spa via convoy with no fleet to carry it; the GM processes the
    phase; the GM's report."""
    body = f"SIGNON France {game} pwfrance\nA Mar - Spa via convoy"
    _reply_to(await mail.send(PLAYERS["France"], body), PLAYERS["France"])
    out = await mail.send(GM, f"SIGNON GM {game} gmpass\nPROCESS")
    reports = [_text(m) for to, m in out if to == GM and not m["In-Reply-To"]]
    assert reports, [str(m["Subject"]) for _, m in out]
    return reports[0]


async def test_create_with_the_2023_rulebook(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    out = await mail.send(GM, _setup("theta", "CREATE theta standard gmpass RULEBOOK 2023"))
    reply = _reply_to(out, GM)
    assert "Rulebook: 2023" in reply and "gmpass" not in reply
    assert rulebook_of(_state(database, "theta")) == "2023"
    report = await _play_a_via_convoy_move(mail, "theta")
    assert report.startswith("theta (Standard, 2023 rulebook): results of Spring 1901, Movement")
    # DATC v3.0 6.G.8 (2023 rulebook): via convoy with no convoy: the army does not move
    assert "A Mar - Spa via convoy  (fails: no convoy route" in report, report
    assert rulebook_of(_state(database, "theta")) == "2023"  # kept into the next phase


async def test_the_default_is_the_2000_rulebook(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    reply = _reply_to(await mail.send(GM, _setup("iota", "CREATE iota standard gmpass")), GM)
    assert "Rulebook: 2000" in reply
    report = await _play_a_via_convoy_move(mail, "iota")
    assert report.startswith("iota (Standard, 2000 rulebook): results of Spring 1901, Movement")
    # DATC v2.4 6.G.8 (2000 rulebook): no convoy, so the army goes over land
    assert "A Mar - Spa via convoy  (succeeds" in report, report


async def test_set_rulebook_before_start_only(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    reply = _reply_to(await mail.send(
        GM, _setup("kappa", "CREATE kappa standard gmpass", "SET RULEBOOK 2023")), GM)
    assert "Rulebook of kappa: 2023" in reply
    assert rulebook_of(_state(database, "kappa")) == "2023"
    reply = _reply_to(await mail.send(GM, "SIGNON GM kappa gmpass\nSET RULEBOOK 2000"), GM)
    assert "SET RULEBOOK: refused, kappa has started; the rulebook is chosen before START" \
        in reply
    assert rulebook_of(_state(database, "kappa")) == "2023"
    reply = _reply_to(await mail.send(GM, "SIGNON GM kappa gmpass\nSET RULEBOOK 1971"), GM)
    assert "there is no '1971' rulebook: RULEBOOK 2000 or 2023" in reply
    reply = _reply_to(await mail.send(GM, "SIGNON GM kappa gmpass\nHELP"), GM)
    assert "HELP RULEBOOK" in reply and "kappa plays the 2023 rulebook." in reply
    reply = _reply_to(await mail.send(GM, "CREATE lambda Deluge II gmpass RULEBOOK 2023"), GM)
    assert "CREATE: refused, Deluge II plays its A/F rules (Fast Ferry instead of convoys)" \
        in reply
    reply = _reply_to(await mail.send(GM, "HELP RULEBOOK"), GM)
    assert "A game plays the 2000 rulebook (the default) or the 2023 rulebook" in reply
    assert "SET RULEBOOK 2000|2023 before START" in reply
