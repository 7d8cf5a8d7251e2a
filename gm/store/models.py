"""The database schema as SQLAlchemy typed declarative models.

Only gm.store imports these; the rest of gm sees the frozen records of gm.store.rows.
Constraint names follow `NAMING` so migrations can refer to them on SQLite and PostgreSQL alike.
"""

from __future__ import annotations

from datetime import datetime
from enum import Enum
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
)
from sqlalchemy import Enum as SAEnum
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

from gm.engine.phase import PhaseType
from gm.store.statuses import GameStatus, InboundStatus, OutboundStatus, PowerStatus
from gm.store.types import JSONDocument, UTCDateTime

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ADDRESS = 320  # RFC 5321: 64 + 1 + 255


def _enum(cls: type[Enum], name: str) -> SAEnum:
    """An enum stored as its value in a VARCHAR with a CHECK constraint (no native PG type)."""
    return SAEnum(
        cls,
        name=name,
        native_enum=False,
        create_constraint=True,
        length=20,
        values_callable=lambda e: [m.value for m in e],
        validate_strings=True,
    )


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING)


class Game(Base):
    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    name_key: Mapped[str] = mapped_column(String(64), unique=True)  # casefolded name
    variant: Mapped[str] = mapped_column(String(40))
    variant_digest: Mapped[str | None] = mapped_column(String(64))  # a variant file's hash
    status: Mapped[GameStatus] = mapped_column(_enum(GameStatus, "game_status"))
    settings: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    gm_address: Mapped[str] = mapped_column(String(ADDRESS))
    gm_password_hash: Mapped[str] = mapped_column(String(255))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Power(Base):
    __tablename__ = "powers"
    __table_args__ = (UniqueConstraint("game_id", "name"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(40))
    status: Mapped[PowerStatus] = mapped_column(_enum(PowerStatus, "power_status"))
    password_hash: Mapped[str | None] = mapped_column(String(255))
    draw_vote: Mapped[bool] = mapped_column(Boolean)
    wait: Mapped[bool] = mapped_column(Boolean)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)

    addresses: Mapped[list[PowerAddress]] = relationship(
        order_by="PowerAddress.position", lazy="selectin", cascade="all, delete-orphan"
    )


