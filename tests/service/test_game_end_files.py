"""The mail that ends a game carries the game's files for everyone, each copy with the press
its reader may see: a solo won on the board (the tick's reports) and a draw voted by mail."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from gm.engine.geo import Location
from gm.engine.phase import Phase, PhaseType
from gm.engine.units import Unit, UnitType
from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import press as press_repo
from gm.store.db import Database
from gm.store.rows import Attachment
from gm.variants import get_variant
from tests.export.mila_play import replay
from tests.support.mail_table import seven_powers
from tests.support.service_support import GM, PLAYERS, maildir_config, text_of
from tests.support.tick_support import address, new_game, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
SECRET = "England, take Belgium and I am done for."


def _record_of(files: tuple[Attachment, ...], name: str) -> dict[str, Any]:
    [found] = [a for a in files if a.filename == name]
    data: dict[str, Any] = json.loads(found.data)
    return data


def test_a_solo_ends_with_every_report_carrying_the_record(database: Database,
                                                           tmp_path: Path) -> None:
    variant = get_variant("standard")
    owned = ("Par", "Mar", "Bre", "Spa", "Por", "Lon", "Lvp", "Edi", "Hol", "Mun", "Ber",
             "Kie", "Den", "Nwy", "Swe", "Ven", "Rom")
    state = variant.start_state().evolve(
        phase=Phase("Fall", 1905, PhaseType.MOVEMENT),
        units=(Unit("France", UnitType.ARMY, Location("Bur")),
               Unit("England", UnitType.FLEET, Location("NTH"))),
        owners={c: "France" for c in owned})
    game = new_game(database, "final", opened=T0, deadline=T0, state=state)
    with database.transaction() as s:
        phase = phases_repo.current_phase(s, game)
        assert phase is not None
        press_repo.record_press(s, game, from_power="Italy", from_address=address("final", "Italy"),
                                body=SECRET, now=T0, to_powers=("England",), phase_id=phase.id)
    submit(database, game, {"France": ["A Bur - Bel"]}, T0)
    assert len(tick(database, config=maildir_config(tmp_path), clock=FixedClock(T0)).adjudicated) \
        == 1
    with database.read() as s:
        reports = outbound_repo.list_outbound(s, limit=100)
    assert len(reports) == 8  # seven players and the GM
    copies = {}
    for report in reports:
        [to] = report.recipients
        names = [a.filename for a in report.attachments]
        assert names[-3:] == ["final-record.json", "final-history.html",
                              "final-animation.webp"], to
        text = next(p.text for p in report.parts if p.content_type == "text/plain")
        assert "The whole game is attached: final-record.json, final-history.html," in text
        copies[to] = _record_of(report.attachments, "final-record.json")
    england, italy = copies[address("final", "England")], copies[address("final", "Italy")]
    france, gm_copy = copies[address("final", "France")], copies[GM]
    assert SECRET in json.dumps(england) and SECRET in json.dumps(italy)
    assert SECRET not in json.dumps(france) and SECRET in json.dumps(gm_copy)
    assert france["gm"]["outcome"] == {"status": "finished", "ended_by": "solo",
                                       "winners": ["FRANCE"], "centres": {
                                           "AUSTRIA": 0, "ENGLAND": 0, "FRANCE": 18,
                                           "GERMANY": 0, "ITALY": 0, "RUSSIA": 0, "TURKEY": 0}}
    assert [p["name"] for p in france["phases"]] == ["F1905M", "COMPLETED"]
    assert france["phases"][0]["orders"]["FRANCE"] == ["A BUR - BEL"]
    assert france["phases"][0]["orders"]["ENGLAND"] == ["F NTH H"]  # no order: holds
    assert france["gm"]["phases"][0]["no_orders"] == ["ENGLAND"]
    assert "BEL" in france["phases"][1]["state"]["centers"]["FRANCE"]
    assert replay(france) == []


async def test_a_draw_by_mail_carries_each_readers_record(database: Database,
                                                          tmp_path: Path) -> None:
    table = seven_powers(database, tmp_path, "drawn")
    await table.start("standard")
    await table.signed("Italy", "PRESS TO England", SECRET, "ENDPRESS")
    table.new_mail()
    for power in PLAYERS:
        await table.signed(power, "SET DRAW")
    ends = [m for m in table.outbox() if "the game ends in a draw" in str(m["Subject"])]
    assert len(ends) == 8
    for mail in ends:
        to = str(mail["To"])
        [part] = [p for p in mail.walk() if p.get_filename() == "drawn-record.json"]
        payload = part.get_payload(decode=True)
        assert isinstance(payload, bytes)
        record = json.loads(payload)
        assert record["gm"]["outcome"]["ended_by"] == "draw"
        assert record["gm"]["outcome"]["draw"] == [p.upper() for p in PLAYERS]
        seen = SECRET in payload.decode("utf-8")
        assert seen == (to in (PLAYERS["Italy"], PLAYERS["England"], GM)), to
        assert "The whole game is attached: drawn-record.json" in text_of(mail)
        files = [p.get_filename() for p in mail.walk() if p.get_filename()]
        assert files == ["drawn-record.json", "drawn-history.html", "drawn-animation.webp"]
