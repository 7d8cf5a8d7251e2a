"""Addresses that bounce: marked failing when the relay refuses a recipient for good (5xx) or
a bounce comes back for a message gm sent, and cleared once mail to them gets through.

A bounce is matched to the message it reports by the token of its envelope sender
(gm.mail.verp), and to the recipient by its report (gm.mail.bounces): only a permanent failure
of one of that message's recipients marks anything, so a bounce without a known token, or one
naming an address the message was not sent to, marks nothing. Each newly failing seat gets one
notice to its game's GM; a failing GM address is logged for the operator (and listed by `gm
shunt list`). Temporary failures (4xx, "delayed" reports) mark nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from datetime import datetime, timedelta
from email.message import Message

from sqlalchemy.orm import Session

from gm.config import Config
from gm.mail.bounces import read_bounce
from gm.mail.compose import build_subject, new_message_id
from gm.mail.errors import Refusal
from gm.mail.verp import token_in
from gm.play.deadlines import show
from gm.play.render import render
from gm.store import address_failures, outgoing
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store.address_failures import FailureRecord
from gm.store.outgoing import Outgoing
from gm.store.rows import OutboundRecord

log = logging.getLogger(__name__)

# how long a message accepted for a failing address must go without bouncing for the mark to
# clear (a relay that queues bounces an unknown user within seconds, a remote one in minutes)
QUIET = timedelta(hours=1)


def refused(session: Session, record: OutboundRecord, refusals: Mapping[str, Refusal], *,
            config: Config, now: datetime) -> None:
    """Mark the recipients the relay refused for good (5xx) when `record` was sent."""
    for address, refusal in refusals.items():
        if not refusal.temporary:
            mark_failing(session, record, address, str(refusal), config=config, now=now)


def bounced(session: Session, message: Message, *, config: Config, now: datetime,
            inbound_id: int | None = None) -> bool:
    """Read `message` as a bounce sent to one of gm's envelope senders; True when it is one
    (sent to one, and reporting failures, whatever they are: it is never answered). A
    person's mail that was sent to an envelope sender is no bounce: it is answered."""
    token = token_in(message, config.address)
    if token is None:
        return False
    failures = read_bounce(message)
    if not failures:
        return False
    record = outbound_repo.find_by_bounce_token(session, token)
    if record is None:
        log.warning("bounce %s: its token names no message gm sent; nothing marked", inbound_id)
        return True
    recipients = {r.lower(): r for r in record.recipients}
    for failure in failures:
        address = recipients.get(failure.address.lower())
        if address is None:
            log.warning("bounce %s names %s, not a recipient of %s; nothing marked",
                        inbound_id, failure.address, record.message_id)
        elif not failure.permanent:
            log.info("bounce %s: delivery to %s delayed (%s); nothing marked", inbound_id,
                     address, failure.reason)
        else:
            mark_failing(session, record, address, failure.reason, config=config, now=now)
    return True


def _subject(record: OutboundRecord) -> str:
    return next((v for n, v in record.headers if n.lower() == "subject"), "(no subject)")


def mark_failing(session: Session, record: OutboundRecord, address: str, reason: str, *,
                 config: Config, now: datetime) -> None:
    """Mark `address` failing in every game it has a seat or GM seat in; tell each game's GM
    of a newly failing seat, and the operator (log) of a failing GM address."""
    for holder in address_failures.holders(session, address):
        failure = address_failures.mark(session, holder, address, reason=reason,
                                        subject=_subject(record), sent_at=record.created_at,
                                        now=now)
        if failure is None:
            continue
        game = games_repo.get_game(session, holder.game_id)
        if holder.power is None:
            log.warning("the GM address %s of %s bounces (%s): the operator must reach the GM",
                        address, game.name, reason)
            continue
        log.warning("%s of %s: mail to %s bounces (%s); the GM is told", holder.power,
                    game.name, address, reason)
        body = render("report/address-failing.txt.j2", game=game.name, power=holder.power,
                      address=address, reason=reason, subject=failure.subject,
                      sent=show(record.created_at, game.settings.timezone),
                      service=config.display_name)
        _notify(session, game.gm_address, game.id,
                build_subject(f"mail to {holder.power} bounces", game=game.name), body,
                config=config, now=now)


def delivered(session: Session, addresses: list[str], *, config: Config,
              now: datetime) -> None:
    """The relay accepted a delivery to `addresses`: clear the marks of those whose mail gets
    through, and tell the GMs. Without VERP (bounces cannot be matched) the acceptance is all
    gm learns: it clears. With VERP a relay that queues (a local Postfix) accepts mail for a
    dead address too and bounces it later, so an acceptance proves nothing at once: a mark
    clears when a message accepted for the address, made after the last one that failed, has
    gone QUIET without bouncing."""
    if config.smtp is not None and not config.smtp.verp:
        for failure in address_failures.clear(session, addresses):
            _tell_cleared(session, failure, config=config, now=now)
        return
    for failure in address_failures.marks_of(session, addresses):
        if outbound_repo.accepted_for(session, failure.address, created_after=failure.sent_at,
                                      sent_before=now - QUIET):
            address_failures.clear_mark(session, failure)
            _tell_cleared(session, failure, config=config, now=now)


def _tell_cleared(session: Session, failure: FailureRecord, *, config: Config,
                  now: datetime) -> None:
    game = games_repo.get_game(session, failure.game_id)
    if failure.power is None:
        log.warning("the GM address %s of %s takes mail again", failure.address, game.name)
        return
    log.info("%s of %s: mail to %s is delivered again", failure.power, game.name,
             failure.address)
    body = render("report/address-cleared.txt.j2", game=game.name, power=failure.power,
                  address=failure.address, since=show(failure.since, game.settings.timezone),
                  service=config.display_name)
    _notify(session, game.gm_address, game.id,
            build_subject(f"mail to {failure.power} is delivered again", game=game.name), body,
            config=config, now=now)


def _notify(session: Session, to: str, game_id: int, subject: str, body: str, *,
            config: Config, now: datetime) -> None:
    outgoing.queue_once(session, Outgoing(
        (to,), subject, body, game_id, message_id=new_message_id(config.domain)), now=now)
