"""PREVIEW, ROLLBACK, the game-start notice and the operator's shunt notice, by mail through the
real service (Maildir inbox and outbox, `Service.once`), on SQLite and PostgreSQL."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

from gm.config import Config
from gm.mail.maildir import ensure_maildir
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.service.tick import TickSummary, Why, tick
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.passwords import hash_password
from gm.store.statuses import GameStatus
from tests.support.raw_mail import LazyMail
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    maildir_config,
    message,
    unwrapped,
)

OPERATOR = "postmaster@example.org"
SETUP = "\n".join(
    ["CREATE theta standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["SET EARLY OFF", "START"]  # the phase stays open however many orders come
)


class Mail:
    """The service with a Maildir inbox and outbox: send a message, run one pass, read what
    came out since the last pass."""

    def __init__(self, db: Database, root: Path) -> None:
        base = maildir_config(root)
        self.config = Config(data_dir=base.data_dir, address=base.address,
                             display_name=base.display_name, maildir=base.maildir,
                             operator=OPERATOR)
        self.db = db
        self.clock = FixedClock(START)
        self.seen: set[str] = set()
        self.serial = 0
        ensure_maildir(self.config.maildir.inbox)

    async def tick(self) -> TickSummary:
        """The running service's tick: it has read its (empty) inbox up to now, as it does all
        the time, then ticks."""
        await Service(self.db, self.config, clock=self.clock).once()
        return tick(self.db, config=self.config, clock=self.clock)

    async def send(self, sender: str, body: str) -> list[tuple[str, EmailMessage]]:
        self.serial += 1
        name = f"{self.serial:06d}.test.localhost"
        inbox = self.config.maildir.inbox
        (inbox / "tmp" / name).write_bytes(message(sender, body))
        (inbox / "tmp" / name).rename(inbox / "new" / name)
        done = await Service(self.db, self.config, clock=self.clock).once()
        assert [r.outcome for r in done] in ([Disposition.ANSWERED], [Disposition.SHUNTED])
        out = []
        for path in sorted((self.config.maildir.outbox / "new").iterdir()):
            if path.name not in self.seen:
                self.seen.add(path.name)
                msg = LazyMail(path.read_bytes())  # the body parsed when first read
                out.append((str(msg["To"]).strip("<>"), msg))
        return out


def _text(msg: EmailMessage) -> str:
    part = msg.get_body(preferencelist=("plain",))
    assert part is not None
    return unwrapped(str(part.get_content()))


def _reply_to(mail: list[tuple[str, EmailMessage]], sender: str) -> str:
    replies = [m for to, m in mail if to == sender and m["In-Reply-To"]]
    assert len(replies) == 1, [str(m["Subject"]) for _, m in mail]
    return _text(replies[0])


async def _started(mail: Mail) -> list[tuple[str, EmailMessage]]:
    out = await mail.send(GM, SETUP)
    assert "theta has started: Spring 1901, Movement" in _reply_to(out, GM)
    return out


async def _orders(mail: Mail, orders: dict[str, list[str]]) -> None:
    for power, lines in orders.items():
        body = "\n".join([f"SIGNON {power} theta pw{power.lower()}", *lines])
        reply = _reply_to(await mail.send(PLAYERS[power], body), PLAYERS[power])
        assert "Units without orders: none." in reply, reply


def _stored(db: Database) -> tuple[list[int], dict[int, dict[str, list[str]]]]:
    """The game's phase indexes and, per phase, each power's current order lines."""
    with db.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phases = phases_repo.history(s, game.id)
        orders = {p.index: {power: [ln.text for ln in o.lines] for power, o in
                            orders_repo.latest_valid_orders(s, p.id).items()} for p in phases}
        return [p.index for p in phases], orders


async def test_start_tells_every_power_and_the_gm(database: Database, tmp_path: Path) -> None:
    out = await _started(Mail(database, tmp_path))
    started = [(to, m) for to, m in out if str(m["Subject"]).endswith("the game has started")]
    notices = {to: _text(m) for to, m in started}
    assert set(notices) == {*PLAYERS.values(), GM} and len(started) == len(notices)
    assert all(str(m["Subject"]) == "[theta] Spring 1901, Movement: the game has started"
               and not m["In-Reply-To"] for to, m in started)
    for power, address in PLAYERS.items():
        assert f"You play {power}." in notices[address]
        assert f"SIGNON {power} theta <your password>" in notices[address]
        assert "pw" + power.lower() not in notices[address]  # passwords never echoed
        assert "The first phase is Spring 1901, Movement." in notices[address]
    # the starting position (Rulebook: the 1901 units)
    assert "Your units: A Mar, A Par, F Bre." in notices[PLAYERS["France"]]
    assert "Your supply centres: Bre, Mar, Par." in notices[PLAYERS["France"]]
    assert "You are its GM" in notices[GM] and "gmpass" not in notices[GM]
    # one message each: no player sees another's address
    assert all(len(str(m["To"]).split(",")) == 1 for _, m in out)


async def test_preview_answers_the_gm_only_and_stores_nothing(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    await _orders(mail, {p: SPRING_1901[p] for p in ("France", "Russia", "Turkey")})
    before = _stored(database)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPREVIEW")
    assert [to for to, _ in out] == [GM]  # the GM's reply and nothing else
    text = _reply_to(out, GM)
    assert "PREVIEW of theta, Spring 1901, Movement" in text
    assert "Nothing is adjudicated or stored" in text
    assert "A Par - Bur" in text
    assert "F Sev - BLA  (fails" in text and "F Ank - BLA  (fails" in text  # they bounce
    assert ("No orders yet from: Austria, England, Germany, Italy (their units would hold)."
            in text)
    assert "The next phase would be Fall 1901, Movement." in text
    assert _stored(database) == before  # no phase adjudicated, no order changed
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None and not phase.adjudicated and phase.index == 0
    # a player may not preview, and neither may a wrong GM password
    out = await mail.send(PLAYERS["France"], "SIGNON France theta pwfrance\nPREVIEW")
    assert "PREVIEW: refused, only the game's GM may do this" in _reply_to(out,
                                                                          PLAYERS["France"])
    out = await mail.send(GM, "SIGNON GM theta wrong\nPREVIEW")
    text = _reply_to(out, GM)
    assert "PREVIEW of" not in text and "A Par - Bur" not in text


async def test_rollback_reopens_the_phase_and_tells_everyone(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    await _orders(mail, SPRING_1901)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPROCESS")
    assert "Spring 1901, Movement of theta processed" in _reply_to(out, GM)
    await _orders(mail, {"France": ["A Bur - Mun", "A Spa - Por", "F MAO - Bre"]})
    assert _stored(database)[0] == [0, 1]

    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK S1901M")
    reply = _reply_to(out, GM)
    assert "theta is back at the start of Spring 1901, Movement" in reply
    assert "every player was told" in reply
    notices = {to: _text(m) for to, m in out if not m["In-Reply-To"]}
    assert set(notices) == {*PLAYERS.values(), GM}
    for text in notices.values():
        assert "rolled the game back to the start of Spring 1901, Movement" in text
        assert ("processed at its deadline, or when the GM processes it. Deadline: "
                in " ".join(text.split()))  # SET EARLY OFF: no early processing to mention
        assert "\n\n-- \nJudge" in text
    indexes, orders = _stored(database)
    assert indexes == [0]  # the Fall phase and its orders are gone
    assert orders[0]["France"] == SPRING_1901["France"]  # the phase's own orders stand
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None and not phase.adjudicated
        assert phase.state.unit_in("Par") is not None and phase.state.unit_in("Bur") is None
        (entry,) = audit.audit_log(s, game_id=game.id, action="rollback")
        discarded = entry.details["discarded"]
        assert [d["index"] for d in discarded] == [0, 1]
        assert discarded[1]["orders"][0]["lines"][0][0] == "A Bur - Mun"  # kept in the log

    # the game goes on from there: new orders, processed again
    await _orders(mail, {"France": ["A Par - Pic", "A Mar - Spa", "F Bre - MAO"]})
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPROCESS")
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None and phase.index == 1
        pic = phase.state.unit_in("Pic")
        assert pic is not None and pic.power == "France"


async def test_rollback_refusals(database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    await _started(mail)
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK F1905M")
    assert ("ROLLBACK: theta has no phase 'F1905M' (its phases: Spring 1901, Movement)."
            in _reply_to(out, GM))
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK Spring 1901, Movement")
    assert ("ROLLBACK: Spring 1901, Movement is the current phase of theta already."
            in _reply_to(out, GM))
    out = await mail.send(PLAYERS["Italy"], "SIGNON Italy theta pwitaly\nROLLBACK S1901M")
    assert "ROLLBACK: refused, only the game's GM may do this" in _reply_to(out,
                                                                           PLAYERS["Italy"])
    assert len(out) == 1
    assert _stored(database)[0] == [0]


async def test_the_operator_is_told_of_a_shunted_message(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    # a game whose stored variant this gm does not know: running its commands fails
    with database.transaction() as s:
        games_repo.create_game(s, name="broken", variant="no-such-variant", gm_address=GM,
                               gm_password_hash=hash_password("gmpass"), now=START)
    out = await mail.send(GM, "SIGNON GM broken gmpass\nSTART")
    by_to = {to: _text(m) for to, m in out if to == OPERATOR}
    assert set(by_to) == {OPERATOR}
    text = by_to[OPERATOR]
    assert "could not be processed and was kept" in text and "no-such-variant" in text
    assert "gm shunt replay" in text and "gmpass" not in text
    (notice,) = [m for to, m in out if to == OPERATOR]
    assert "was shunted" in str(notice["Subject"])
    assert len(out) == 3  # the apology, the GM's notice, the operator's
    with database.read() as s:
        game = games_repo.find_game(s, "broken")
        assert game is not None and game.status is GameStatus.FORMING


async def test_a_rollback_waits_for_the_deadline_new_orders_or_process(
        database: Database, tmp_path: Path) -> None:
    """The service's tick, over days of its clock, after a ROLLBACK of a game that processes
    early: the orders given before the rollback stand, but only the deadline, every power's
    new orders or the GM's PROCESS adjudicate the phase again."""
    mail = Mail(database, tmp_path)
    early = SETUP.replace("SET EARLY OFF", "SET DEADLINE MOVEMENT 2d")  # early ON, the default
    await mail.send(GM, early)
    await _orders(mail, SPRING_1901)

    async def ticked() -> list[tuple[str, str, str]]:
        return (await mail.tick()).adjudicated

    assert await ticked() == [("theta", "Spring 1901, Movement", Why.EARLY)]
    assert _stored(database)[0] == [0, 1]

    mail.clock.advance(timedelta(minutes=5))
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK S1901M")
    assert ("The orders given for it stand; it waits for its deadline, new orders from every "
            "power, or PROCESS.") in _reply_to(out, GM)
    notice = _text(next(m for to, m in out
                        if to == PLAYERS["France"] and "rolled back" in str(m["Subject"])))
    assert "Orders already given for Spring 1901, Movement stand" in " ".join(notice.split())
    assert ("Spring 1901, Movement is processed at its deadline, or as soon as every power "
            "has sent its orders again, or when the GM processes it. Deadline: Tue 2026-03-03 "
            "12:05 UTC.") in " ".join(notice.split())
    for wait in (timedelta(seconds=36), timedelta(minutes=1), timedelta(hours=5)):
        mail.clock.advance(wait)
        assert await ticked() == []  # the old orders do not process it early
    assert _stored(database)[0] == [0]
    # new orders from all powers but one: it still waits
    await _orders(mail, {p: SPRING_1901[p] for p in PLAYERS if p != "Turkey"})
    assert await ticked() == []
    # the last one: processed early again, with the new orders
    await _orders(mail, {"Turkey": ["A Con - Bul", "A Smy - Arm", "F Ank - Con"]})
    assert await ticked() == [("theta", "Spring 1901, Movement", Why.EARLY)]
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None and phase.index == 1
        assert phase.state.unit_in("Con") is not None  # Turkey's new fleet order

    # rolled back again: at its deadline it is processed with the orders that stand
    mail.clock.advance(timedelta(minutes=1))
    out = await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK S1901M")
    mail.clock.advance(timedelta(days=2) - timedelta(minutes=1))
    assert await ticked() == []
    mail.clock.advance(timedelta(minutes=2))
    assert await ticked() == [("theta", "Spring 1901, Movement", Why.DEADLINE)]
    with database.read() as s:
        game = games_repo.find_game(s, "theta")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None and phase.index == 1
        assert phase.state.unit_in("Con") is not None and phase.state.unit_in("Bur") is not None

    # and once more: the GM's PROCESS does it at once
    await mail.send(GM, "SIGNON GM theta gmpass\nROLLBACK S1901M")
    out = await mail.send(GM, "SIGNON GM theta gmpass\nPROCESS")
    assert "Spring 1901, Movement of theta processed" in _reply_to(out, GM)