class PowerAddress(Base):
    """A player's address for a power (a power may be played by several addresses)."""

    __tablename__ = "power_addresses"
    __table_args__ = (UniqueConstraint("power_id", "address_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    power_id: Mapped[int] = mapped_column(ForeignKey("powers.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    address: Mapped[str] = mapped_column(String(ADDRESS))
    address_key: Mapped[str] = mapped_column(String(ADDRESS), index=True)  # lower-cased


class PhaseRow(Base):
    """One phase: the engine state before it; once adjudicated, its results (then immutable)."""

    __tablename__ = "phases"
    __table_args__ = (
        UniqueConstraint("game_id", "phase_index"),
        Index("ix_phases_open_deadline", "adjudicated_at", "deadline_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_index: Mapped[int] = mapped_column(Integer)  # 0, 1, 2, ... within the game
    season: Mapped[str] = mapped_column(String(20))
    year: Mapped[int] = mapped_column(Integer)
    type: Mapped[PhaseType] = mapped_column(_enum(PhaseType, "phase_type"))
    state: Mapped[dict[str, Any]] = mapped_column(JSONDocument)  # GameState.to_json()
    results: Mapped[list[dict[str, Any]] | None] = mapped_column(JSONDocument)
    events: Mapped[list[str] | None] = mapped_column(JSONDocument)  # map and centre changes
    opened_at: Mapped[datetime] = mapped_column(UTCDateTime)
    deadline_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    adjudicated_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class OrderSet(Base):
    """One submission of orders by a power for a phase, as a whole."""

    __tablename__ = "order_sets"
    __table_args__ = (
        Index("ix_order_sets_phase_power", "phase_id", "power_id", "id"),
        # the sets read late, which the tick looks for (gm.service.late_orders)
        Index("ix_order_sets_late", "late", "submitted_at"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    phase_id: Mapped[int] = mapped_column(ForeignKey("phases.id", ondelete="CASCADE"))
    power_id: Mapped[int] = mapped_column(ForeignKey("powers.id", ondelete="CASCADE"))
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL")
    )
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime)
    valid: Mapped[bool] = mapped_column(Boolean)  # no line has an error
    # arrived while the phase was open, read after it was adjudicated: not among its orders
    # until the GM's REPROCESS takes it (gm.store.submissions.take_late)
    late: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())

    lines: Mapped[list[OrderLineRow]] = relationship(
        order_by="OrderLineRow.position", lazy="selectin", cascade="all, delete-orphan"
    )


class OrderLineRow(Base):
    __tablename__ = "order_lines"
    __table_args__ = (UniqueConstraint("set_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    set_id: Mapped[int] = mapped_column(ForeignKey("order_sets.id", ondelete="CASCADE"))
    position: Mapped[int] = mapped_column(Integer)
    text: Mapped[str] = mapped_column(Text)  # as received
    canonical: Mapped[str | None] = mapped_column(Text)  # str(order) when it parsed
    # the order as a value (gm.engine.order_json), read without the grammar; None: read the
    # canonical text (stored before migration 0016, or not readable then)
    value: Mapped[dict[str, Any] | None] = mapped_column(JSONDocument)
    error: Mapped[str | None] = mapped_column(Text)


class InboundMessage(Base):
    __tablename__ = "inbound_messages"
    __table_args__ = (
        Index("ix_inbound_messages_status", "status", "id"),
        Index("ix_inbound_messages_mailbox_uid", "mailbox", "uidvalidity", "uid"),
        Index("ix_inbound_messages_sender_received", "sender", "received_at"),  # rate limit
        Index("ix_inbound_messages_sender_id", "sender", "id"),  # a sender's latest: loop guard
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # Message-ID, sender and body digest, hashed (gm.store.inbound.inbound_key)
    dedup_key: Mapped[str] = mapped_column(String(255), unique=True)
    message_id: Mapped[str | None] = mapped_column(Text)
    mailbox: Mapped[str | None] = mapped_column(String(255))
    uidvalidity: Mapped[int | None] = mapped_column(BigInteger)
    uid: Mapped[int | None] = mapped_column(BigInteger)
    sender: Mapped[str] = mapped_column(String(ADDRESS))
    subject: Mapped[str | None] = mapped_column(Text)
    raw: Mapped[bytes] = mapped_column(LargeBinary)
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)  # stored by gm
    # received by the mail system (IMAP INTERNALDATE, Maildir delivery, LMTP hand-over): what
    # a deadline is kept by
    arrived_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    status: Mapped[InboundStatus] = mapped_column(_enum(InboundStatus, "inbound_status"))
    attempts: Mapped[int] = mapped_column(Integer)
    error: Mapped[str | None] = mapped_column(Text)
    processed_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    duplicates: Mapped[int] = mapped_column(Integer, default=0, server_default="0")  # copies


class OutboundMessage(Base):
    __tablename__ = "outbound_messages"
    __table_args__ = (
        Index("ix_outbound_messages_due", "status", "next_attempt_at"),
        Index("ix_outbound_messages_inbound", "inbound_id"),  # a sender's replies: loop guard
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    message_id: Mapped[str] = mapped_column(String(255), unique=True)  # fixed at enqueue time
    recipients: Mapped[list[str]] = mapped_column(JSONDocument)
    headers: Mapped[list[list[str]]] = mapped_column(JSONDocument)  # [[name, value], ...]
    parts: Mapped[list[dict[str, str]]] = mapped_column(JSONDocument)  # body parts
    status: Mapped[OutboundStatus] = mapped_column(_enum(OutboundStatus, "outbound_status"))
    attempts: Mapped[int] = mapped_column(Integer)
    next_attempt_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    last_error: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL")
    )
    # a body shared with other messages (then `parts` is []): see OutboundBody
    body_id: Mapped[int | None] = mapped_column(ForeignKey("outbound_bodies.id"))
    # the sender process holding its claim (gm.store.holders), while it is claimed
    claimed_by: Mapped[str | None] = mapped_column(String(255))
    # random: the envelope sender is judge+b.<token>@domain, so a bounce names this message
    bounce_token: Mapped[str | None] = mapped_column(String(32), index=True)

    attachments: Mapped[list[OutboundAttachment]] = relationship(
        order_by="OutboundAttachment.position", lazy="selectin", cascade="all, delete-orphan"
    )
    body: Mapped[OutboundBody | None] = relationship(lazy="joined")


class OutboundAttachment(Base):
    __tablename__ = "outbound_attachments"
    __table_args__ = (UniqueConstraint("outbound_id", "position"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    outbound_id: Mapped[int] = mapped_column(
        ForeignKey("outbound_messages.id", ondelete="CASCADE")
    )
    position: Mapped[int] = mapped_column(Integer)
    filename: Mapped[str] = mapped_column(String(255))
    content_type: Mapped[str] = mapped_column(String(127))
    file_id: Mapped[int] = mapped_column(ForeignKey("outbound_files.id"), index=True)

    file: Mapped[OutboundFile] = relationship(lazy="joined", innerjoin=True)


class OutboundFile(Base):
    """An attachment's bytes, stored once however many messages carry them (a phase's map
    picture goes to every power, the GM and the observers: one row). A picture's PNG is queued
    undrawn: `svg` holds the picture and `data` is empty until the sender draws it (then `svg`
    is cleared)."""

    __tablename__ = "outbound_files"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # SHA-256, hex: of data; of a PNG still to be drawn, `gm.store.outbound.file_digest`'s
    digest: Mapped[str] = mapped_column(String(64), index=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)
    svg: Mapped[bytes | None] = mapped_column(LargeBinary)


class OutboundBody(Base):
    """Body parts stored once for the messages that carry the same ones (a phase's report goes
    alike to every power: one row); a message with a body of its own keeps it in `parts`."""

    __tablename__ = "outbound_bodies"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    digest: Mapped[str] = mapped_column(String(64))  # SHA-256 of the parts, hex
    parts: Mapped[list[dict[str, str]]] = mapped_column(JSONDocument)  # as OutboundMessage's


class PressMessage(Base):
    __tablename__ = "press_messages"
    __table_args__ = (Index("ix_press_messages_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    phase_id: Mapped[int | None] = mapped_column(ForeignKey("phases.id", ondelete="SET NULL"))
    from_power: Mapped[str | None] = mapped_column(String(40))  # None: from the GM
    from_address: Mapped[str] = mapped_column(String(ADDRESS))
    to_powers: Mapped[list[str]] = mapped_column(JSONDocument)
    broadcast: Mapped[bool] = mapped_column(Boolean)
    anonymous: Mapped[bool] = mapped_column(Boolean)  # grey press: sender not shown
    body: Mapped[str] = mapped_column(Text)
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL")
    )
    sent_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AuditEntry(Base):
    """A GM action (or another action worth a trail), kept even if its game is deleted."""

    __tablename__ = "audit_log"
    __table_args__ = (Index("ix_audit_log_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))
    game_name: Mapped[str | None] = mapped_column(String(64))
    actor: Mapped[str] = mapped_column(String(ADDRESS))
    action: Mapped[str] = mapped_column(String(64))
    details: Mapped[dict[str, Any]] = mapped_column(JSONDocument)
    inbound_id: Mapped[int | None] = mapped_column(
        ForeignKey("inbound_messages.id", ondelete="SET NULL")
    )
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class StandbyOffer(Base):
    """A player offering to take over an abandoned power: of one game, or (game_id None) of any
    game (STANDBY)."""

    __tablename__ = "standby_offers"
    __table_args__ = (Index("ix_standby_offers_address", "address_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(ADDRESS))
    address_key: Mapped[str] = mapped_column(String(ADDRESS))  # lower-cased
    offered_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AddressChange(Base):
    """A move to a new address asked for (SET ADDRESS) and waiting to be confirmed from it."""

    __tablename__ = "address_changes"
    __table_args__ = (Index("ix_address_changes_new_key", "new_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    old_address: Mapped[str] = mapped_column(String(ADDRESS))
    new_address: Mapped[str] = mapped_column(String(ADDRESS))
    new_key: Mapped[str] = mapped_column(String(ADDRESS))  # lower-cased
    code: Mapped[str] = mapped_column(String(32))
    asked_at: Mapped[datetime] = mapped_column(UTCDateTime)
    expires_at: Mapped[datetime] = mapped_column(UTCDateTime)


class JoinRequest(Base):
    """A player who joined a forming game with power preferences (JOIN ... PREFER), seated at
    START."""

    __tablename__ = "join_requests"
    __table_args__ = (UniqueConstraint("game_id", "address_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    address: Mapped[str] = mapped_column(String(ADDRESS))
    address_key: Mapped[str] = mapped_column(String(ADDRESS))  # lower-cased
    password_hash: Mapped[str] = mapped_column(String(255))
    preferences: Mapped[list[str]] = mapped_column(JSONDocument)  # power names, first first
    joined_at: Mapped[datetime] = mapped_column(UTCDateTime)


class OrderAhead(Base):
    """An order a player sent for the next phase of a kind (AHEAD), checked when it opens."""

    __tablename__ = "orders_ahead"
    __table_args__ = (Index("ix_orders_ahead_game", "game_id", "id"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str] = mapped_column(String(40))
    phase_type: Mapped[PhaseType] = mapped_column(_enum(PhaseType, "phase_type"))
    after_index: Mapped[int] = mapped_column(Integer)  # for a phase after this one
    text: Mapped[str] = mapped_column(Text)
    submitted_at: Mapped[datetime] = mapped_column(UTCDateTime)


class AddressFailure(Base):
    """An address of a game (a seat's, or the GM's when `power` is None) that the relay
    refused for good or that bounced: failing `since`, until a delivery to it is accepted."""

    __tablename__ = "address_failures"
    __table_args__ = (UniqueConstraint("game_id", "address_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    power: Mapped[str | None] = mapped_column(String(40))
    address: Mapped[str] = mapped_column(String(ADDRESS))
    address_key: Mapped[str] = mapped_column(String(ADDRESS), index=True)  # lower-cased
    reason: Mapped[str] = mapped_column(Text)  # the server's words
    subject: Mapped[str] = mapped_column(Text)  # the message that bounced
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)  # its Date
    since: Mapped[datetime] = mapped_column(UTCDateTime)


class InboxRead(Base):
    """How far a mail source has been read: every message that arrived there before
    `read_until` has been stored and handled (gm.store.inbox_reads)."""

    __tablename__ = "inbox_reads"

    source: Mapped[str] = mapped_column(String(512), primary_key=True)
    read_until: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class MailboxClaim(Base):
    """A message of a mail source claimed by one process before it fetches the message's body,
    so that processes sharing the source do not read it twice (gm.store.mailbox_claims)."""

    __tablename__ = "mailbox_claims"

    source: Mapped[str] = mapped_column(String(512), primary_key=True)
    uidvalidity: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    uid: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    holder: Mapped[str] = mapped_column(String(255))  # gm.store.holders
    leased_until: Mapped[datetime] = mapped_column(UTCDateTime, index=True)
