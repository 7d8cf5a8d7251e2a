"""Press, the GM's settings, REPLACE/EJECT, HISTORY/SUMMARY and sign-on security, through
ingest(): one message in, the reply and the mail it queues out; on SQLite and PostgreSQL."""

from __future__ import annotations

import re
from datetime import time, timedelta
from pathlib import Path

from gm.engine.phase import PhaseType
from gm.play.observers import observers
from gm.play.reminders import remind_before
from gm.policies import LatePolicy, PressPolicy
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.service.tick import tick
from gm.store import audit
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
from gm.store.statuses import PowerStatus
from gm.variants import registry
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    maildir_config,
    message,
    queued_for,
    send_all,
    unwrapped,
)


def _send(db: Database, tmp_path: Path, sender: str, body: str,
          clock: FixedClock | None = None) -> str:
    return send_all(db, tmp_path, sender, body, clock)[0]


def _game(db: Database, tmp_path: Path, *settings: str) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines += list(settings)
    lines.append("START")
    reply = _send(db, tmp_path, GM, "\n".join(lines))
    assert "alpha has started" in reply, reply


def _unanswered(db: Database, tmp_path: Path, sender: str, body: str,
                clock: FixedClock | None = None) -> list[OutboundRecord]:
    """Ingest one message that gets no reply (wrong passwords past the replies its address
    gets); the other mail it queued."""
    result = ingest(db, message(sender, body), config=maildir_config(tmp_path),
                    clock=clock or FixedClock(START))
    assert result.outcome is Disposition.UNANSWERED, result
    return queued_for(db, result.inbound_id)


def _failures(db: Database, sender: str) -> int:
    with db.read() as s:
        return sum(e.actor == sender for e in audit.audit_log(s, action="signon_failed"))


def _by_recipient(mail: list[OutboundRecord]) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in mail:
        assert len(m.recipients) == 1  # one message each: addresses stay private
        out[m.recipients[0]] = unwrapped(m.parts[0].text)
    return out


# --------------------------------------------------------------------------------------------
# Press


def test_press_goes_to_the_recipients_and_the_gm(database: Database, tmp_path: Path) -> None:
    # the GM reads partial press only under SET ALL PRESS (njudge data/master)
    _game(database, tmp_path)
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET ALL PRESS")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                            "SIGNON France alpha pwfrance\nPRESS TO England, Germany\n"
                            "Shall we share the Channel?\nENDPRESS\n")
    assert "Press sent to England, Germany. The GM gets a copy (SET ALL PRESS)." in reply
    sent = _by_recipient(mail)
    assert set(sent) == {PLAYERS["England"], PLAYERS["Germany"], GM}
    for text in sent.values():
        assert "Press from France in alpha to England, Germany:" in text
        assert "Shall we share the Channel?" in text
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        (stored,) = press_repo.list_press(s, game.id)
        assert stored.from_power == "France"
        assert stored.to_powers == ("England", "Germany", "GM copy")
        assert not stored.anonymous and not stored.broadcast
        assert press_repo.list_press(s, game.id, visible_to="Italy") == []


def test_grey_broadcast_hides_the_sender_except_from_the_gm(
        database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["Turkey"],
                            "SIGNON Turkey alpha pwturkey\nGREY BROADCAST\nBeware the Bear.\n"
                            "ENDPRESS\n")
    assert reply.count("Grey press sent to Austria, England, France, Germany, Italy, Russia, "
                       "the GM.") == 1
    sent = _by_recipient(mail)
    assert set(sent) == {a for p, a in PLAYERS.items() if p != "Turkey"} | {GM}
    for address, text in sent.items():
        assert "Beware the Bear." in text
        if address == GM:
            assert "sent by Turkey" in text
        else:
            assert "Turkey" not in text and PLAYERS["Turkey"] not in text
            assert "Grey press (the sender is not named) in alpha, to everyone:" in text
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        (stored,) = press_repo.list_press(s, game.id)
        assert stored.anonymous and stored.broadcast


