"""The GM's classic judge commands by mail through the real service (Maildir inbox and outbox,
`Service.once`, the tick), on SQLite and PostgreSQL: SET DEADLINE <date> moving the open
phase's deadline, FORCE BEGIN, UNSTART, SET [NO] MANUAL PROCESS, BECOME, SET CONCEDE, SET DRAW
<powers> and TAKEOVER."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

from gm.service.tick import Why
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.rows import PhaseRecord
from tests.service.test_service_gm_control import SETUP, Mail, _reply_to, _started, _text
from tests.support.service_support import GM, PLAYERS, SPRING_1901, START


def _phase(db: Database) -> PhaseRecord:
    with db.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        return phase


async def _ticked(mail: Mail, db: Database) -> list[tuple[str, str, str]]:
    return (await mail.tick()).adjudicated


async def test_set_deadline_with_a_date_moves_the_open_phase(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    assert _phase(database).deadline_at == START + timedelta(hours=72)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE 2026-03-02 18:00")
    reply = _reply_to(out, GM)
    assert ("Deadline of Spring 1901, Movement in theta moved to Mon 2026-03-02 18:00 UTC (it "
            "was Wed 2026-03-04 12:00 UTC). Every player was told.") in reply
    told = {to: _text(m) for to, m in out if not m["In-Reply-To"]}
    assert set(told) == {*PLAYERS.values(), GM}
    assert all("New deadline: Mon 2026-03-02 18:00 UTC." in text for text in told.values())
    assert all(str(m["Subject"]) == "[theta] Spring 1901, Movement: the deadline has moved"
               for to, m in out if not m["In-Reply-To"])
    assert _phase(database).deadline_at == datetime(2026, 3, 2, 18, 0, tzinfo=UTC)

    # in the game's time zone, written the njudge way (with its weekday) or without it
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET TIMEZONE Europe/Paris\n"
                              "SET DEADLINE Thu Mar 5 2026 18:00")
    assert "moved to Thu 2026-03-05 18:00 CET (17:00 UTC)" in _reply_to(out, GM)
    assert _phase(database).deadline_at == datetime(2026, 3, 5, 17, 0, tzinfo=UTC)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE March 4, 2026 09:30")
    assert "moved to Wed 2026-03-04 09:30 CET (08:30 UTC)" in _reply_to(out, GM)

    # the tick processes the phase at the moved deadline
    mail.clock.advance(timedelta(days=2, hours=20, minutes=29))
    assert await _ticked(mail, database) == []
    mail.clock.advance(timedelta(minutes=2))
    assert await _ticked(mail, database) == [("theta", "Spring 1901, Movement", Why.LATE)]


async def test_set_deadline_with_a_date_refusals(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    before = _phase(database).deadline_at
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE 2026-03-01 11:00")
    assert ('line 2: SET DEADLINE 2026-03-01 11:00: refused, Sun 2026-03-01 11:00 UTC is in the '
            "past (it is now Sun 2026-03-01 12:00 UTC); give a later time.") in _reply_to(out, GM)
    assert len(out) == 1
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Mon Dec 1 2026 18:00")
    assert ('Cannot read "SET DEADLINE Mon Dec 1 2026 18:00": "Mon Dec 1 2026": Dec 1 2026 '
            "is a Tuesday, not Mon") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Feb 30 2026 18:00")
    assert '"Feb 30 2026" is not a date' in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE next week")
    reply = _reply_to(out, GM)
    assert 'Cannot read "SET DEADLINE next week"' in reply
    assert "SET DEADLINE 2026-12-01 18:00" in reply  # the usage shows the date form
    # a date far ahead is refused with the range it may be in (no year 9999 deadline)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Dec 9 9999 18:00")
    assert ('line 2: SET DEADLINE Dec 9 9999 18:00: refused, "Dec 9 9999 18:00" (Thu '
            "9999-12-09 18:00) is too far ahead: give a date from now (2026-03-01) to "
            "2027-03-02.") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Dec 9")
    assert ('refused, "Dec 9" would be Wed 2026-12-09, more than 120 days ahead: give the '
            "year, month and day (Dec 9 2026).") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET GRACE Dec 9 9999")
    assert "is too far ahead: give a date from now (2026-03-01) to 2027-03-02." in _reply_to(
        out, GM)
    out = await mail.send(PLAYERS["France"],
                          "SIGNON France theta pwfrance\nSET DEADLINE 2026-03-05 18:00")
    assert "SET DEADLINE: refused, only the game's GM may do this" in _reply_to(
        out, PLAYERS["France"])
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPAUSE\nSET DEADLINE 2026-03-05 18:00")
    assert "refused, theta is paused; RESUME it first" in _reply_to(out, GM)
    assert _phase(database).deadline_at == before
    # the rule form is unchanged: it is for the phases to come
    out = await mail.send(GM, "SIGNON GM theta gmpass\nRESUME\nSET DEADLINE MOVEMENT 48h")
    assert ("Deadline of movement phases in theta: 2 days after the phase opens (from the next "
            "phase on).") in _reply_to(out, GM)
    assert _phase(database).deadline_at == before
    out = await mail.send(GM, "HELP DEADLINES")
    help_text = _reply_to(out, GM)
    assert "SET DEADLINE <date>            move the deadline of the phase open now" in help_text
    assert "SET GRACE <date>               when the grace period of the phase open now" \
        in help_text
    assert "SET DEADLINE <type> <time>     how long each phase lasts" in help_text


async def test_set_deadline_a_time_alone_is_this_phase_today(
        database: Database, tmp_path: Path) -> None:
    """njudge `data/deadlines`: a time alone is this phase's deadline, today; the phases to
    come keep the game's rule (72 hours for movement here)."""
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE 23:30")
    assert ("Deadline of Spring 1901, Movement in theta moved to Sun 2026-03-01 23:30 UTC (it "
            "was Wed 2026-03-04 12:00 UTC). Every player was told. This phase only: the phases "
            "to come keep the game's rule") in _reply_to(out, GM)
    assert all("New deadline: Sun 2026-03-01 23:30 UTC." in _text(m)
               for to, m in out if not m["In-Reply-To"])
    assert _phase(database).deadline_at == datetime(2026, 3, 1, 23, 30, tzinfo=UTC)
    mail.clock.advance(timedelta(hours=11, minutes=31))
    assert await _ticked(mail, database) == [("theta", "Spring 1901, Movement", Why.LATE)]
    fall = _phase(database)
    assert fall.deadline_at == fall.opened_at + timedelta(hours=72)  # the rule, as before
    # in a game not started there is no phase's deadline to move: the rule's form is named
    out = await mail.send(GM, "CREATE kappa standard gmpass\nSET DEADLINE 20:00")
    assert ("SET DEADLINE: kappa is forming; nothing to move the deadline of.\n(A time alone "
            "is the deadline of the phase open now; for the rule of every phase: SET DEADLINE "
            "ALL 20:00.)") in _reply_to(out, GM)


