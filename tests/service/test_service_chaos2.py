"""A Chaos II game by email: 34 players sign on (by name, by two-word name, by letter and by
digit code) and the Winter 1900 builds are processed through the real service and store."""

from __future__ import annotations

from pathlib import Path

from gm.config import Config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.db import Database
from gm.variants.chaos2 import chaos_powers
from tests.support.service_support import (
    GM,
    START,
    deliver,
    mail_by_recipient,
    maildir_config,
    message,
    service_pass,
    text_of,
)

POWERS = chaos_powers()
INLAND = {"Bud", "Mos", "Mun", "Par", "Ser", "Vie", "War"}
COASTS = {"StP": "StP/nc", "Spa": "Spa/sc", "Bul": "Bul/ec"}


def _address(code: str) -> str:
    return f"chaos-{code.lower()}@example.org"


def _password(code: str) -> str:
    return f"pw{code.lower()}"


SETUP = "\n".join(
    ["CREATE kaos Chaos II gmpass"]
    + [f"ADD {p.name} {_address(p.code)} {_password(p.code)}" for p in POWERS]
    + ["START"]
)


def _build(centre: str) -> str:
    return f"Build {'A' if centre in INLAND else 'F'} {COASTS.get(centre, centre)}"


def _signon(index: int, code: str, name: str) -> str:
    """Every other power signs on by its code (letters and digits: 1, 5, 7, 9), the others and
    St Petersburg (two words) by name."""
    if index % 2 and " " not in name:
        return f"SIGNON {code}kaos {_password(code)}"
    return f"SIGNON {name} kaos {_password(code)}"


async def test_a_chaos2_game_by_email(database: Database, tmp_path: Path) -> None:
    config: Config = maildir_config(tmp_path)
    clock = FixedClock(START)
    deliver(config.maildir.inbox, message(GM, SETUP))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]

    for i, p in enumerate(POWERS):
        orders = [_build(p.centre)]
        if p.name == "Paris":
            orders.append("Home Bel")  # Chaos II rule 4: not owned, refused on arrival
        body = "\n".join([_signon(i, p.code, p.name), *orders])
        deliver(config.maildir.inbox, message(_address(p.code), body))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED] * 34

    mail = mail_by_recipient(config.maildir.outbox)
    for p in POWERS:
        replies = [m for m in mail[_address(p.code)] if m["In-Reply-To"]]
        assert len(replies) == 1, p.name
        text = text_of(replies[0])
        assert f"Orders of {p.name} for Winter 1900, Adjustment:" in text, (p.name, text)
        assert "Builds ordered: 1 of 1." in text, (p.name, text)
        if p.name == "Paris":  # the verdict adjudication would give, on arrival
            assert '"Home Bel": refused, Paris does not own Bel.' in text, text

    deliver(config.maildir.inbox, message(GM, "SIGNON GM kaos gmpass\nPROCESS"))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]

    with database.read() as s:
        game = games_repo.find_game(s, "kaos")
        assert game is not None
        history = phases_repo.history(s, game.id)
        assert history[0].adjudicated
        state = history[-1].state
    assert str(state.phase) == "Spring 1901, Movement"
    assert len(state.units) == 34
    stp = state.unit_in("StP")
    assert stp is not None and stp.power == "St Petersburg" and str(stp.location) == "StP/nc"
    assert state.homes["Paris"] == ("Par",)
    assert state.extra["winter-owner Bel"] == "Belgium"

    mail = mail_by_recipient(config.maildir.outbox)
    for p in POWERS:
        reports = [m for m in mail[_address(p.code)] if str(m["Subject"]).endswith(": results")]
        assert len(reports) == 1, p.name
        text = text_of(reports[0])
        assert str(reports[0]["Subject"]) == "[kaos] Winter 1900, Adjustment: results"
        assert "Next phase: Spring 1901, Movement" in text
        assert "Build F StP/nc" in text and "Build A War" in text
        assert "Home Bel" not in text

    # Spring 1901 with its 34 units, processed: each report's HTML part stays under what
    # Gmail shows whole (it cuts longer HTML with "[Message clipped]"), the whole mail under
    # 350 kB with the pictures inline
    deliver(config.maildir.inbox, message(GM, "SIGNON GM kaos gmpass\nPROCESS"))
    assert await service_pass(database, config, clock) == [Disposition.ANSWERED]
    outbox = config.maildir.outbox / "new"
    sizes = {path.name: path.stat().st_size for path in outbox.iterdir()}
    mail = mail_by_recipient(config.maildir.outbox)
    spring = [m for p in POWERS for m in mail[_address(p.code)]
              if str(m["Subject"]) == "[kaos] Spring 1901, Movement: results"]
    assert len(spring) == 34
    for report in spring:
        html = report.get_body(preferencelist=("html",))
        assert html is not None
        assert len(html.as_bytes()) < 100_000
        assert "St Petersburg" in html.get_content()
    assert max(sizes.values()) < 350 * 1024