def test_press_refused_by_the_game_setting(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "SET PRESS WHITE")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                            "SIGNON France alpha pwfrance\nGREY PRESS TO Italy\nHi\nENDPRESS\n"
                            "PRESS TO Italy\nHello\nENDPRESS\n")
    assert ("line 2: GREY PRESS TO Italy: refused, this game allows only signed press "
            "(SET PRESS WHITE)") in reply
    assert "Press sent to Italy." in reply
    assert len(mail) == 1
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET PRESS NONE")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                            "SIGNON France alpha pwfrance\nPRESS TO Italy\nHello\nENDPRESS\n")
    assert "refused, this game allows no press (SET PRESS NONE); the press was not sent." in reply
    assert mail == []
    # the GM's own press is always allowed
    reply, mail = send_all(database, tmp_path, GM,
                            "SIGNON GM alpha gmpass\nBROADCAST\nDeadline tomorrow.\nENDPRESS\n")
    assert "Press sent to Austria, England, France, Germany, Italy, Russia, Turkey." in reply
    assert len(mail) == 7
    reply, mail = send_all(database, tmp_path, GM,
                            "SIGNON GM alpha gmpass\nPRESS TO GM\nNote to self\nENDPRESS\n")
    assert "refused, it names no one but yourself" in reply and mail == []


def test_press_to_the_gm_is_labelled_as_sent_in_the_report(database: Database,
                                                           tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["England"],
                            "SIGNON England alpha pwengland\nPRESS TO GM\nA word in private.\n"
                            "ENDPRESS\nPRESS TO France, GM\nHello both.\nENDPRESS\n")
    assert reply.count("Press sent to") == 2 and "Press sent to France, the GM." in reply
    _, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS")
    reports = _by_recipient(mail)
    flat = {to: " ".join(text.split()) for to, text in reports.items()}
    for who in (PLAYERS["England"], GM):
        assert "From England to the GM: A word in private." in flat[who], flat[who]
        assert "From England to France, the GM: Hello both." in flat[who]
    assert "A word in private." not in flat[PLAYERS["France"]]
    assert "From England to France, the GM: Hello both." in flat[PLAYERS["France"]]
    assert "A word in private." not in flat[PLAYERS["Germany"]]
    assert "to everyone" not in "".join(flat.values())


def test_press_errors_quote_the_input(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                            "SIGNON France alpha pwfrance\nPRESS TO Englnd\nHi\nENDPRESS\n"
                            "PRESS TO France\nHi\nENDPRESS\n")
    assert "'Englnd' is not a power of alpha (powers: Austria," in reply
    assert "refused, it names no one but yourself" in reply
    assert mail == []
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                            "PRESS TO England\nHi\nENDPRESS\n")
    assert "refused, sign on first" in reply and mail == []


# --------------------------------------------------------------------------------------------
# The GM's settings


def test_gm_settings_are_stored_and_echoed(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, GM,
                  "SIGNON GM alpha gmpass\nSET DEADLINE MOVEMENT 48h\nSET DEADLINE RETREAT 20:00\n"
                  "SET GRACE 1 day 12 hours\nSET TIMEZONE europe/paris\nSET PRESS GREY\n"
                  "SET LATE DISORDER AFTER 2\nSET EARLY OFF\n")
    assert "Deadline of movement phases in alpha: 2 days after the phase opens" in reply
    assert "Deadline of retreat phases in alpha: at 20:00 (UTC)" in reply
    assert "Grace period in alpha: 1 day 12 hours." in reply
    assert "Time zone of alpha: Europe/Paris." in reply
    assert "Press in alpha: GREY (grey (anonymous) press only)." in reply
    assert "civil disorder after 2 missed deadlines in a row" in reply
    assert "Early processing in alpha: OFF (at the deadline)." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        settings = game.settings
        audited = audit.audit_log(s, game_id=game.id, action="set")
    assert settings.deadlines[PhaseType.MOVEMENT] == timedelta(hours=48)
    assert settings.deadlines[PhaseType.RETREAT] == time(20, 0)
    assert settings.deadlines[PhaseType.ADJUSTMENT] == timedelta(hours=24)  # unchanged
    assert settings.grace == timedelta(hours=36)
    assert settings.timezone == "Europe/Paris"
    assert settings.press is PressPolicy.GREY
    assert (settings.late, settings.late_after) == (LatePolicy.DISORDER, 2)
    assert settings.early is False
    assert len(audited) == 7
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET DEADLINE 90m\n")
    assert "Deadline of every phase in alpha: 1 hour 30 minutes after the phase opens" in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert set(game.settings.deadlines.values()) == {timedelta(minutes=90)}


