"""What a handler works with: the transaction, the time, the sender, who is signed on, and
the results buffer that becomes the reply."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from sqlalchemy.orm import Session

from gm.engine.orders import AnyOrder
from gm.store.rows import Attachment, GameRecord

if TYPE_CHECKING:
    from gm.commands.handlers.orders import OrderView


@dataclass(frozen=True)
class Notice:
    """A message for other people than the sender (a phase report): recipients, subject, body
    (and an HTML alternative and attachments, such as a report's map picture)."""

    recipients: tuple[str, ...]
    subject: str
    body: str
    game_id: int | None = None
    html: str | None = None
    attachments: tuple[Attachment, ...] = ()


@dataclass
class Results:
    """The reply being built: lines in order, and notices to queue with it."""

    lines: list[str] = field(default_factory=list)
    mail: list[Notice] = field(default_factory=list)
    game: str | None = None  # the game the reply is about, for its subject
    copies: list[str] = field(default_factory=list)  # addresses that get a copy of the reply
    attachments: list[Attachment] = field(default_factory=list)  # files the reply carries (MAP)

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")


@dataclass
class Signed:
    """Who the message speaks for since its last SIGNON (or CREATE): a power, or the GM."""

    game: GameRecord
    power: str | None  # None: the GM
    pending: list[tuple[str, AnyOrder]] = field(default_factory=list)  # orders not yet stored
    # `game` is as stored now: read by this sign-on, no other command since (orders.py reads
    # it again otherwise)
    fresh: bool = False
    # order lines were read for the open phase since the orders were last flushed: the reply
    # shows the power's orders then, even when every line was refused
    ordered: bool = False


@dataclass
class Context:
    session: Session
    now: datetime
    sender: str
    inbound_id: int | None
    service: str = "gm"  # the service's display name, for signatures
    results: Results = field(default_factory=Results)
    signed: Signed | None = None
    refused_signon: bool = False  # the last SIGNON failed: what follows it is ignored
    # a game's open phase as a run of order lines sees it, loaded once for the run (orders.py;
    # dropped whenever another command may change the game)
    views: dict[int, OrderView] = field(default_factory=dict)
    # games whose passed deadline this reply has already told of (orders.py says it once)
    told_late: set[int] = field(default_factory=set)
