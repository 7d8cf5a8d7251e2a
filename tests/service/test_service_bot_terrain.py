"""The bot seated by mail in a Geophysical game (ADD France BOT) gives its terrain orders as a
player's, stored when the phase opens: a new centre where its army will stand (rule 7) and a
stabilisation per centre it owns; the report shows them and the map changes."""

from __future__ import annotations

from pathlib import Path

from gm.store.db import Database
from gm.variants import get_variant
from tests.support.mail_table import seven_powers
from tests.support.service_support import GM, PLAYERS, text_of


async def test_the_seated_bot_gives_terrain_orders_by_mail(database: Database,
                                                           tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "geobot")
    players = {p: a for p, a in PLAYERS.items() if p != "France"}
    reply = text_of(await table.send(GM, "\n".join(
        ["CREATE geobot geophysical gmpass", "ADD France BOT"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in players.items()]
        + ["START"])))
    assert "The bot plays France in geobot" in reply
    report = " ".join((await table.process()).split())
    assert "France sent no orders" not in report  # stored as a player's when the phase opened
    assert "Stabilize Par" in report and "Create centre" in report
    state = table.state()
    geo = get_variant("geophysical")
    new = geo.map_for(state).centres - geo.map.centres
    assert len(new) == 1  # the bot's new centre, where its army stands
    [created] = new
    assert any(u.province == created for u in state.units_of("France"))
