"""njudge's forms of gm's commands by mail through the real service (Maildir inbox and outbox,
`Service.once`, the tick), on SQLite and PostgreSQL: CREATE ?game, SIGNON O<game> and OBSERVE
<game> <password>, BECOME MASTER, LIST / SUMMARY / HISTORY alone after a sign-on, LIST FULL and
a game's LIST with its deadline and settings, HISTORY ... FROM <date>, ROLLBACK [n], SET
[NO] NMR, SET PREFERENCE, EJECT <address> and PROMOTE."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from gm.service.tick import Why
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from tests.service.test_service_gm_control import SETUP, Mail, _reply_to, _started, _text
from tests.support.service_support import GM, PLAYERS, SPRING_1901

WATCHER = "watcher@example.org"


def _players(db: Database, name: str = "theta") -> dict[str, tuple[str, ...]]:
    with db.read() as s:
        game = games_repo.find_game(s, name)
        assert game is not None
        return {p.name: p.addresses for p in powers_repo.list_powers(s, game.id)}


async def test_create_observe_and_become_master_the_njudge_way(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    out = await mail.send(GM, "CREATE ?alpha s3cret\nBECOME MASTER")
    reply = _reply_to(out, GM)
    assert "Game alpha (Standard) created; you are its GM." in reply
    assert "Written njudge's way: here CREATE makes you the GM at once" in reply
    assert "BECOME MASTER: you are the GM of alpha already" in reply
    assert "s3cret" not in reply
    out = await mail.send(GM, "CREATE ?beta s3cret Deluge II\nSIGNON Mbeta s3cret")
    reply = _reply_to(out, GM)
    assert "Game beta (Deluge II) created; you are its GM." in reply
    assert "Signed on as the GM of beta." in reply

    # njudge's observer sign-on asks as OBSERVE does (confirmed from the address); once
    # confirmed, the lines after it are the observer's
    out = await mail.send(WATCHER, "SIGNON Oalpha pw")
    reply = _reply_to(out, WATCHER)
    assert "An observer of alpha needs no password here" in reply
    code = re.search(r"OBSERVE alpha CONFIRM (\S+)", reply)
    assert code is not None, reply
    out = await mail.send(WATCHER, f"OBSERVE alpha CONFIRM {code.group(1)}")
    assert "You observe alpha: you will get the report of every phase." in _reply_to(
        out, WATCHER)
    assert any("a new observer" in str(m["Subject"]) for to, m in out if to == GM)
    out = await mail.send(WATCHER, "SIGNON Oalpha pw\nSET PICTURES NONE\nSUMMARY\nLIST")
    reply = _reply_to(out, WATCHER)
    assert "Signed on as an observer of alpha" in reply
    assert "Your reports of alpha (to watcher@example.org) carry no pictures" in reply
    assert "alpha: Standard, forming, not started." in reply  # SUMMARY: the game signed on to
    assert "alpha: Standard, forming, not started\n" in reply  # LIST: the same game's details
    assert "Games:" not in reply
    out = await mail.send("other@example.org", "OBSERVE beta sesame42")
    reply = _reply_to(out, "other@example.org")
    assert "OBSERVE beta CONFIRM" in reply and "needs no password" in reply
    assert "sesame42" not in reply

    # njudge's SIGNON ?<game> <password> <variant>: the variant must be the game's
    out = await mail.send(PLAYERS["Austria"], "SIGNON ?beta pwa standard")
    assert ("JOIN: beta plays Deluge II, not 'standard' (njudge's SIGNON ?beta <password> "
            "<variant> names the game's own variant") in _reply_to(out, PLAYERS["Austria"])
    out = await mail.send(PLAYERS["Austria"], "SIGNON ?beta pwa Deluge II")
    assert "You joined beta as Austria." in _reply_to(out, PLAYERS["Austria"])

    # a player's BECOME MASTER: the game has its GM; nobody signed on: told to sign on
    out = await mail.send(PLAYERS["France"], "JOIN France alpha pwfr\n"
                                             "SIGNON France alpha pwfr\nBECOME MASTER")
    reply = _reply_to(out, PLAYERS["France"])
    assert ("BECOME MASTER: refused, alpha has its GM already: here whoever CREATEs a game is "
            "its GM from the start") in reply
    out = await mail.send(PLAYERS["Italy"], "BECOME MASTER")
    assert "BECOME MASTER: refused, sign on first" in _reply_to(out, PLAYERS["Italy"])
    help_gm = " ".join(_reply_to(await mail.send(GM, "HELP GM"), GM).split())
    assert "CREATE ?<game> <password> [<variant>] njudge's order" in help_gm
    assert "BECOME MASTER njudge's way to become a game's master" in help_gm


async def test_list_summary_and_history_of_the_signed_on_game(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "CREATE ?other s3cret\nSET QUIET")
    assert "other is QUIET" in _reply_to(out, GM)
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nLIST\nSUMMARY\n"
                                             "HISTORY")
    reply = _reply_to(out, PLAYERS["France"])
    assert ("theta: Standard, active, Spring 1901, Movement\n"
            "  Deadline: Wed 2026-03-04 12:00 UTC; grace: none\n"
            "  Settings: press ALL; late orders HOLD; early processing OFF; DIAS; rulebook "
            "2000; time zone UTC\n"
            "  Austria: taken, playing\n") in reply
    assert "Press: ALL; late orders: HOLD\nPictures in the reports: INLINE" in reply
    assert "History of theta (Standard):" in reply
    assert "Spring 1901, Movement: open for orders" in reply
    assert "Games:" not in reply
    # LIST FULL: every game's details; LIST alone before any SIGNON: the list of games
    out = await mail.send(PLAYERS["Italy"], "LIST FULL")
    reply = _reply_to(out, PLAYERS["Italy"])
    assert "theta: Standard, active, Spring 1901, Movement\n" in reply
    assert ("other: Standard, forming, not started\n"
            "  Deadlines: movement 3 days, retreat 1 day, adjustment 1 day; grace: none\n"
            "  Settings: press ALL; late orders HOLD; early processing ON; DIAS; rulebook 2000;"
            " time zone UTC; QUIET\n") in reply
    out = await mail.send(PLAYERS["Italy"], "LIST\nSUMMARY\nHISTORY")
    reply = _reply_to(out, PLAYERS["Italy"])
    assert "Games:\n  other: Standard, forming\n  theta: Standard, active" in reply
    assert ("SUMMARY: which game? SUMMARY alone means the game you signed on to on a line "
            "before (SIGNON, or OBSERVE <game> for an observer); else name it: SUMMARY mygame"
            ) in reply
    assert "HISTORY: which game?" in reply
    # SUMMARY of a QUIET game: the settings on their own lines
    out = await mail.send(GM, "SIGNON GM other s3cret\nSUMMARY")
    assert ("Press: ALL; late orders: HOLD; QUIET\nPictures in the reports: INLINE"
            in _reply_to(out, GM))
    help_games = " ".join(_reply_to(await mail.send(GM, "HELP LIST"), GM).split())
    assert "LIST FULL the details of every game" in help_games
    assert "SUMMARY after a SIGNON (or OBSERVE <game>) line: that game's summary" in help_games


async def _processed_spring(mail: Mail) -> None:
    await _started(mail)
    for power, lines in SPRING_1901.items():
        await mail.send(PLAYERS[power], "\n".join(
            [f"SIGNON {power} theta pw{power.lower()}", *lines]))
    mail.clock.advance(timedelta(hours=73))  # Wed 2026-03-04 13:00 UTC
    assert (await mail.tick()).adjudicated == [("theta", "Spring 1901, Movement", Why.DEADLINE)]


async def test_history_by_njudges_dates(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _processed_spring(mail)

    async def history(line: str) -> str:
        return _reply_to(await mail.send(WATCHER, line), WATCHER)

    mail.clock.advance(timedelta(hours=2))  # 15:00; Spring 1901 was processed at 13:00
    reply = await history("HISTORY theta FROM Mar 4, 2026 14:00")
    assert "Fall 1901, Movement: open for orders" in reply and "Spring 1901" not in reply
    reply = await history("HISTORY theta TO 2 Mar 2026")
    assert "Spring 1901, Movement" in reply and "Fall 1901" not in reply
    reply = await history("HISTORY theta FROM Sun")  # Sunday 1 March: the whole game
    assert "Spring 1901, Movement" in reply and "Fall 1901, Movement" in reply
    reply = await history("HISTORY theta FROM Mar 5 2026 TO Mar 1 2026")
    assert "ends before it begins; give the earlier date after FROM" in reply
    reply = await history("HISTORY theta FROM Jan 1 1990 TO Jan 2 1990")
    assert "HISTORY: no phase of theta was open in that time" in reply
    reply = await history("HISTORY theta EXCLSTART F1901M BROAD")
    assert "Spring 1901, Movement" in reply and "Fall 1901" not in reply
    reply = await history("HISTORY theta EXCLSTART S1899M EXCLEND S1901M")
    assert "Fall 1901, Movement" in reply and "Spring 1901" not in reply
    reply = await history("HISTORY theta LINES 3")
    assert "Spring 1901, Movement\n" in reply and "Fall 1901, Movement:" not in reply
    assert ("(Cut here: a reply holds at most the 3 lines asked for "
            "(LINES) of history. HISTORY theta FROM Fall 1901, Movement gives the rest.)"
            ) in " ".join(reply.split())
    # after a sign-on, the signed-on game's
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nHISTORY LAST 1")
    reply = _reply_to(out, PLAYERS["France"])
    assert "Fall 1901, Movement: open for orders" in reply and "Spring 1901" not in reply
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nHISTORY FROM Mon")
    reply = _reply_to(out, PLAYERS["France"])  # Monday 2 March, 00:00: both phases were open
    assert "Spring 1901, Movement" in reply and "Fall 1901, Movement" in reply
    reply = await history("HISTORY theta FROM Feb 30 2026")
    assert 'Cannot read "HISTORY theta FROM Feb 30 2026": "Feb 30 2026" is not a date' in reply


async def test_rollback_by_turn_number_or_one_phase_back(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _processed_spring(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK 5")
    assert ("ROLLBACK: theta has no phase 5 to go back to (its phases by number: 1 Spring "
            "1901, Movement, 2 Fall 1901, Movement).") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK 2")
    assert "ROLLBACK: Fall 1901, Movement is the current phase of theta already." in _reply_to(
        out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK")
    reply = _reply_to(out, GM)
    assert "theta is back at the start of Spring 1901, Movement" in reply
    assert {to for to, m in out if "rolled back" in str(m["Subject"])} >= set(PLAYERS.values())
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK")
    assert ("ROLLBACK: theta is at its first phase; there is none before it (UNSTART takes the "
            "game back to forming).") in _reply_to(out, GM)
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nROLLBACK 1")
    assert "ROLLBACK: refused, only the game's GM may do this" in _reply_to(
        out, PLAYERS["France"])
    # the same phase again by number, from a later one
    mail.clock.advance(timedelta(hours=73))  # its orders stand: processed at its deadline
    assert (await mail.tick()).adjudicated == [("theta", "Spring 1901, Movement", Why.DEADLINE)]
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK 1")
    assert "theta is back at the start of Spring 1901, Movement" in _reply_to(out, GM)


async def test_set_nmr_and_nonmr_are_late_hold_and_wait(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET NONMR\nLIST")
    reply = _reply_to(out, GM)
    assert "Late orders in theta: WAIT (the phase waits for every power's orders)." in reply
    assert "(njudge's SET NMR is SET LATE HOLD here, SET NONMR is SET LATE WAIT" in reply
    assert "late orders WAIT" in reply  # LIST of the signed-on game
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nSET NMR")
    assert "SET LATE: refused, only the game's GM may do this" in _reply_to(
        out, PLAYERS["France"])
    mail.clock.advance(timedelta(hours=73))
    assert (await mail.tick()).adjudicated == []  # NONMR: no power ordered, the phase waits
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET CD")
    assert "Late orders in theta: HOLD (late powers' units hold)." in _reply_to(out, GM)
    assert (await mail.tick()).adjudicated == [("theta", "Spring 1901, Movement", Why.LATE)]


async def test_set_preference_after_an_njudge_sign_on_to_a_forming_game(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    out = await mail.send(GM, "CREATE theta standard gmpass\nADD France france@example.org "
                              "pwfrance")
    newbie, second = "newbie@example.org", "second@example.org"
    out = await mail.send(newbie, "SIGNON ?theta mine\nSET PREFERENCE F[EG]R")
    reply = _reply_to(out, newbie)
    assert "You joined theta as Austria." in reply
    assert ("You gave back Austria in theta: you get a power at START by your preferences "
            "instead (same password).") in reply
    assert "Your preferences in theta: France, England, Germany, Russia." in reply
    assert "powers in brackets are taken in the order written" in reply
    assert "mine" not in reply
    assert any(f"{newbie} gave preferences in theta: France, England, Germany, Russia"
               in _text(m) for to, m in out if to == GM)
    assert _players(database)["Austria"] == ()
    # the same address again: one power per address (SET MULTIPLE), the reply says what to
    # write instead; another player's unknown letters are refused with what is read
    out = await mail.send(newbie, "SIGNON ?theta mine\nSET PREFERENCE Xq")
    assert "JOIN <game> <password> PREFER <powers>" in _reply_to(out, newbie)
    out = await mail.send("third@example.org", "SIGNON ?theta mine\nSET PREFERENCE Xq")
    assert ("SET PREFERENCE Xq: 'Xq' is not a power of the game; write the powers' letters"
            in _reply_to(out, "third@example.org"))
    out = await mail.send(second, "SIGNON ?theta theirs\nSET PREFERENCE Italy, Turkey")
    reply = _reply_to(out, second)
    assert "Your preferences in theta: Italy, Turkey." in reply and "brackets" not in reply
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nSET PREFERENCE *")
    assert ("SET PREFERENCE *: refused, the GM gave you France (ADD); ask the GM to change it."
            in _reply_to(out, PLAYERS["France"]))
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET PREFERENCE FGR")
    assert "refused, preferences are a player's" in _reply_to(out, GM)
    out = await mail.send("stranger@example.org", "SET PREFERENCE FGR")
    assert "refused, it follows your sign-on to a game that is forming" in _reply_to(
        out, "stranger@example.org")
    out = await mail.send(GM, "SIGNON GM theta gmpass\nFORCE BEGIN")
    assert "theta has started" in _reply_to(out, GM)
    seats = _players(database)
    assert seats["France"] == (PLAYERS["France"],)
    assert seats["England"] == (newbie,)  # France was the GM's: the next preference
    assert seats["Italy"] == (second,)
    out = await mail.send(newbie, "SIGNON England theta mine")  # the password JOIN gave
    assert "Signed on as England in theta." in _reply_to(out, newbie)
    out = await mail.send(newbie, "SIGNON England theta mine\nSET PREFERENCE R")
    assert "refused, theta has started and its powers are given" in _reply_to(out, newbie)


async def _observing(mail: Mail) -> None:
    """WATCHER observes theta (asked, then confirmed from the address)."""
    asked = _reply_to(await mail.send(WATCHER, "OBSERVE theta"), WATCHER)
    code = re.search(r"OBSERVE theta CONFIRM (\S+)", asked)
    assert code is not None, asked
    await mail.send(WATCHER, f"OBSERVE theta CONFIRM {code.group(1)}")


async def test_eject_by_address_and_promote(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    await _observing(mail)
    out = await mail.send(GM, f"SIGNON GM theta gmpass\nEJECT <{WATCHER}>\n"
                              f"EJECT {PLAYERS['Italy']}\nEJECT {GM}\nEJECT nobody@example.org\n"
                              f"PROMOTE {PLAYERS['France']}")
    reply = _reply_to(out, GM)
    assert "Observers of theta: none." in reply
    assert "Italy in theta has no player now and is in civil disorder" in reply
    assert f"EJECT {GM}: refused, that is the GM's address" in reply
    assert ("EJECT nobody@example.org: nobody at nobody@example.org plays a power of theta or "
            "observes it") in reply
    assert (f"PROMOTE {PLAYERS['France']}: nothing was done; a game here has one GM, so "
            f"{PLAYERS['France']} cannot be made a second one (njudge's PROMOTE). What gm "
            "offers: whoever has the GM password signs on as the GM of theta from any "
            "address") in reply
    told = {to: str(m["Subject"]) for to, m in out if not m["In-Reply-To"]}
    assert told[WATCHER] == "[theta]: you no longer observe the game"
    assert told[PLAYERS["Italy"]] == "[theta]: you no longer play Italy"
    assert _players(database)["Italy"] == ()
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nPROMOTE x@y.org\n"
                                             f"EJECT {PLAYERS['Germany']}")
    reply = _reply_to(out, PLAYERS["France"])
    assert "PROMOTE: refused, only the game's GM may do this" in reply
    assert f"EJECT {PLAYERS['Germany']}: refused, only the game's GM may do this" in reply
    help_gm = " ".join(_reply_to(await mail.send(GM, "HELP PROMOTE"), GM).split())
    assert "EJECT <address> njudge's form" in help_gm and "PROMOTE <address>" in help_gm
    assert SETUP  # the game set up as the other GM tests set it up


async def test_eject_of_an_observer_of_a_finished_game_is_refused_and_tells_them_nothing(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    await _observing(mail)
    await mail.send(GM, "SIGNON GM theta gmpass\nTERMINATE")
    out = await mail.send(GM, f"SIGNON GM theta gmpass\nEJECT <{WATCHER}>")
    reply = _reply_to(out, GM)
    assert f"EJECT {WATCHER}: refused" in reply and "finished" in reply, reply
    assert not [m for to, m in out if to == WATCHER], "the observer was told of a refused EJECT"
