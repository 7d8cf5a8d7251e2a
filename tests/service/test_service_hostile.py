"""Hostile input through the real service (Maildir inbox and outbox, `Service.once`): broken
MIME, wrong and unknown charsets, huge lines, HTML only and hidden HTML text, binary, forged
headers, header injection, nested and very wide multiparts, far dates, forged OBSERVE,
passwords in the Subject, broken encoded words, empty and 8-bit messages. The service never
stops, each message gets a clear reply or is ignored as automatic mail (or, past a handful
without commands, held as a mail loop), nothing is shunted, the message after each is answered,
each is stored as it came, memory stays bounded, no header is injected into a reply, and the
game the messages aim at is untouched."""

from __future__ import annotations

import dataclasses
import json
import os
import time
import tracemalloc
from email import message_from_bytes
from email.policy import default
from email.utils import make_msgid
from pathlib import Path
from typing import Any

from gm.mail.maildir import ensure_maildir
from gm.play.observing import WAITING_KEY
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.service.serve import Service
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.statuses import InboundStatus
from tests.support.hostile_mail import FORGED, HOSTILE_SENDER, SUBJECT_SECRET, VICTIM, corpus
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    maildir_config,
    message,
    unwrapped,
)

GM_PASSWORD = "gm-Zq9-kappa-secret"


def password(power: str) -> str:
    return f"{power.lower()}-Xk4-secret"


def protected_game(db: Database, root: Path) -> None:
    """Game kappa, started, with France's orders in: what the hostile mail must not touch."""
    config, clock = maildir_config(root), FixedClock(START)
    setup = "\n".join([f"CREATE kappa standard {GM_PASSWORD}"]
                      + [f"ADD {p} {a} {password(p)}" for p, a in PLAYERS.items()] + ["START"])
    assert (ingest(db, message(GM, setup), config=config, clock=clock).outcome
            is Disposition.ANSWERED)
    orders = "\n".join([f"SIGNON France kappa {password('France')}", *SPRING_1901["France"]])
    result = ingest(db, message(PLAYERS["France"], orders), config=config, clock=clock)
    assert result.outcome is Disposition.ANSWERED


def snapshot(db: Database) -> str:
    """Everything stored about game kappa, as text to compare (but OBSERVE requests waiting
    for their code: a request from anyone is answered, and changes nothing until confirmed)."""
    with db.read() as s:
        game = games_repo.find_game(s, "kappa")
        assert game is not None
        extra = {k: v for k, v in game.settings.extra.items() if k != WAITING_KEY}
        data: dict[str, Any] = {
            "game": [game.status.value, game.gm_address, game.gm_password_hash,
                     repr(dataclasses.replace(game.settings, extra=extra))],
            "powers": [[p.name, list(p.addresses), p.password_hash, p.status.value]
                       for p in powers_repo.list_powers(s, game.id)],
            "phases": [[p.index, p.state.to_json(), p.adjudicated, str(p.deadline_at),
                        [[o.power, o.inbound_id, [ln.text for ln in o.lines]]
                         for o in orders_repo.order_sets(s, p.id)]]
                       for p in phases_repo.history(s, game.id)],
        }
    return json.dumps(data, sort_keys=True, default=str)


BYSTANDER = "bystander@example.org"
# Python's memory at its peak over the whole corpus (some 30 MB: the largest messages are 5 MB;
# one From of 240,000 addresses once took gigabytes)
MAX_PEAK_BYTES = 100 * 1024 * 1024


