"""One message gm sends, whoever composes it: a reply, a phase report, a notice.

Every layer that composes mail (gm.play, gm.commands, gm.service) gives an `Outgoing`; its
headers are set here alone: the subject, `Auto-Submitted` (RFC 3834: `auto-replied` for an
answer to a message, with In-Reply-To and References; `auto-generated` for the rest), and
its body parts (plain text, and an HTML alternative when it has one). `queue` and
`queue_once` put it in the outbound queue (gm.store.outbound).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.orm import Session

from gm.store import outbound as outbound_repo
from gm.store.errors import StoreError
from gm.store.rows import Attachment, BodyPart

AUTO_GENERATED = "auto-generated"  # RFC 3834: not an answer to anyone's message
AUTO_REPLIED = "auto-replied"  # RFC 3834: an answer to the message it names


@dataclass(frozen=True)
class Answered:
    """The message an answer replies to: its Message-ID (None: it had none) and the
    References it carried."""

    message_id: str | None
    references: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outgoing:
    """A message to send: recipients, subject, plain text, game, HTML alternative and
    attachments; `message_id` fixed by what the message is (queued once however often it is
    queued), or None for a new one; `answers`: the message it replies to, if it is a reply."""

    recipients: tuple[str, ...]
    subject: str
    body: str
    game_id: int | None = None
    html: str | None = None
    attachments: tuple[Attachment, ...] = ()
    message_id: str | None = None
    answers: Answered | None = None

    @property
    def headers(self) -> list[tuple[str, str]]:
        """Its headers besides those the sender adds (From, To, Date, Message-ID)."""
        if self.answers is None:
            return [("Subject", self.subject), ("Auto-Submitted", AUTO_GENERATED)]
        headers = [("Subject", self.subject), ("Auto-Submitted", AUTO_REPLIED)]
        replied = self.answers.message_id
        if replied:
            headers.append(("In-Reply-To", replied))
            headers.append(("References", " ".join([*self.answers.references, replied])))
        return headers

    @property
    def parts(self) -> list[BodyPart]:
        """Its body: the text, and the HTML alternative if it has one."""
        return [BodyPart("text/plain", self.body),
                *([BodyPart("text/html", self.html)] if self.html else [])]


def _stored(message: Outgoing) -> outbound_repo.NewMessage:
    if message.message_id is None:
        raise StoreError(f"an outbound message to {message.recipients} has no Message-ID")
    return outbound_repo.NewMessage(message.message_id, message.recipients, message.headers,
                                    message.parts, message.attachments, message.game_id)


def queue(session: Session, messages: Sequence[Outgoing], *, now: datetime,
          inbound_id: int | None = None) -> None:
    """Queue `messages` at once (one INSERT; `outbound.enqueue_many`), each with its
    Message-ID (new ones: the caller gives them)."""
    outbound_repo.enqueue_many(session, [_stored(m) for m in messages], now=now,
                               inbound_id=inbound_id)


def queue_once(session: Session, message: Outgoing, *, now: datetime,
               inbound_id: int | None = None) -> bool:
    """Queue `message` unless its Message-ID is queued already; whether it was queued now."""
    stored = _stored(message)
    _, new = outbound_repo.enqueue_outbound(
        session, message_id=stored.message_id, recipients=stored.recipients,
        headers=stored.headers, parts=stored.parts, now=now,
        attachments=stored.attachments, game_id=stored.game_id, inbound_id=inbound_id)
    return new
