"""Bouncing addresses through the real service: a recipient the SMTP server (aiosmtpd) refuses
with 550, and bounces delivered to the inbox as Postfix and qmail write them, mark the seat
failing and tell the GM once; a forged or unmatched bounce and temporary failures mark
nothing; mail accepted for the address that goes an hour without bouncing clears the mark, and
a bounce of it keeps the mark without a second notice."""

from __future__ import annotations

from datetime import timedelta
from email import message_from_bytes
from email.message import Message
from email.policy import default
from pathlib import Path

from gm.config import Config
from gm.mail.connect import make_sink, make_source
from gm.service.bounces import QUIET
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition
from gm.service.serve import Service
from gm.store import address_failures
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
from tests.support.bounce_mail import postfix_bounce, qmail_bounce, verp
from tests.support.fixtures.mailservers import Received, SmtpServer
from tests.support.service_support import (
    GM,
    PLAYERS,
    SPRING_1901,
    START,
    deliver,
    maildir_config,
    message,
    text_of,
)

ITALY = PLAYERS["Italy"]
SETUP = "\n".join(
    ["CREATE gamma standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["START"]
)


class Game:
    """The service over a Maildir inbox and the aiosmtpd SMTP server."""

    def __init__(self, db: Database, tmp_path: Path, smtp: SmtpServer) -> None:
        base = maildir_config(tmp_path)
        self.db, self.smtp = db, smtp
        self.config = Config(data_dir=base.data_dir, address=base.address,
                             display_name=base.display_name, maildir=base.maildir,
                             smtp=smtp.config(timeout=5.0))
        self.clock = FixedClock(START)

    async def mail(self, raw: bytes) -> list[Disposition]:
        deliver(self.config.maildir.inbox, raw)
        service = Service(self.db, self.config, clock=self.clock,
                          source=make_source(self.config), sink=make_sink(self.config))
        return [r.outcome for r in await service.once()]

    def to(self, address: str) -> list[Message]:
        return [message_from_bytes(r.data, policy=default) for r in self.smtp.received
                if address in r.rcpt_tos]

    def gm_notices(self, about: str) -> list[str]:
        """The GM's notices whose subject names `about`, their words on one line."""
        return [" ".join(text_of(m).split()) for m in self.to(GM)
                if about in str(m["Subject"])]

    def failing(self) -> list[address_failures.FailureRecord]:
        with self.db.read() as s:
            game = games_repo.find_game(s, "gamma")
            assert game is not None
            return address_failures.failing_in_game(s, game.id)

    def sent_to(self, address: str) -> list[OutboundRecord]:
        with self.db.read() as s:
            return [o for o in outbound_repo.list_outbound(s) if address in o.recipients]

    async def summary(self) -> str:
        await self.mail(message(GM, "SIGNON GM gamma gmpass\nSUMMARY gamma"))
        return text_of(self.to(GM)[-1])


def _orders(power: str) -> bytes:
    body = "\n".join([f"SIGNON {power} gamma pw{power.lower()}", *SPRING_1901[power]])
    return message(PLAYERS[power], body, subject=f"{power} orders")


def _mail_from(received: list[Received], address: str) -> list[str]:
    return [r.mail_from for r in received if address in r.rcpt_tos]


async def test_a_recipient_refused_with_550_marks_the_seat_until_mail_gets_through(
        database: Database, tmp_path: Path, smtp_server: SmtpServer) -> None:
    game = Game(database, tmp_path, smtp_server)
    smtp_server.handler.rcpt_replies[ITALY] = "550 5.1.1 <italy@example.org>: User unknown"
    assert await game.mail(message(GM, SETUP)) == [Disposition.ANSWERED]
    # every message went out with its own envelope sender, the token stored with it
    for record in game.sent_to(GM):
        assert record.bounce_token and verp(record.bounce_token) in _mail_from(
            smtp_server.received, GM)
    (failure,) = game.failing()
    assert (failure.power, failure.address) == ("Italy", ITALY)
    assert "550 5.1.1" in failure.reason
    (notice,) = game.gm_notices("mail to Italy bounces")
    assert "italy@example.org cannot be reached" in notice
    assert "The mail server said: 550 5.1.1 <italy@example.org>: User unknown" in notice
    assert 'bounced: "[gamma]: you play Italy" of Sun 2026-03-01 12:00 UTC' in notice
    assert "REPLACE Italy <address> [<password>] (after SIGNON GM gamma" in notice \
        and "SET ADDRESS" in notice
    assert "mail to Italy (italy@example.org) bouncing since Sun 2026-03-01 12:00 UTC" in (
        await game.summary())
    # a player's SUMMARY does not say it (the GM's business)
    assert await game.mail(message(PLAYERS["France"], "SUMMARY gamma")) == [
        Disposition.ANSWERED]
    assert "Players:" in text_of(game.to(PLAYERS["France"])[-1])
    assert "bouncing" not in text_of(game.to(PLAYERS["France"])[-1])

    # more mail refused: still one notice
    assert await game.mail(_orders("Italy")) == [Disposition.ANSWERED]
    assert len(game.gm_notices("mail to Italy bounces")) == 1 and len(game.failing()) == 1

    # the address takes mail again: accepted, but a relay that queues may still bounce it,
    # so the mark stays until mail accepted for it has gone an hour without bouncing
    del smtp_server.handler.rcpt_replies[ITALY]
    game.clock.advance(timedelta(minutes=1))
    assert await game.mail(_orders("Italy")) == [Disposition.ANSWERED]
    assert len(game.failing()) == 1 and game.gm_notices("is delivered again") == []
    game.clock.advance(QUIET - timedelta(minutes=1))  # not quite an hour yet
    assert await game.mail(_orders("Italy")) == [Disposition.ANSWERED]
    assert len(game.failing()) == 1
    game.clock.advance(timedelta(minutes=2))  # the first accepted one went an hour quiet
    assert await game.mail(_orders("Italy")) == [Disposition.ANSWERED]
    assert game.failing() == []
    (cleared,) = game.gm_notices("mail to Italy is delivered again")
    assert "(italy@example.org) is delivered again: it bounced since Sun 2026-03-01" in cleared
    assert "bouncing" not in await game.summary()


async def test_a_temporary_refusal_marks_nothing(database: Database, tmp_path: Path,
                                                 smtp_server: SmtpServer) -> None:
    game = Game(database, tmp_path, smtp_server)
    smtp_server.handler.rcpt_replies[ITALY] = "450 4.2.0 Mailbox busy"
    assert await game.mail(message(GM, SETUP)) == [Disposition.ANSWERED]
    assert game.to(ITALY) == [] and game.failing() == []
    assert game.gm_notices("bounces") == []
    assert all(o.last_error and "450" in o.last_error for o in game.sent_to(ITALY))


async def test_a_postfix_bounce_marks_the_seat_and_the_gms_report_says_so(
        database: Database, tmp_path: Path, smtp_server: SmtpServer) -> None:
    game = Game(database, tmp_path, smtp_server)
    assert await game.mail(message(GM, SETUP)) == [Disposition.ANSWERED]
    assert game.failing() == []
    bounced = game.sent_to(ITALY)[0]
    assert bounced.bounce_token is not None
    sent = len(smtp_server.received)
    assert await game.mail(postfix_bounce(bounced.bounce_token, ITALY)) == [
        Disposition.AUTOMATIC]
    (failure,) = game.failing()
    assert failure.power == "Italy" and failure.reason.startswith("550 5.1.1 <italy@")
    # the bounce is not answered: the one mail sent is the GM's notice
    (notice,) = [m for m in smtp_server.received[sent:]]
    assert notice.rcpt_tos == (GM,)
    text = " ".join(text_of(message_from_bytes(notice.data, policy=default)).split())
    assert "Recipient address rejected: User unknown in virtual mailbox table" in text
    subject = dict(bounced.headers)["Subject"]
    assert f'"{subject}"' in text
    # the bounce of another message to Italy: nothing more
    again = game.sent_to(ITALY)[1].bounce_token
    assert again is not None and again != bounced.bounce_token
    assert await game.mail(postfix_bounce(again, ITALY)) == [Disposition.AUTOMATIC]
    assert len(smtp_server.received) == sent + 1

    # the phase is processed: the GM's copy names the bouncing seat; the players' do not
    for power in PLAYERS:
        if power != "Italy":
            await game.mail(_orders(power))
    game.clock.advance(timedelta(minutes=1))
    await game.mail(message(GM, "SIGNON GM gamma gmpass\nPROCESS"))
    (gm_report,) = [m for m in game.to(GM) if str(m["Subject"]).endswith("results")]
    words = " ".join(text_of(gm_report).split())
    assert ("GM: mail to Italy (italy@example.org) bouncing since Sun 2026-03-01 12:00 UTC:"
            in words)
    assert "REPLACE the player, or ask them for SET ADDRESS" in words
    html = gm_report.get_body(preferencelist=("html",))
    assert html is not None and "mail to Italy (italy@example.org) bouncing" in str(
        html.get_content())
    (france_report,) = [m for m in game.to(PLAYERS["France"])
                        if str(m["Subject"]).endswith("results")]
    assert "bouncing" not in text_of(france_report)
    # Italy's report was accepted, which proves nothing yet (it may bounce too): still marked
    assert len(game.failing()) == 1 and game.gm_notices("is delivered again") == []
    # and it bounces (the relay queued it): still one mark, no second notice
    (report,) = [o for o in game.sent_to(ITALY) if dict(o.headers)["Subject"].endswith("results")]
    assert report.bounce_token is not None
    assert await game.mail(postfix_bounce(report.bounce_token, ITALY)) == [
        Disposition.AUTOMATIC]
    assert len(game.failing()) == 1 and len(game.gm_notices("mail to Italy bounces")) == 1
    # an hour on, mail accepted for Italy clears nothing: the last one accepted bounced
    game.clock.advance(QUIET + timedelta(minutes=1))
    assert await game.mail(_orders("Italy")) == [Disposition.ANSWERED]
    assert len(game.failing()) == 1
    # that reply goes an hour without bouncing: the next acceptance clears the mark
    game.clock.advance(QUIET + timedelta(minutes=1))
    assert await game.mail(_orders("Italy")) == [Disposition.ANSWERED]
    assert game.failing() == [] and len(game.gm_notices("is delivered again")) == 1


async def test_a_qmail_failure_notice_marks_the_seat(database: Database, tmp_path: Path,
                                                     smtp_server: SmtpServer) -> None:
    game = Game(database, tmp_path, smtp_server)
    assert await game.mail(message(GM, SETUP)) == [Disposition.ANSWERED]
    token = game.sent_to(ITALY)[0].bounce_token
    assert token is not None
    assert await game.mail(qmail_bounce(token, ITALY)) == [Disposition.AUTOMATIC]
    (failure,) = game.failing()
    assert failure.reason == "Sorry, no mailbox here by that name. (#5.1.1)"
    assert len(game.gm_notices("mail to Italy bounces")) == 1


async def test_forged_unmatched_and_delayed_bounces_mark_nothing(
        database: Database, tmp_path: Path, smtp_server: SmtpServer) -> None:
    game = Game(database, tmp_path, smtp_server)
    assert await game.mail(message(GM, SETUP)) == [Disposition.ANSWERED]
    france = PLAYERS["France"]
    own = game.sent_to(france)[0].bounce_token  # France sees it (Return-Path of its mail)
    italy = game.sent_to(ITALY)[0].bounce_token
    assert own is not None and italy is not None
    sent = len(smtp_server.received)
    forged = [
        postfix_bounce("00000000000000000000", ITALY),  # a token gm never gave
        postfix_bounce(own, ITALY),  # France's token, naming Italy: not its recipient
        postfix_bounce(italy, ITALY, delayed=True),  # 4.x.x, "delayed": temporary
    ]
    for raw in forged:
        assert await game.mail(raw) == [Disposition.AUTOMATIC]
    assert game.failing() == []
    assert len(smtp_server.received) == sent  # nothing answered, nobody told
    # a player's message written as a bounce and sent to their own token: no report in it,
    # so it is a person's mail, answered (orders sent to that address would count)
    fake = message(france, "Final-Recipient: rfc822; italy@example.org\nAction: failed",
                   headers={"Delivered-To": verp(own)})
    assert await game.mail(fake) == [Disposition.ANSWERED]
    assert game.failing() == []
    assert [r.rcpt_tos for r in smtp_server.received[sent:]] == [(france,)]


async def test_without_verp_every_message_goes_from_the_service_address(
        database: Database, tmp_path: Path, smtp_server: SmtpServer) -> None:
    """`[smtp] verp = false`, for a relay that takes no envelope sender but the account's."""
    import dataclasses

    game = Game(database, tmp_path, smtp_server)
    assert game.config.smtp is not None
    game.config = dataclasses.replace(
        game.config, smtp=dataclasses.replace(game.config.smtp, verp=False))
    assert await game.mail(message(GM, SETUP)) == [Disposition.ANSWERED]
    assert smtp_server.received
    assert {r.mail_from for r in smtp_server.received} == {game.config.address}