async def test_hostile_corpus(database: Database, tmp_path: Path) -> None:
    protected_game(database, tmp_path)
    before = snapshot(database)
    config = maildir_config(tmp_path)
    inbox = config.maildir.inbox
    ensure_maildir(inbox)
    cases = corpus()
    for n, (_, raw, _) in enumerate(cases):
        # each hostile message is followed by an ordinary one, which must be answered
        follower = message(BYSTANDER, "LIST", message_id=f"<next-{n}@example.org>")
        for k, (name, data) in enumerate([(f"{n:04d}.hostile.localhost", raw),
                                          (f"{n:04d}.next.localhost", follower)]):
            (inbox / "tmp" / name).write_bytes(data)
            os.utime(inbox / "tmp" / name, (1_000_000 + 2 * n + k,) * 2)
            (inbox / "tmp" / name).rename(inbox / "new" / name)

    tracemalloc.start()
    try:
        done = await Service(database, config, clock=FixedClock(START)).once()
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < MAX_PEAK_BYTES, peak  # bounded memory, whatever the mail
    assert len(done) == 2 * len(cases)  # the service went through every one
    assert not list((inbox / "new").iterdir())  # and marked each processed
    with database.read() as s:
        stored = {r.id: r for r in inbound_repo.list_inbound(s, limit=1000)}
        outbound = outbound_repo.list_outbound(s, limit=1000)
    by_id = {stored[d.inbound_id].message_id: d for d in done}
    for n in range(len(cases)):  # the message after each hostile one was answered
        assert by_id[f"<next-{n}@example.org>"].outcome is Disposition.ANSWERED, cases[n][0]
    # nothing lost: each message is stored as it came (over the size limit: its headers and
    # a prefix of its body)
    for n, (what, raw, _) in enumerate(cases):
        found = by_id.get(f"<hostile-{n}@example.net>")
        if found is not None:
            kept = stored[found.inbound_id].raw
            assert kept == raw or (what.startswith("larger") and raw.startswith(kept)), what
    held = 0
    for n, (what, _, answered) in enumerate(cases):
        result = by_id.get(f"<hostile-{n}@example.net>")
        if result is None:  # no Message-ID survived: the headerless cases
            assert not answered, what
            continue
        assert result.outcome is not Disposition.SHUNTED, (what, result.error)
        if answered and result.outcome is Disposition.HELD:
            # one more message without commands from the same sender in the same minute: held
            # as a mail loop (gm.service.loop_guard), unanswered
            assert "a mail loop" in (stored[result.inbound_id].error or ""), what
            assert not [o for o in outbound if o.inbound_id == result.inbound_id], what
            held += 1
            continue
        expected = Disposition.ANSWERED if answered else Disposition.AUTOMATIC
        assert result.outcome is expected, what
        replies = [o for o in outbound if o.inbound_id == result.inbound_id]
        if answered:
            assert len(replies) == 1, what
            text = replies[0].parts[0].text
            assert text.strip() and "could not be processed" not in text, what
        else:
            assert replies == [], what
    assert {d.outcome for d in done} <= {
        Disposition.ANSWERED, Disposition.AUTOMATIC, Disposition.HELD}
    assert held, "the flood of messages without commands was never held"
    with database.read() as s:
        assert not inbound_repo.list_inbound(s, status=InboundStatus.SHUNTED)
        assert not inbound_repo.list_inbound(s, status=InboundStatus.NEW)
        assert len(inbound_repo.list_inbound(s, status=InboundStatus.HELD)) == held

    # what went out: one recipient each, never the victim, no injected header
    sent = [message_from_bytes(p.read_bytes(), policy=default)
            for p in sorted((config.maildir.outbox / "new").iterdir())]
    assert sent
    for msg in sent:
        assert "Bcc" not in msg and "X-Evil" not in msg
        assert len(msg.get_all("To", [])) == 1 and "," not in str(msg["To"])
        for name in ("To", "Cc", "Bcc", "From", "Reply-To", "Sender"):
            assert VICTIM not in str(msg.get(name, "")), name
        for name, value in msg.items():  # flattened into one line of text, never a header
            assert "\n" not in str(value) and "\r" not in str(value), (name, value)
    assert sum(1 for m in sent if HOSTILE_SENDER in str(m["To"])) >= 30
    for msg in sent:  # a password in the Subject is masked; encoded words arrive as written
        assert SUBJECT_SECRET not in msg.as_string(), msg["Subject"]
        assert "= ?" not in str(msg["Subject"]), msg["Subject"]
    assert any("Re: =?x-klingon?q?hi?= =?utf-8?b?@@?= =?utf-8?q?=ZZ?=" in str(m["Subject"])
               for m in sent)
    # the forged OBSERVE was answered at the forged address, with the code to confirm
    (observe,) = [m for m in sent if FORGED in str(m["To"])]
    assert "OBSERVE kappa CONFIRM" in observe.get_body().get_content()
    # the size limit is said in words
    huge = next(n for n, (what, _, _) in enumerate(cases) if what.startswith("larger"))
    (reply,) = [o for o in outbound
                if o.inbound_id == by_id[f"<hostile-{huge}@example.net>"].inbound_id]
    assert "larger than" in reply.parts[0].text and "was not read" in reply.parts[0].text
    # the forged and unsigned commands were refused; game kappa is exactly as it was
    assert snapshot(database) == before

    # and the service still works: the same pass answers an ordinary message
    result = ingest(database, message(GM, "LIST"), config=config, clock=FixedClock(START))
    assert result.outcome is Disposition.ANSWERED


