"""What the others in a game are told, as njudge veterans expect, by mail through the real
service (Maildir inbox and outbox, `Service.once`), on SQLite and PostgreSQL: the GM's SET
changes announced to everyone in a game under way (njudge `data/deadlines`: every SET but
PASSWORD and WAIT), one mail per recipient per message; RESIGN told to the GM and the other
players; after BECOME, the player told of every command the GM entered for the power."""

from __future__ import annotations

from email.message import EmailMessage
from pathlib import Path

from gm.store.db import Database
from tests.service.test_service_gm_control import SETUP, Mail, _reply_to, _started, _text
from tests.support.service_support import GM, PLAYERS

Out = list[tuple[str, EmailMessage]]


def _notices(out: Out) -> dict[str, list[EmailMessage]]:
    """The mails that are not the reply, by recipient."""
    found: dict[str, list[EmailMessage]] = {}
    for to, m in out:
        if not m["In-Reply-To"]:
            found.setdefault(to, []).append(m)
    return found


async def test_the_gms_set_changes_are_announced_once_per_message(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET PRESS WHITE\nSET GRACE 12h\n"
                              "SET NO FAKE\nSET DEADLINE MOVEMENT 48h")
    reply = _reply_to(out, GM)
    assert "Grace period in theta: 12 hours." in reply
    told = _notices(out)
    assert set(told) == set(PLAYERS.values())  # every player, not the GM who sent it
    assert all(len(mails) == 1 for mails in told.values())  # one mail for the four lines
    text = _text(told[PLAYERS["France"]][0])
    assert str(told[PLAYERS["France"]][0]["Subject"]) == \
        "[theta]: the GM changed the settings"
    assert "The GM of theta changed the game's settings:" in text
    assert "  SET GRACE 12h  ->  Grace period in theta: 12 hours.\n" in text
    assert "  SET PRESS WHITE  ->  Press in theta: WHITE (signed press only).\n" in text
    assert "  SET NO FAKE  ->  Fake press in theta: not allowed.\n" in text
    assert ("  SET DEADLINE MOVEMENT 48h  ->  Deadline of movement phases in theta: 2 days "
            "after the phase opens (from the next phase on).") in text
    # a refused change, a password and the observers' addresses are not announced
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET TAKEOVER s3cret\n"
                              "SET OBSERVERS watcher@example.org\nSET LATE DISORDER AFTER 0")
    assert _notices(out) == {}
    # the personal settings of a player are not announced either
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nSET WAIT\n"
                                             "SET PASSWORD newpass")
    assert _notices(out) == {}


async def test_settings_of_a_game_not_started_are_not_announced(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    out = await mail.send(GM, SETUP.replace("START", "SET GRACE 6h\nSTART"))
    assert not [m for to, m in out if "changed the settings" in str(m["Subject"])]


async def test_resign_is_told_to_the_gm_and_the_other_players(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(PLAYERS["Austria"], "SIGNON Austria theta pwaustria\nRESIGN")
    assert ("You resigned Austria in theta; the GM will find a replacement. The GM and the "
            "other players are told.") in _reply_to(out, PLAYERS["Austria"])
    told = _notices(out)
    assert set(told) == {GM, *(a for p, a in PLAYERS.items() if p != "Austria")}
    for mails in told.values():
        (m,) = mails
        assert str(m["Subject"]) == "[theta]: Austria resigned"
        assert "Austria has resigned from theta; the GM will find a replacement." in _text(m)


async def test_after_become_the_player_is_told_every_command(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nBECOME France\nA Par - Bur\n"
                              "SET WAIT\nSET DRAW\nBECOME GM\nSET DEADLINE MOVEMENT 48h")
    told = _notices(out)
    france = [_text(x) for x in told[PLAYERS["France"]]]
    # one mail of what the GM did as France (the settings announcement is the GM's own)
    stood_in = [t for t in france if "The GM of theta has entered orders" in t]
    assert len(stood_in) == 1, france
    text = stood_in[0]
    assert "  A Par - Bur\n" in text
    assert "The GM of theta also entered for France:" in text
    assert "  SET WAIT  ->  France waits for the deadline of this phase.\n" in text
    assert "  SET DRAW  ->  France votes for a draw." in text
    assert "SET DEADLINE MOVEMENT 48h" not in text  # after BECOME GM: the GM's own
    # commands alone, without orders
    out = await mail.send(GM, "SIGNON GM theta gmpass\nBECOME Italy\nSET NOWAIT")
    (only,) = _notices(out)[PLAYERS["Italy"]]
    assert str(only["Subject"]) == "[theta]: the GM acted for Italy"
    assert "The GM of theta, standing in for Italy, entered:\n  SET NOWAIT  ->  " in _text(only)
    assert set(_notices(out)) == {PLAYERS["Italy"]}
