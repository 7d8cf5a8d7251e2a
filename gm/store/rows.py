"""Frozen values the repositories return: rows as the rest of gm sees them."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from gm.engine.order_json import decoded, encode
from gm.engine.orders import AnyOrder
from gm.engine.phase import Phase
from gm.engine.reasons import NOTHING, Fate, Reason
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.state import GameState
from gm.store.settings import GameSettings
from gm.store.statuses import GameStatus, InboundStatus, OutboundStatus, PowerStatus


@dataclass(frozen=True)
class GameRecord:
    id: int
    name: str
    variant: str
    status: GameStatus
    settings: GameSettings
    gm_address: str
    gm_password_hash: str
    created_at: datetime
    updated_at: datetime
    variant_digest: str | None = None  # the hash of the variant's file (None: built-in)


@dataclass(frozen=True)
class PowerRecord:
    id: int
    game_id: int
    name: str
    addresses: tuple[str, ...]  # the players' addresses, first one first
    password_hash: str | None
    status: PowerStatus
    draw_vote: bool
    wait: bool
    created_at: datetime
    updated_at: datetime


@dataclass(frozen=True)
class StoredResult:
    """One order's result as stored: the text, its canonical form and what became of it;
    `order`, the order as a value (gm.engine.order_json), when it was stored with it (results
    stored before it was kept, or of an order gm.engine.order_json cannot write, have None:
    the canonical text is read again)."""

    power: str
    text: str
    canonical: str | None
    outcome: Outcome
    reason: str = ""
    dislodged_by: str | None = None
    details: tuple[str, ...] = ()
    order: AnyOrder | None = field(default=None, compare=False)
    why: Reason = field(default=NOTHING, compare=False)  # `reason` as a value

    @staticmethod
    def of(result: OrderResult) -> StoredResult:
        return StoredResult(
            power=result.power,
            text=result.text,
            canonical=None if result.order is None else str(result.order),
            outcome=result.outcome,
            reason=result.reason,
            dislodged_by=result.dislodged_by,
            details=tuple(result.details),
            order=result.order,
            why=result.why,
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "power": self.power,
            "text": self.text,
            "canonical": self.canonical,
            "outcome": self.outcome.value,
            "reason": self.reason,
            "dislodged_by": self.dislodged_by,
            "details": list(self.details),
        }
        value = order_value(self.order)
        if value is not None:
            out["order"] = value
        if self.why.kind is not Fate.NOTHING:
            out["why"] = self.why.to_json()
        return out

    @staticmethod
    def from_json(data: dict[str, Any]) -> StoredResult:
        return StoredResult(
            power=data["power"],
            text=data["text"],
            canonical=data.get("canonical"),
            outcome=Outcome(data["outcome"]),
            reason=data.get("reason", ""),
            dislodged_by=data.get("dislodged_by"),
            details=tuple(data.get("details", ())),
            order=decoded(data.get("order")),
            why=Reason.from_json(data.get("why")) or Reason.stated(data.get("reason", "")),
        )


def order_value(order: AnyOrder | None) -> dict[str, Any] | None:
    """`order` as gm.engine.order_json writes it, or None (no order, or one of a kind it
    cannot write: the canonical text stands for it)."""
    if order is None:
        return None
    try:
        return encode(order)
    except TypeError:
        return None


@dataclass(frozen=True)
class PhaseRecord:
    """A phase of a game's history: the state before it and, once adjudicated, its results."""

    id: int
    game_id: int
    index: int
    phase: Phase
    state: GameState
    results: tuple[StoredResult, ...] | None  # None until adjudicated
    events: tuple[str, ...] | None
    opened_at: datetime
    deadline_at: datetime | None
    adjudicated_at: datetime | None

    @property
    def adjudicated(self) -> bool:
        return self.adjudicated_at is not None


@dataclass(frozen=True)
class OrderLine:
    """One order line as received: its text, and either its canonical form or an error;
    `order`, the order read from it, kept as a value (gm.engine.order_json) so that no reader
    reads the text again (None: stored without it, as before it was kept, or by a caller that
    gave the canonical text alone; the canonical text is then read again)."""

    text: str
    canonical: str | None = None
    error: str | None = None
    order: AnyOrder | None = field(default=None, compare=False)

    @staticmethod
    def taken(text: str, order: AnyOrder) -> OrderLine:
        """The line `text`, read as `order`."""
        return OrderLine(text=text, canonical=str(order), order=order)

    @staticmethod
    def of(submitted: Submitted) -> OrderLine:
        return OrderLine(
            text=submitted.text,
            canonical=None if submitted.order is None else str(submitted.order),
            error=None if submitted.error is None else submitted.error.message,
            order=submitted.order,
        )


@dataclass(frozen=True)
class OrderSetRecord:
    """A power's submission for a phase. `valid` when no line has an error."""

    id: int
    phase_id: int
    power: str
    inbound_id: int | None
    submitted_at: datetime
    valid: bool
    lines: tuple[OrderLine, ...]


@dataclass(frozen=True)
class InboundRecord:
    id: int
    dedup_key: str
    message_id: str | None
    mailbox: str | None
    uidvalidity: int | None
    uid: int | None
    sender: str
    subject: str | None
    raw: bytes
    received_at: datetime
    status: InboundStatus
    attempts: int
    error: str | None
    processed_at: datetime | None
    arrived_at: datetime | None = None  # when the mail system received it


@dataclass(frozen=True)
class BodyPart:
    """A text part of an outbound message, e.g. ("text/plain", "...")."""

    content_type: str
    text: str


@dataclass(frozen=True)
class Attachment:
    """A file an outbound message carries. A picture's PNG may be queued before it is drawn:
    then `svg` is the picture and `data` is empty; the sender draws it (`drawn`) once for all
    the messages that carry it."""

    filename: str
    content_type: str
    data: bytes
    svg: bytes | None = None

    @property
    def drawn(self) -> bool:
        """Whether `data` is the file's content (not a PNG still to be drawn from `svg`)."""
        return self.svg is None


@dataclass(frozen=True)
class OutboundRecord:
    id: int
    message_id: str
    recipients: tuple[str, ...]
    headers: tuple[tuple[str, str], ...]
    parts: tuple[BodyPart, ...]
    attachments: tuple[Attachment, ...]
    status: OutboundStatus
    attempts: int
    next_attempt_at: datetime | None
    last_error: str | None
    created_at: datetime
    sent_at: datetime | None
    game_id: int | None
    inbound_id: int | None
    bounce_token: str | None = None  # its envelope sender's token (gm.mail.verp)


@dataclass(frozen=True)
class PressRecord:
    id: int
    game_id: int
    phase_id: int | None
    from_power: str | None  # None: from the GM
    from_address: str
    to_powers: tuple[str, ...]  # "GM" among them: sent to the GM by name
    broadcast: bool
    anonymous: bool
    body: str
    inbound_id: int | None
    sent_at: datetime


@dataclass(frozen=True)
class AuditRecord:
    id: int
    game_id: int | None
    game_name: str | None
    actor: str
    action: str
    details: dict[str, Any]
    inbound_id: int | None
    at: datetime