def _raw(body: str, *, headers: str = "", sender: str = GM, subject: str = "commands") -> bytes:
    return (f"From: {sender}\nTo: judge@example.org\nSubject: {subject}\n"
            f"Message-ID: {make_msgid(domain='example.org')}\nMIME-Version: 1.0\n{headers}\n"
            f"{body}").encode()


def _answer(db: Database, root: Path, raw: bytes) -> str:
    """The text of the one reply to `raw`, which must be answered."""
    result = ingest(db, raw, config=maildir_config(root), clock=FixedClock(START))
    assert result.outcome is Disposition.ANSWERED, result
    with db.read() as s:
        (reply,) = [o for o in outbound_repo.list_outbound(s, limit=1000)
                    if o.message_id == result.reply_message_id]
    return unwrapped(reply.parts[0].text)


def test_limits_are_said_in_the_reply(database: Database, tmp_path: Path) -> None:
    protected_game(database, tmp_path)
    # a plain message's "-- " lines are text, not MIME boundaries: its commands are read
    reply = _answer(database, tmp_path, _raw("LIST\n" + "-- \n" * 5_001,
                                             headers="Content-Type: text/plain\n"))
    assert "kappa" in reply and "held no commands" not in reply
    # past the limits of parts and boundaries, the reply says why what was sent is not read
    parts = "".join(f"--b\nContent-Type: text/plain\n\nhello {n}\n" for n in range(5_001))
    reply = _answer(database, tmp_path, _raw(
        f"--b\nContent-Type: text/plain\n\nLIST\n{parts}--b--\n",
        headers="Content-Type: multipart/mixed; boundary=b\n"))
    assert ("Not all of your message was read: it has more than 5000 MIME boundary lines (the "
            "most read), so none of its parts was read.") in reply
    parts = "".join("--b\nContent-Type: text/plain\n\nLIST\n" for _ in range(600))
    reply = _answer(database, tmp_path, _raw(
        f"{parts}--b--\n", headers="Content-Type: multipart/mixed; boundary=b\n"))
    assert ("Not all of your message was read: it has more than 500 MIME parts, and only the "
            "first 500 were read.") in reply
    # a line cut on reading is said with its real length: press sent cut, an order refused
    signon = f"SIGNON France kappa {password('France')}"
    reply = _answer(database, tmp_path, _raw(
        f"{signon}\nBROADCAST\n{'x' * 1_000_000}\nENDPRESS\nA Par - Bur {'y' * 999_988}\n",
        sender=PLAYERS["France"]))
    assert ('Not all of your message was read: a line of 1000000 characters was cut to its '
            "first 20000; the rest of it was not read.") in reply
    assert 'a line of 1000000 characters (starting "A") was cut' in reply
    assert "was cut to its first 20000; the rest of it was not read." in reply
    assert "Press sent to Austria, England" in reply
    assert '"A Par - Bur yyy' in reply and "is 1000000 characters long" in reply
    # a cut line is never quoted past its first word: it may hold a password
    reply = _answer(database, tmp_path, _raw(f"SIGNON France kappa leak-Pw-9 {'z' * 30_000}\n"))
    assert "leak-Pw-9" not in reply and 'a line of 30030 characters (starting "SIGNON")' in reply