def test_gm_settings_need_the_gm(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nSET PRESS NONE\nSET DEADLINE 1h\nSET EARLY OFF")
    assert reply.count("refused, only the game's GM may do this") == 3
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert game.settings.press is PressPolicy.ALL and game.settings.early is True


def test_reminders_and_observers_are_set_by_mail(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, GM,
                  "SIGNON GM alpha gmpass\nSET REMIND 6h\n"
                  "SET OBSERVERS watcher@example.org, <press@example.net> watcher@example.org\n"
                  "ADD OBSERVER late@example.com\nADD OBSERVER Watcher@example.org")
    assert "Reminders in alpha: 6 hours before the deadline, to powers without orders." in reply
    assert "Observers of alpha: watcher@example.org, press@example.net." in reply
    assert ("Observers of alpha: watcher@example.org, press@example.net, late@example.com."
            in reply)
    assert "ADD OBSERVER: Watcher@example.org already observes alpha." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert remind_before(game.settings) == timedelta(hours=6)
        assert observers(game) == ["watcher@example.org", "press@example.net",
                                   "late@example.com"]
    reply = _send(database, tmp_path, GM,
                  "SIGNON GM alpha gmpass\nSET REMIND OFF\nSET OBSERVERS NONE")
    assert "Reminders in alpha: OFF (no reminders)." in reply
    assert "Observers of alpha: none." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert remind_before(game.settings) == timedelta(0) and observers(game) == []
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET REMIND ON\nSET REMIND")
    assert "Reminders in alpha: 12 hours before the deadline" in reply
    assert ('Cannot read "SET REMIND": SET REMIND needs how long before the deadline, or ON or'
            in reply)
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nSET REMIND 1h\nADD OBSERVER spy@example.org")
    assert reply.count("refused, only the game's GM may do this") == 2


def test_observers_get_the_observers_report(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nADD OBSERVER watcher@example.org")
    for power, orders in SPRING_1901.items():
        _send(database, tmp_path, PLAYERS[power],
              "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    summary = tick(database, config=maildir_config(tmp_path), clock=FixedClock(START))
    assert [game for game, *_ in summary.adjudicated] == ["alpha"]  # early: all orders in
    with database.read() as s:
        sent = [o for o in outbound_repo.list_outbound(s) if "watcher@example.org" in o.recipients]
    assert len(sent) == 1
    assert "You receive this as an observer of alpha." in sent[0].parts[0].text


def test_reports_say_who_is_in_civil_disorder(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT Russia")
    for power, orders in SPRING_1901.items():
        if power != "Russia":
            _send(database, tmp_path, PLAYERS[power],
                  "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    _, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS")
    report = _by_recipient(mail)[PLAYERS["France"]]
    assert "In civil disorder (the rules give their orders): Russia." in report
    due = next(line for line in report.splitlines() if line.startswith("Orders are due from:"))
    assert "Russia" not in due and "France" in due
    assert "No orders needed from: Russia" not in report


def test_a_power_in_disorder_is_played_again_when_its_player_signs_on(
        database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "SET LATE DISORDER")
    for power, orders in SPRING_1901.items():
        if power != "Italy":
            _send(database, tmp_path, PLAYERS[power],
                  "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    clock = FixedClock(START)
    clock.advance(timedelta(hours=73))  # Italy missed the deadline: civil disorder
    assert [g for g, *_ in tick(database, config=maildir_config(tmp_path),
                                clock=clock).adjudicated] == ["alpha"]
    reply, mail = send_all(database, tmp_path, PLAYERS["Italy"],
                            "SIGNON Italy alpha pwitaly\nA Ven H", clock)
    assert "Italy was in civil disorder; it is played again from now on" in reply
    assert "A Ven H  ->  A Ven H" in reply
    assert "has signed\non again" in _by_recipient(mail)[GM]
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        italy = powers_repo.get_power(s, game.id, "Italy")
        assert italy is not None and italy.status is PowerStatus.PLAYING


def test_set_wait_holds_for_one_phase(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["Turkey"], "SIGNON Turkey alpha pwturkey\nSET WAIT")
    assert "Turkey waits for the deadline of this phase." in reply
    for power, orders in SPRING_1901.items():
        _send(database, tmp_path, PLAYERS[power],
              "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *orders]))
    config = maildir_config(tmp_path)
    assert tick(database, config=config, clock=FixedClock(START)).adjudicated == []  # waits
    clock = FixedClock(START)
    clock.advance(timedelta(hours=72))
    assert [g for g, *_ in tick(database, config=config, clock=clock).adjudicated] == ["alpha"]
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        turkey = powers_repo.get_power(s, game.id, "Turkey")
        assert turkey is not None and turkey.wait is False


def test_deadlines_in_replies_show_the_games_timezone(database: Database,
                                                      tmp_path: Path) -> None:
    reply = _send(database, tmp_path, GM, "\n".join(
        ["CREATE alpha standard gmpass", "SET TIMEZONE America/New_York",
         *[f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()],
         "START"]))
    # START is 2026-03-01 12:00 UTC; the movement deadline 72 hours later, 07:00 in New York
    assert "deadline Wed 2026-03-04 07:00 EST (12:00 UTC)" in reply
    reply = _send(database, tmp_path, "visitor@example.org", "SUMMARY alpha")
    assert "Deadline: Wed 2026-03-04 07:00 EST (12:00 UTC)" in reply


def test_late_orders_are_taken_in_the_grace_period(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "SET GRACE 12h")
    clock = FixedClock(START)
    clock.advance(timedelta(hours=80))  # after the 72-hour deadline, within the grace period
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Par - Bur", clock)
    assert "A Par - Bur" in reply and "refused" not in reply
    clock.advance(timedelta(hours=5))  # past deadline and grace
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Mar - Spa", clock)
    assert ("refused, the deadline (Wed 2026-03-04 12:00:00 UTC) and its grace period has passed."
            in reply)


def test_a_waiting_game_takes_late_orders(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "SET LATE WAIT")
    clock = FixedClock(START)
    clock.advance(timedelta(days=10))
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Par - Bur", clock)
    assert "A Par - Bur" in reply and "refused" not in reply


def test_the_last_draw_vote_ends_the_game(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "ADD OBSERVER watcher@example.org")
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT Russia")  # no vote in disorder
    voters = [p for p in sorted(PLAYERS) if p != "Russia"]
    last = voters[-1]
    _send(database, tmp_path, PLAYERS[last], f"SIGNON {last} alpha pw{last.lower()}\nSET DRAW")
    _send(database, tmp_path, PLAYERS[last], f"SIGNON {last} alpha pw{last.lower()}\nSET NO DRAW")
    for power in voters[:-1]:
        reply, mail = send_all(database, tmp_path, PLAYERS[power],
                                f"SIGNON {power} alpha pw{power.lower()}\nSET DRAW")
        assert f"{power} votes for a draw." in reply and "ends in a draw" not in reply
        assert mail == []
    reply, mail = send_all(database, tmp_path, PLAYERS[last],
                            f"SIGNON {last} alpha pw{last.lower()}\nSET DRAW\nA Par - Bur")
    assert "alpha ends in a draw shared by Austria, England, France, Germany, Italy, Russia," \
           " Turkey." in reply
    assert "refused, alpha is finished, not taking orders." in reply
    sent = _by_recipient(mail)
    assert set(sent) == {*PLAYERS.values(), GM, "watcher@example.org"} - {PLAYERS["Russia"]}
    assert "alpha ends in a draw in Spring 1901, Movement." in sent[GM]
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and game.status.value == "finished"


def test_a_draw_needs_every_survivor(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    for power in sorted(PLAYERS)[:-1]:
        reply = _send(database, tmp_path, PLAYERS[power],
                      f"SIGNON {power} alpha pw{power.lower()}\nSET DRAW")
        assert "ends in a draw" not in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and game.status.value == "active"


# --------------------------------------------------------------------------------------------
# REPLACE and EJECT


def test_eject_then_replace(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT France")
    assert "France in alpha has no player now and is in civil disorder" in reply
    assert list(_by_recipient(mail)) == [PLAYERS["France"]]
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        france = powers_repo.get_power(s, game.id, "France")
        assert france is not None
        assert france.addresses == () and france.status is PowerStatus.CIVIL_DISORDER
    reply = _send(database, tmp_path, PLAYERS["France"], "SIGNON France alpha pwfrance\n"
                  "PRESS TO Italy\nstill here?\nENDPRESS\nA Par - Bur")
    assert "Wrong password for France in alpha." in reply  # the ejected player is out
    assert "Press sent" not in reply and "A Par - Bur  ->" not in reply
    reply, mail = send_all(database, tmp_path, GM,
                            "SIGNON GM alpha gmpass\nREPLACE France new@example.org fresh\n")
    assert "new@example.org now plays France in alpha." in reply
    assert "fresh" not in reply
    sent = _by_recipient(mail)
    assert "Your password: fresh" in sent["new@example.org"]  # the GM's, mailed to the player
    assert "SIGNON France alpha fresh" in sent["new@example.org"]
    reply = _send(database, tmp_path, "new@example.org", "SIGNON France alpha fresh\n")
    assert "Signed on as France in alpha." in reply
    reply = _send(database, tmp_path, PLAYERS["France"], "SIGNON France alpha pwfrance\n")
    assert "Wrong password for France in alpha." in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        france = powers_repo.get_power(s, game.id, "France")
        assert france is not None
        assert france.addresses == ("new@example.org",)
        assert france.status is PowerStatus.PLAYING
        actions = [(a.action, a.details["power"]) for a in audit.audit_log(s, game_id=game.id)
                   if a.action in ("eject", "replace")]
        assert actions == [("eject", "France"), ("replace", "France")]


def test_replace_without_a_password_makes_one_for_the_new_player(database: Database,
                                                                 tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, GM,
                            "SIGNON GM alpha gmpass\nREPLACE Italy other@example.org\n"
                            "REPLACE Atlantis x@example.org\n")
    assert ("other@example.org now plays Italy in alpha; a new password was made and sent to "
            "the new player alone. The old password no longer works.") in reply
    assert "REPLACE: 'Atlantis' is not a power of alpha (powers: Austria," in reply
    sent = _by_recipient(mail)
    assert set(sent) == {"other@example.org", PLAYERS["Italy"]}
    assert "you no longer play it" in sent[PLAYERS["Italy"]]
    made = re.search(r"SIGNON Italy alpha (\S+)", sent["other@example.org"])
    assert made is not None and made[1] != "<password>"
    assert made[1] not in reply and made[1] not in sent[PLAYERS["Italy"]]
    reply = _send(database, tmp_path, "other@example.org", f"SIGNON Italy alpha {made[1]}\n")
    assert "Signed on as Italy in alpha." in reply
    reply = _send(database, tmp_path, "other@example.org", "SIGNON Italy alpha pwitaly\n")
    assert "Wrong password for Italy in alpha." in reply
    reply = _send(database, tmp_path, "other@example.org",
                  f"SIGNON Italy alpha {made[1]}\nEJECT Italy\n")
    assert "EJECT: refused, only the game's GM may do this" in reply


def test_add_over_a_seated_player_tells_the_one_unseated(database: Database,
                                                         tmp_path: Path) -> None:
    reply, mail = send_all(database, tmp_path, GM,
                            "CREATE alpha standard gmpass\nADD France a@example.org pw\n"
                            "ADD France b@example.org pw2\nADD Spain c@example.org pw")
    assert "b@example.org plays France in alpha (instead of a@example.org, who was told); " \
        "they were mailed the game, the power and the password." in reply
    assert "ADD: 'Spain' is not a power of alpha (powers: Austria, England," in reply
    assert "you no longer play it" in _by_recipient(mail)["a@example.org"]


def test_pause_gives_the_time_back_and_everyone_is_told(database: Database,
                                                        tmp_path: Path) -> None:
    _game(database, tmp_path, "ADD OBSERVER watcher@example.org")
    clock = FixedClock(START)
    clock.advance(timedelta(hours=24))  # 48 of the 72 hours left
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPAUSE", clock)
    assert "alpha is now paused" in reply
    assert set(_by_recipient(mail)) == {*PLAYERS.values(), GM, "watcher@example.org"}
    reply = _send(database, tmp_path, "visitor@example.org", "SUMMARY alpha", clock)
    assert "Deadline: none while the game is paused" in reply
    clock.advance(timedelta(days=5))
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nRESUME", clock)
    # resumed at 2026-03-07 12:00 with 48 hours left: Mon 2026-03-09 12:00
    assert "alpha is active again; deadline Mon 2026-03-09 12:00 UTC." in reply
    sent = _by_recipient(mail)
    assert set(sent) == {*PLAYERS.values(), GM, "watcher@example.org"}
    assert "Deadline: Mon 2026-03-09 12:00 UTC." in sent[PLAYERS["France"]]
    assert tick(database, config=maildir_config(tmp_path), clock=clock).adjudicated == []
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nTERMINATE", clock)
    assert "alpha is terminated" in reply
    sent = _by_recipient(mail)
    assert set(sent) == {*PLAYERS.values(), GM, "watcher@example.org"}
    assert "has ended the game (TERMINATE)" in sent[PLAYERS["Turkey"]]
    reply = _send(database, tmp_path, "visitor@example.org", "SUMMARY alpha", clock)
    assert "Deadline" not in reply and "finished" in reply


# --------------------------------------------------------------------------------------------
# HISTORY and SUMMARY


def _play_spring(db: Database, tmp_path: Path) -> None:
    for power, orders in SPRING_1901.items():
        _send(db, tmp_path, PLAYERS[power],
              f"SIGNON {power} alpha pw{power.lower()}\n" + "\n".join(orders))
    assert "Now: Fall 1901, Movement." in _send(db, tmp_path, GM,
                                               "SIGNON GM alpha gmpass\nPROCESS")


def test_history_shows_adjudicated_phases(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, "visitor@example.org", "HISTORY alpha")
    assert "History of alpha (Standard):" in reply
    assert "Spring 1901, Movement: open for orders" in reply
    _play_spring(database, tmp_path)
    _send(database, tmp_path, PLAYERS["France"], "SIGNON France alpha pwfrance\nA Bur - Mun")
    reply = _send(database, tmp_path, "visitor@example.org", "HISTORY alpha")
    assert "\nSpring 1901, Movement\n  Austria:\n    A Vie - Gal" in reply
    assert "    A Par - Bur\n" in reply
    assert "F Sev - BLA  (fails: bounced with F Ank (1 against 1))" in reply
    assert "Fall 1901, Movement: open for orders" in reply
    assert "A Bur - Mun" not in reply  # orders of an open phase stay secret
    reply = _send(database, tmp_path, "visitor@example.org", "HISTORY alpha S1901M")
    assert "A Par - Bur" in reply and "Fall 1901" not in reply
    reply = _send(database, tmp_path, "visitor@example.org",
                  "HISTORY alpha Fall 1901, Movement\nHISTORY alpha F1905M\nHISTORY nowhere")
    assert "Fall 1901, Movement: open for orders" in reply
    assert "HISTORY: alpha has no phase 'F1905M'" in reply
    assert "HISTORY: there is no game called 'nowhere'" in reply


def test_summary_shows_position_settings_and_players(database: Database,
                                                     tmp_path: Path) -> None:
    _game(database, tmp_path, "SET PRESS WHITE")
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nEJECT Russia")
    reply = _send(database, tmp_path, "visitor@example.org", "SUMMARY alpha")
    assert "alpha: Standard, active, Spring 1901, Movement" in reply
    assert "Deadline: Wed 2026-03-04 12:00 UTC" in reply
    assert "Press: WHITE; late orders: HOLD" in reply
    assert "  France: 3 centres; units: A Mar, A Par, F Bre\n" in reply
    assert "  Russia: 4 centres; units: A Mos, A War, F Sev, F StP/sc (civil disorder)" in reply
    _play_spring(database, tmp_path)
    reply = _send(database, tmp_path, "visitor@example.org", "SUMMARY alpha")
    assert "  France: 3 centres; units: A Bur, A Spa, F MAO" in reply


# --------------------------------------------------------------------------------------------
# Sign-on security


def test_signon_from_another_address_copies_the_registered_one(database: Database,
                                                                 tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, "elsewhere@example.net",
                            "SIGNON France alpha pwfrance\nA Par - Bur\n")
    assert "Signed on as France in alpha." in reply
    assert "A Par - Bur  ->  A Par - Bur" in reply
    assert "its registered address gets a copy of this reply" in reply
    (copy,) = mail
    assert copy.recipients == (PLAYERS["France"],)
    text = copy.parts[0].text
    assert "A message from elsewhere@example.net signed on to your power." in text
    assert "A Par - Bur  ->  A Par - Bur" in text
    assert "pwfrance" not in text
    # from the registered address: no copy
    reply, mail = send_all(database, tmp_path, PLAYERS["France"].upper(),
                            "SIGNON France alpha pwfrance\n")
    assert "Signed on as France in alpha." in reply and mail == []


def test_repeated_wrong_passwords_throttle_the_guesser_not_the_player(
        database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    clock = FixedClock(START)
    for attempt in range(4):
        reply, mail = send_all(database, tmp_path, "mallory@example.net",
                                f"SIGNON France alpha guess{attempt}\n", clock)
        assert "Wrong password for France in alpha." in reply
        if attempt < 3:
            assert mail == [] and "not answered" not in reply
        clock.advance(timedelta(minutes=1))
    # the fourth is answered a last time, and the GM is told of the address
    assert ("That is 4 wrong passwords from mallory@example.net within 60 minutes: further "
            "wrong passwords from this address are not answered until 2026-03-01 13:03 "
            "UTC.") in reply
    assert "mallory@example.net sent 4 wrong passwords" in _by_recipient(mail)[GM]
    # the fifth is not answered; the player and the GM are told France is slowed
    sent = _by_recipient(_unanswered(database, tmp_path, "mallory@example.net",
                                     "SIGNON France alpha guess4\n", clock))
    assert set(sent) == {PLAYERS["France"], GM}
    assert "5 wrong passwords for France in alpha within 60 minutes, the last from " \
           "mallory@example.net" in sent[GM]
    notice = sent[PLAYERS["France"]]
    assert "the right password from it always works" in notice
    assert "UNLOCK France" in notice and "SET PASSWORD" in notice
    # the guesser's address is refused, even with the right password, without a check (and
    # without an answer)
    assert _unanswered(database, tmp_path, "mallory@example.net",
                       "SIGNON France alpha pwfrance\nA Par - Bur\n", clock) == []
    assert _failures(database, "mallory@example.net") == 5
    # the player, from the registered address, gets in with the right password
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Par - Bur\n", clock)
    assert "Signed on as France in alpha." in reply and "A Par - Bur  ->" in reply
    # from another address, France is slowed: one check ten minutes after the last failure
    reply = _send(database, tmp_path, "france@work.example",
                  "SIGNON France alpha pwfrance\n", clock)
    assert ("Sign-ons to France in alpha are slowed after 5 wrong passwords within 60 "
            "minutes") in reply
    assert "try again after 2026-03-01 12:14 UTC" in reply
    clock.set(START + timedelta(minutes=14))
    reply = _send(database, tmp_path, "france@work.example", "SIGNON France alpha pwfrance",
                  clock)
    assert "Signed on as France in alpha." in reply
    # other powers are not affected
    assert "Signed on as Italy in alpha." in _send(database, tmp_path, "italy@work.example",
                                                   "SIGNON Italy alpha pwitaly", clock)
    # an hour after the last answer, wrong passwords are checked and answered again
    clock.set(START + timedelta(minutes=63, seconds=1))
    reply = _send(database, tmp_path, "mallory@example.net", "SIGNON France alpha guess9",
                  clock)
    assert "Wrong password for France in alpha." in reply


def test_the_gm_lifts_the_throttling(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    clock = FixedClock(START)
    for attempt in range(4):
        _send(database, tmp_path, "mallory@example.net", f"SIGNON Italy alpha guess{attempt}",
              clock)
    _unanswered(database, tmp_path, "mallory@example.net", "SIGNON Italy alpha guess4", clock)
    # refused without a check (the count of wrong passwords stays), and not answered
    _unanswered(database, tmp_path, "mallory@example.net", "SIGNON Italy alpha pwitaly", clock)
    assert _failures(database, "mallory@example.net") == 5
    assert "are slowed" in _send(database, tmp_path, "italy@work.example",
                                 "SIGNON Italy alpha pwitaly", clock)
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nUNLOCK Italy", clock)
    assert "Sign-ons to Italy in alpha are no longer throttled" in reply
    assert "Signed on as Italy in alpha." in _send(database, tmp_path, "italy@work.example",
                                                   "SIGNON Italy alpha pwitaly", clock)
    # the guesser's passwords are checked again (its address gets no answers for the hour)
    _unanswered(database, tmp_path, "mallory@example.net", "SIGNON Italy alpha guess5", clock)
    assert _failures(database, "mallory@example.net") == 6
    # a player cannot UNLOCK; a new password (SET PASSWORD, REPLACE) lifts the counts too
    for attempt in range(4):
        _unanswered(database, tmp_path, "mallory@example.net",
                    f"SIGNON Italy alpha again{attempt}", clock)
    reply = _send(database, tmp_path, PLAYERS["Italy"],
                  "SIGNON Italy alpha pwitaly\nUNLOCK Italy\nSET PASSWORD pwitaly2", clock)
    assert "no longer throttled" not in reply and "Password of Italy in alpha changed." in reply
    assert "Signed on as Italy in alpha." in _send(database, tmp_path, "italy@work.example",
                                                   "SIGNON Italy alpha pwitaly2", clock)
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        unlocks = audit.audit_log(s, game_id=game.id, action="signon_unlocked")
    assert [(u.actor, u.details["power"]) for u in unlocks] == [
        (GM, "Italy"), (PLAYERS["Italy"], "Italy")]


def test_the_gm_is_never_locked_out(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    for attempt in range(4):
        reply, mail = send_all(database, tmp_path, "mallory@example.net",
                                f"SIGNON GM alpha guess{attempt}\nPROCESS\n")
        assert "Wrong GM password for alpha." in reply and "processed" not in reply
    mail = _unanswered(database, tmp_path, "mallory@example.net", "SIGNON GM alpha guess4\n")
    assert list(_by_recipient(mail)) == [GM]
    assert _unanswered(database, tmp_path, "mallory@example.net",
                       "SIGNON GM alpha gmpass\nPROCESS\n") == []
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS\n")
    assert "Signed on as the GM of alpha." in reply and "processed" in reply


# --------------------------------------------------------------------------------------------
# HELP on a variant


def test_help_on_a_variant_answers_with_its_rules(database: Database, tmp_path: Path) -> None:
    for name in registry.names():
        variant = registry.get_variant(name)
        reply = _send(database, tmp_path, "someone@example.org", f"HELP {variant.title}")
        if variant.help:
            assert variant.help.splitlines()[0] in reply
        else:
            assert "standard rules" in reply
    index = _send(database, tmp_path, "someone@example.org", "HELP")
    assert "HELP Standard" in index