async def test_set_deadline_a_weekday_or_a_day_without_a_year(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)  # Sunday 2026-03-01 12:00 UTC
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE Tue")
    assert "moved to Tue 2026-03-03 23:30 UTC" in _reply_to(out, GM)  # no time: 23:30
    assert _phase(database).deadline_at == datetime(2026, 3, 3, 23, 30, tzinfo=UTC)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET DEADLINE MOVEMENT 20:00\n"
                              "SET DEADLINE Mar 9")  # no time: the phase type's time of day
    assert "moved to Mon 2026-03-09 20:00 UTC" in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET TIMEZONE Europe/Paris\n"
                              "SET DEADLINE 6 Mar 18:00")
    assert "moved to Fri 2026-03-06 18:00 CET (17:00 UTC)" in _reply_to(out, GM)
    assert _phase(database).deadline_at == datetime(2026, 3, 6, 17, 0, tzinfo=UTC)


async def test_set_grace_with_a_date_ends_this_phases_grace(
        database: Database, tmp_path: Path) -> None:
    """njudge's SET GRACE <date>: the open phase's grace period ends then; late powers are
    waited for until it does, and the next phase has the game's grace period again."""
    mail = Mail(database, tmp_path)
    await _started(mail)  # the deadline: Wed 2026-03-04 12:00 UTC; no grace period
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET GRACE Mar 3")
    assert ("refused, Tue 2026-03-03 23:30 UTC is before the deadline (Wed 2026-03-04 12:00 "
            "UTC); the grace period ends after it.") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET GRACE Thu 18:00")
    assert ("Grace period of Spring 1901, Movement in theta: until Thu 2026-03-05 18:00 UTC "
            "(the deadline is Wed 2026-03-04 12:00 UTC). This phase only") in _reply_to(out, GM)
    mail.clock.advance(timedelta(days=3, minutes=1))  # past the deadline, in the grace period
    assert await _ticked(mail, database) == []
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nA Par-Bur")
    assert "A Par-Bur" in _reply_to(out, PLAYERS["France"])  # still taken
    mail.clock.advance(timedelta(hours=30))  # Thu 18:01
    assert await _ticked(mail, database) == [("theta", "Spring 1901, Movement", Why.LATE)]
    fall = _phase(database)
    assert fall.deadline_at is not None
    # the game's grace period (none) again: late orders are refused at the deadline
    mail.clock.advance(fall.deadline_at - mail.clock.now() + timedelta(minutes=1))
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nA Bur-Mun")
    reply = _reply_to(out, PLAYERS["France"])
    assert "refused, the deadline" in reply and "grace period" not in reply