def test_what_the_player_does_not_see_is_not_taken_as_orders(
        database: Database, tmp_path: Path) -> None:
    protected_game(database, tmp_path)
    signon = f"SIGNON France kappa {password('France')}"
    html = ('<html><head><style>.quiet { display: none } #tiny{font-size:0px}</style></head>'
            f"<body><p>{signon}</p><p>A Par - Pic</p>"
            '<p style="display:none">A Mar - Gas</p>'
            '<div style="font-size:0">F Bre - ENG</div>'
            '<p class="note quiet">A Mar - Bur</p><span id="tiny">F Bre - Gas</span>'
            "</body></html>")
    reply = _answer(database, tmp_path, _raw(
        html, headers="Content-Type: text/html; charset=utf-8\n", sender=PLAYERS["France"]))
    assert "A Par - Pic  ->  A Par - Pic" in reply
    assert "Gas" not in reply and "ENG" not in reply and "Eng" not in reply, reply
    # hidden by the <style> rules
    assert "A Mar - Bur" not in reply and "F Bre - Gas" not in reply, reply
    # a report pasted back under its unquoted attribution line: its lines are not orders
    pasted = "\n".join([
        signon, "A Par - Bur", "",
        "On Sun, 1 Mar 2026 at 12:00, Judge <judge@example.org> wrote:",
        "Orders of France for Spring 1901, Movement:", "A Mar - Spa", "F Bre - MAO"])
    reply = _answer(database, tmp_path, _raw(pasted, sender=PLAYERS["France"]))
    assert "ORDERS takes nothing after it" not in reply and "Cannot read" not in reply
    assert "A Par - Bur  ->  A Par - Bur" in reply and "A Mar - Spa  ->" not in reply


def test_the_subject_masks_passwords_and_keeps_encoded_words(
        database: Database, tmp_path: Path) -> None:
    protected_game(database, tmp_path)
    secret = password("France")
    for subject, shown in [
            (f"SIGNON France kappa {secret}", "SIGNON France kappa ******"),
            (f"Re: my orders, password {secret}", "my orders, password ******"),
            ("Re: =?x-klingon?q?hi?=", "=?x-klingon?q?hi?="),
            ("=?utf-8?q?caf=C3=A9?= =?utf-8?b?!!!?=", "café =?utf-8?b?!!!?=")]:
        raw = _raw(f"SIGNON France kappa {secret}\nA Par H", sender=PLAYERS["France"],
                   subject=subject)
        result = ingest(database, raw, config=maildir_config(tmp_path), clock=FixedClock(START))
        assert result.outcome is Disposition.ANSWERED
        with database.read() as s:
            (reply,) = [o for o in outbound_repo.list_outbound(s, limit=1000)
                        if o.message_id == result.reply_message_id]
        assert dict(reply.headers)["Subject"] == f"[kappa] Re: {shown}"


def test_a_message_over_the_time_bound_is_shunted_with_its_reason_and_the_next_is_read(
        database: Database, tmp_path: Path) -> None:
    """A body that takes longer than max_message_seconds to read is not read: shunted with
    the reason, its sender told; the next message is answered as ever."""
    protected_game(database, tmp_path)
    hurried = dataclasses.replace(maildir_config(tmp_path), max_message_seconds=1e-9)
    parts = "".join(f"--p\nContent-Type: text/plain\n\nLIST {n}\n" for n in range(400))
    raw = _raw(f"{parts}--p--\n", headers="Content-Type: multipart/mixed; boundary=p\n",
               sender=HOSTILE_SENDER)
    result = ingest(database, raw, config=hurried, clock=FixedClock(START))
    assert result.outcome is Disposition.SHUNTED
    with database.read() as s:
        record = inbound_repo.get_inbound(s, result.inbound_id)
        told = [o for o in outbound_repo.list_outbound(s, limit=1000)
                if o.inbound_id == result.inbound_id and HOSTILE_SENDER in o.recipients]
    assert record is not None and "seconds to read" in (record.error or "")
    assert record.raw == raw  # kept, to be read again
    assert len(told) == 1 and "seconds to read" in told[0].parts[0].text
    assert "kappa" in _answer(database, tmp_path, _raw("LIST", sender=HOSTILE_SENDER))


def test_a_header_of_a_quarter_million_addresses_is_read_within_bounds(
        database: Database, tmp_path: Path) -> None:
    """Every header field is cut before it is parsed: a From of 240,000 addresses once took
    minutes and gigabytes."""
    protected_game(database, tmp_path)
    many = ", ".join(f"a{n}@example.net" for n in range(240_000))
    raw = (f"From: {HOSTILE_SENDER}, {many}\nSubject: x\n"
           f"Message-ID: <many@example.net>\n\nLIST\n").encode()
    assert len(raw) < maildir_config(tmp_path).max_message_bytes
    tracemalloc.start()
    try:
        started = time.monotonic()
        reply = _answer(database, tmp_path, raw)
        seconds = time.monotonic() - started
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "kappa" in reply
    assert seconds < 30 and peak < MAX_PEAK_BYTES, (seconds, peak)
