"""Press messages and the audit log."""

from __future__ import annotations

from datetime import timedelta

from gm.store import audit, games, inbound, press
from gm.store.db import Database
from tests.support.store_samples import T0


def _game(db: Database) -> int:
    with db.transaction() as s:
        return games.create_game(s, name="g", variant="standard", gm_address="gm@example.org",
                                 gm_password_hash="h", now=T0).id


def test_press_is_kept_and_shown_to_whom_it_was_sent(database: Database) -> None:
    gid = _game(database)
    with database.transaction() as s:
        msg = inbound.receive_inbound(s, raw=b"p", sender="e@example.org", now=T0).record
        press.record_press(s, gid, from_power="England", from_address="e@example.org",
                           to_powers=["France"], body="Channel DMZ?", inbound_id=msg.id, now=T0)
        press.record_press(s, gid, from_power="Germany", from_address="g@example.org",
                           broadcast=True, anonymous=True, body="Beware!",
                           now=T0 + timedelta(minutes=1))
        press.record_press(s, gid, from_power=None, from_address="gm@example.org",
                           broadcast=True, body="Deadline extended.", now=T0)
    with database.read() as s:
        everything = press.list_press(s, gid)
        assert [p.body for p in everything] == ["Channel DMZ?", "Beware!", "Deadline extended."]
        first = everything[0]
        assert (first.from_power, first.to_powers, first.broadcast, first.anonymous) == (
            "England", ("France",), False, False)
        assert first.inbound_id is not None
        assert everything[1].anonymous and everything[2].from_power is None
        assert [p.body for p in press.list_press(s, gid, visible_to="Italy")] == [
            "Beware!", "Deadline extended."]
        assert len(press.list_press(s, gid, visible_to="France")) == 3


def test_audit_entries_by_game_and_action(database: Database) -> None:
    gid = _game(database)
    with database.transaction() as s:
        audit.record_action(s, actor="gm@example.org", action="start", game_id=gid, now=T0)
        audit.record_action(s, actor="gm@example.org", action="set deadline", game_id=gid,
                            details={"Movement": "48h"}, now=T0)
        audit.record_action(s, actor="root@example.org", action="maintenance", now=T0)
    with database.read() as s:
        mine = audit.audit_log(s, game_id=gid)
        assert [(e.action, e.game_name) for e in mine] == [("start", "g"), ("set deadline", "g")]
        assert mine[1].details == {"Movement": "48h"}
        assert [e.action for e in audit.audit_log(s, action="maintenance")] == ["maintenance"]
        assert len(audit.audit_log(s)) == 3