def _statuses(db: Database, name: str = "theta") -> tuple[str, dict[str, str]]:
    with db.read() as s:
        game = games_repo.find_game(s, name)
        assert game is not None
        return game.status.value, {p.name: p.status.value
                                   for p in powers_repo.list_powers(s, game.id)}


async def test_force_begin_starts_players_short_and_unstart_takes_it_back(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    two = ("CREATE theta standard gmpass\nADD France france@example.org pwfrance\n"
           "ADD Italy italy@example.org pwitaly\nSET EARLY ON\nSTART")
    out = await mail.send(GM, two)
    assert ("START: these powers have no player yet: Austria, England, Germany, Russia, Turkey "
            "(FORCE BEGIN starts without them, in civil disorder).") in _reply_to(out, GM)
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nFORCE BEGIN")
    assert "FORCE BEGIN: refused, only the game's GM may do this" in _reply_to(
        out, PLAYERS["France"])
    out = await mail.send(GM, "SIGNON GM theta gmpass\nFORCE BEGIN")
    assert ("theta has started: Spring 1901, Movement, deadline Wed 2026-03-04 12:00 UTC. In "
            "civil disorder (no player): Austria, England, Germany, Russia, Turkey."
            ) in _reply_to(out, GM)
    assert {to for to, m in out if "has started" in str(m["Subject"])} == {
        PLAYERS["France"], PLAYERS["Italy"], GM}
    status, powers = _statuses(database)
    assert status == "active"
    assert powers == {**{p: "civil_disorder" for p in PLAYERS}, "France": "playing",
                      "Italy": "playing"}
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nA Par - Bur")
    assert "Units without orders: A Mar, F Bre." in _reply_to(out, PLAYERS["France"])

    # UNSTART: forming again, the first phase and its orders gone, the players told
    out = await mail.send(GM, "SIGNON GM theta gmpass\nUNSTART")
    assert "theta is forming again" in _reply_to(out, GM)
    told = {to for to, m in out if str(m["Subject"]).endswith("the game is forming again")}
    assert told == {PLAYERS["France"], PLAYERS["Italy"], GM}
    status, powers = _statuses(database)
    assert status == "forming" and set(powers.values()) == {"playing"}
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        assert phases_repo.history(s, game.id) == []
        (entry,) = audit.audit_log(s, game_id=game.id, action="unstart")
        assert entry.details["discarded"][0]["orders"][0]["lines"][0][0] == "A Par - Bur"
    out = await mail.send(GM, "SIGNON GM theta gmpass\nUNSTART")
    assert "UNSTART: refused, theta is forming; only a started game" in _reply_to(out, GM)

    # started again short-handed: the two players' orders process it early
    out = await mail.send(GM, "SIGNON GM theta gmpass\nFORCE BEGIN")
    assert "theta has started" in _reply_to(out, GM)
    for power in ("France", "Italy"):
        body = "\n".join([f"SIGNON {power} theta pw{power.lower()}", *SPRING_1901[power]])
        await mail.send(PLAYERS[power], body)
    assert await _ticked(mail, database) == [("theta", "Spring 1901, Movement", Why.EARLY)]
    out = await mail.send(GM, "SIGNON GM theta gmpass\nUNSTART")
    assert "UNSTART: refused, a phase of theta has been processed already" in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nFORCE BEGIN")
    assert "FORCE BEGIN: theta is active, not forming." in _reply_to(out, GM)

    # nobody to play: refused
    out = await mail.send(GM, "CREATE empty standard gmpass\nFORCE BEGIN")
    assert "FORCE BEGIN: refused, empty has no player yet (ADD or JOIN first)." in _reply_to(
        out, GM)
    assert _statuses(database, "empty")[0] == "forming"


async def test_manual_process_holds_every_phase_for_the_gm(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    out = await mail.send(GM, SETUP.replace("SET EARLY OFF", "SET MANUAL PROCESS"))
    reply = _reply_to(out, GM)
    assert "Manual processing in theta: ON. No phase is processed until you send PROCESS" in reply
    for power, lines in SPRING_1901.items():
        await mail.send(PLAYERS[power], "\n".join(
            [f"SIGNON {power} theta pw{power.lower()}", *lines]))
    summary = await mail.tick()
    assert summary.adjudicated == [] and summary.notices == 1  # every power ordered: GM told
    assert (await mail.tick()).notices == 0  # once
    mail.clock.advance(timedelta(days=4))
    summary = await mail.tick()
    assert summary.adjudicated == [] and summary.notices == 0  # past the deadline: still held
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPROCESS")
    notice = [_text(m) for to, m in out
              if to == GM and str(m["Subject"]).endswith("ready for PROCESS")]
    assert len(notice) == 1
    assert "Spring 1901, Movement is ready for you to process." in notice[0]
    assert "Every power has its orders in." in notice[0]
    assert "Spring 1901, Movement of theta processed" in _reply_to(out, GM)

    # the Fall phase: nobody orders; past its deadline the GM is told who is missing
    mail.clock.advance(timedelta(days=3, minutes=1))
    summary = await mail.tick()
    assert summary.adjudicated == [] and summary.notices == 1
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET NO MANUAL PROCESS")
    assert ("Manual processing in theta: OFF. Phases are processed at their deadline"
            in _reply_to(out, GM))
    (notice_text,) = [_text(m) for to, m in out
                      if to == GM and str(m["Subject"]).endswith("ready for PROCESS")]
    assert ("Its deadline has passed; no orders yet from Austria, England, France, Germany, "
            "Italy, Russia and Turkey (their units would hold).") in " ".join(notice_text.split())
    assert await _ticked(mail, database) == [("theta", "Fall 1901, Movement", Why.LATE)]


def _orders_of(db: Database, power: str) -> list[str]:
    with db.read() as s:
        phase = _phase(db)
        found = orders_repo.latest_valid_orders(s, phase.id).get(power)
        return [] if found is None else [ln.text for ln in found.lines]


async def test_become_lets_the_gm_enter_a_powers_orders(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nA Par - Bur")
    assert ('"A Par - Bur": refused, you are signed on as the GM; BECOME <power> first to act '
            "for a power.") in _reply_to(out, GM)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nBECOME France\nA Par - Bur\n"
                              "A Mar - Spa\nPROCESS\nBECOME GM\nPREVIEW")
    reply = _reply_to(out, GM)
    assert "You stand in for France in theta" in reply
    assert "Orders of France for Spring 1901, Movement:" in reply
    assert "Units without orders: F Bre." in reply
    assert "PROCESS: refused, you stand in for France; BECOME GM first." in reply
    assert "Back to the GM of theta" in reply and "PREVIEW of theta" in reply
    assert _orders_of(database, "France") == ["A Par - Bur", "A Mar - Spa"]
    (told,) = [m for to, m in out if to == PLAYERS["France"]]
    assert str(told["Subject"]) == "[theta]: the GM entered orders for France"
    text = _text(told)
    assert "The GM of theta has entered orders for France for Spring 1901, Movement." in text
    assert "  A Par - Bur\n" in text and "  A Mar - Spa\n" in text
    assert {to for to, _ in out} == {GM, PLAYERS["France"]}  # no other player hears of it

    # after the deadline the player is refused, the GM standing in is not
    mail.clock.advance(timedelta(hours=73))
    out = await mail.send(PLAYERS["Italy"], "SIGNON Italy theta pwitaly\nA Ven - Pie")
    assert "has passed" in _reply_to(out, PLAYERS["Italy"])
    out = await mail.send(GM, "SIGNON GM theta gmpass\nBECOME italy\nA Ven - Pie\nCLEAR\n"
                              "A Rom - Apu")
    assert "Orders of Italy for Spring 1901, Movement:" in _reply_to(out, GM)
    assert _orders_of(database, "Italy") == ["A Rom - Apu"]
    # one mail at the message's end: the orders as they stand after the CLEAR
    (italy,) = [m for to, m in out if to == PLAYERS["Italy"]]
    assert "  A Rom - Apu\n" in _text(italy) and "A Ven - Pie" not in _text(italy)

    # refusals
    out = await mail.send(GM, "SIGNON GM theta gmpass\nBECOME Frnace")
    assert ("BECOME Frnace: refused, theta has no power called 'Frnace'; did you mean "
            "France?") in _reply_to(out, GM)
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nBECOME Italy")
    assert "BECOME Italy: refused, only the game's GM may do this" in _reply_to(
        out, PLAYERS["France"])
    out = await mail.send(GM, "BECOME Italy")
    assert "BECOME Italy: refused, only the game's GM may do this" in _reply_to(out, GM)
    out = await mail.send(GM, "HELP BECOME")
    help_gm = " ".join(_reply_to(out, GM).split())
    assert "BECOME <power> after SIGNON GM: the lines that follow are that power's" in help_gm
    assert ("From njudge: SET DEADLINE <date>, BECOME, FORCE BEGIN, UNSTART, SET [NO] MANUAL "
            "PROCESS, SET DRAW <powers> and SET CONCEDE <power> work as there.") in help_gm
    assert "by TAKEOVER with the password of SET TAKEOVER" in help_gm


async def _as(mail: Mail, power: str, line: str) -> str:
    address = PLAYERS[power]
    return _reply_to(await mail.send(address, f"SIGNON {power} theta pw{power.lower()}\n{line}"),
                     address)


async def test_set_draw_among_named_powers(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    # a game is DIAS unless its GM says otherwise (njudge data/draws): no list of powers
    assert ("SET DRAW Italy, France: refused, theta is DIAS (a draw includes all survivors): "
            "vote with SET DRAW alone; a draw of some powers only needs the GM's SET NODIAS."
            ) in await _as(mail, "France", "SET DRAW Italy, France")
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET NODIAS")
    assert "theta is NoDIAS: a draw may be of some powers only" in _reply_to(out, GM)
    assert "France votes for a draw among France, Italy." in await _as(
        mail, "France", "SET DRAW Italy, France")
    assert "Italy votes for a draw among France, Italy." in await _as(
        mail, "Italy", "SET DRAW italy and france")
    reply = await _as(mail, "Austria", "SET DRAW France, Xq")
    assert ("SET DRAW France, Xq: refused, Xq is not a power of theta; name surviving "
            "powers: Austria, England, France, Germany, Italy, Russia, Turkey.") in reply
    for power in ("Austria", "England", "Germany", "Russia"):
        await _as(mail, power, "SET DRAW France Italy")
    # Turkey votes for a draw of all survivors: not the same draw, the game goes on
    assert "Turkey votes for a draw." in await _as(
        mail, "Turkey", "SET DRAW")
    assert _statuses(database)[0] == "active"
    out = await mail.send(PLAYERS["Turkey"], "SIGNON Turkey theta pwturkey\n"
                                             "SET DRAW France, Italy")
    assert ("Every surviving power has voted for a draw: theta ends in a draw shared by France, "
            "Italy.") in _reply_to(out, PLAYERS["Turkey"])
    told = {to: _text(m) for to, m in out if str(m["Subject"]).endswith("ends in a draw")}
    assert set(told) == {*PLAYERS.values(), GM}
    assert "The draw is shared by:\n  France\n  Italy\n" in told[GM]
    assert _statuses(database)[0] == "finished"
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        (entry,) = audit.audit_log(s, game_id=game.id, action="draw")
        assert entry.details["powers"] == ["France", "Italy"]


async def test_set_concede_ends_the_game_with_a_winner(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    assert "SET CONCEDE Turkey: refused, a power cannot concede to itself." in await _as(
        mail, "Turkey", "SET CONCEDE Turkey")
    assert "refused, Turky is not a power of theta; did you mean Turkey?" in await _as(
        mail, "Italy", "SET CONCEDE Turky")
    for power in ("Austria", "England", "France", "Germany", "Italy"):
        assert f"{power} concedes the game to Turkey." in await _as(
            mail, power, "SET CONCEDE turkey")
    assert "Italy does not concede." in await _as(mail, "Italy", "SET NO CONCEDE")
    assert "Russia concedes the game to Turkey." in await _as(mail, "Russia", "SET CONCEDE Turkey")
    assert _statuses(database)[0] == "active"  # Italy took its concession back
    out = await mail.send(PLAYERS["Italy"], "SIGNON Italy theta pwitaly\nSET CONCEDE Turkey")
    assert ("Every other surviving power has conceded: theta ends with Turkey the winner."
            in _reply_to(out, PLAYERS["Italy"]))
    told = {to: _text(m) for to, m in out if str(m["Subject"]).endswith("wins by concession")}
    assert set(told) == {*PLAYERS.values(), GM}
    assert "theta ends in Spring 1901, Movement: Turkey wins by concession." in told[GM]
    assert _statuses(database)[0] == "finished"


async def test_takeover_of_a_power_nobody_plays(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    newcomer = "newcomer@example.org"
    await mail.send(GM, "CREATE theta standard gmpass\nADD France france@example.org pwfrance\n"
                        "ADD Italy italy@example.org pwitaly\nFORCE BEGIN")
    out = await mail.send(newcomer, "TAKEOVER Turkey theta opensesame mine")
    assert ("TAKEOVER: theta takes no takeovers (its GM has not allowed them; ask the GM)."
            in _reply_to(out, newcomer))
    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET TAKEOVER opensesame")
    reply = _reply_to(out, GM)
    assert "Takeovers in theta: ON." in reply and "opensesame" not in reply

    out = await mail.send(newcomer, "TAKEOVER Turkey theta guess mine\nA Con - Bul")
    reply = _reply_to(out, newcomer)
    assert "TAKEOVER: wrong takeover password for theta (the GM gives it out)." in reply
    assert "guess" not in reply and "mine" not in reply
    out = await mail.send(newcomer, "TAKEOVER France theta opensesame mine")
    assert ("TAKEOVER: France has a player; powers to take over: Austria, England, Germany, "
            "Russia, Turkey.") in _reply_to(out, newcomer)
    # njudge's way, a SIGNON to the vacant power with the takeover password: told what to send
    out = await mail.send(newcomer, "SIGNON England theta opensesame\nF Lon - NTH")
    reply = _reply_to(out, newcomer)
    assert ("England in theta has no player: to take it over with the takeover password, send "
            "TAKEOVER England theta <takeover password> <your own password>") in reply
    assert "opensesame" not in reply

    out = await mail.send(newcomer, "TAKEOVER Turkey theta opensesame mine\nA Con - Bul")
    reply = _reply_to(out, newcomer)
    assert "You took over Turkey in theta" in reply and "Orders of Turkey" in reply
    assert "opensesame" not in reply and "mine" not in reply
    (told,) = [_text(m) for to, m in out if to == GM]
    assert f"{newcomer} took over Turkey in theta with the takeover password" in told
    assert _orders_of(database, "Turkey") == ["A Con - Bul"]
    assert _statuses(database)[1]["Turkey"] == "playing"
    out = await mail.send(newcomer, "SIGNON Turkey theta mine\nA Smy - Arm")
    assert "Signed on as Turkey in theta." in _reply_to(out, newcomer)
    out = await mail.send(newcomer, "SIGNON Turkey theta opensesame")
    assert "Wrong password for Turkey in theta." in _reply_to(out, newcomer)

    out = await mail.send(GM, "SIGNON GM theta gmpass\nSET NO TAKEOVER")
    assert "Takeovers in theta: OFF." in _reply_to(out, GM)
    out = await mail.send("other@example.org", "TAKEOVER England theta opensesame theirs")
    assert "theta takes no takeovers" in _reply_to(out, "other@example.org")
    assert _statuses(database)[1]["England"] == "civil_disorder"
    # SUMMARY's players over time name the takeover
    out = await mail.send(GM, "SUMMARY theta")
    assert f"{newcomer} from" in _reply_to(out, GM) and "(TAKEOVER)" in _reply_to(out, GM)
