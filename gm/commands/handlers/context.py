"""What a handler works with: the transaction, the time, the sender, who is signed on, the
results buffer that becomes the reply, and the work that goes on over several of the message's
commands (`Ongoing`, such as the order taking of gm.commands.handlers.order_taking)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Protocol, TypeVar

from sqlalchemy.orm import Session

from gm.commands.values import Command
from gm.mail.attached import AttachedFile
from gm.mail.decode import AttachmentInfo
from gm.store.outgoing import Outgoing
from gm.store.rows import Attachment, GameRecord

if TYPE_CHECKING:
    from gm.play.order_pictures import ReplyPicture


@dataclass(frozen=True)
class Limits:
    """What one message may get and one address may hold (the service's settings, gm.config;
    each 0, as in `Limits()`, for no cap): one reply's text and files in bytes, its files, the
    lines that only answer (HELP, MAP, ...) answered in one message (gm.commands.reply_cap),
    and the games not yet started an address may have created."""

    reply_bytes: int = 0
    reply_files: int = 0
    reply_answers: int = 0
    forming_games: int = 0


@dataclass
class Results:
    """The reply being built: lines in order, and notices to queue with it."""

    lines: list[str] = field(default_factory=list)
    mail: list[Outgoing] = field(default_factory=list)
    game: str | None = None  # the game the reply is about, for its subject
    copies: list[str] = field(default_factory=list)  # addresses that get a copy of the reply
    attachments: list[Attachment] = field(default_factory=list)  # files the reply carries (MAP)
    # pictures the reply's HTML part shows, by file name: a later one of the same name (the
    # orders of the same power and phase, acknowledged again) replaces the earlier
    pictures: dict[str, ReplyPicture] = field(default_factory=dict)
    # no reply is sent (its notices are): wrong passwords from an address past the replies
    # allowed it (gm.commands.handlers.signon_guard); a sign-on that succeeds lifts it
    withheld: bool = False

    def add(self, *lines: str) -> None:
        self.lines.extend(lines)

    def show(self, picture: ReplyPicture | None) -> None:
        """Show `picture` in the reply's HTML part (None: nothing, the reader chose NONE)."""
        if picture is not None:
            self.pictures.pop(picture.attachments[0].filename, None)
            self.pictures[picture.attachments[0].filename] = picture

    def blank(self) -> None:
        if self.lines and self.lines[-1] != "":
            self.lines.append("")


@dataclass
class Signed:
    """Who the message speaks for since its last SIGNON (or CREATE): a power, or the GM."""

    game: GameRecord
    power: str | None  # None: the GM
    # `game` is as this sign-on read it, no command having run since: true for the command
    # right after the sign-on (Context.command_starts ends it); a handler that needs the game
    # as stored reads it again otherwise
    fresh: bool = False
    # the game's GM standing in for `power` (BECOME): its orders are told to the power's player
    master: bool = False


class Ongoing(Protocol):
    """Work that goes on over several of a message's commands, kept by its Context: told
    before each command, and when the last has run (it stores what it gathered then). Work
    that tells others what the commands did has `ends_last = True`: it hears after the rest
    (gm.commands.handlers.announce, .standing_in)."""

    def command_starts(self, command: Command) -> None: ...

    def message_ends(self) -> None: ...


_Kept = TypeVar("_Kept", bound=Ongoing)


@dataclass
class Context:
    session: Session
    now: datetime
    sender: str
    inbound_id: int | None
    service: str = "gm"  # the service's display name, for signatures
    # when the mail system received the message (None: now); deadlines are kept by it
    arrived_at: datetime | None = None
    limits: Limits = field(default_factory=Limits)
    results: Results = field(default_factory=Results)
    signed: Signed | None = None
    refused_signon: bool = False  # the last SIGNON failed: what follows it is ignored
    # what goes on over several commands, by its class (`keep`), in the order begun
    ongoing: dict[type, Ongoing] = field(default_factory=dict)
    # the sign-on when the last command started
    _signed_before: Signed | None = field(default=None, init=False, repr=False)
    # the reply's length when the message's last command had run (what the ongoing work
    # writes at the message's end comes after it)
    commands_done_at: int = field(default=0, init=False)
    command: Command | None = field(default=None, init=False)  # the command running
    # the files the message carries: all listed, and its JSON files read when asked for
    # (IMPORT's saved game; gm.mail.attached)
    attachments: tuple[AttachmentInfo, ...] = ()
    json_files: Callable[[], tuple[AttachedFile, ...]] = field(default=lambda: ())

    @property
    def arrived(self) -> datetime:
        """When the message arrived: orders count if this is before the deadline."""
        return self.now if self.arrived_at is None else self.arrived_at  # (Clock.at: <= now)

    def keep(self, kind: type[_Kept], make: Callable[[Context], _Kept]) -> _Kept:
        """The message's ongoing work of class `kind`, begun now (`make`) if need be."""
        found = self.ongoing.get(kind)
        if not isinstance(found, kind):
            found = self.ongoing[kind] = make(self)
        return found

    def command_starts(self, command: Command) -> None:
        """Before each command of the message: the ongoing work hears of it, and the sign-on's
        game is no longer fresh once a command has run after the sign-on."""
        for ongoing in self._in_turn():
            ongoing.command_starts(command)
        self.command = command
        if self.signed is not None and self.signed is self._signed_before:
            self.signed.fresh = False
        self._signed_before = self.signed

    def message_ends(self) -> None:
        """After the message's last command: the ongoing work finishes."""
        self.commands_done_at = len(self.results.lines)
        for ongoing in self._in_turn():
            ongoing.message_ends()

    def _in_turn(self) -> list[Ongoing]:
        """The ongoing work in the order begun, but the work that tells others of what the
        commands did (`ends_last`) after the work that stores and answers (the orders)."""
        return sorted(self.ongoing.values(), key=lambda o: bool(getattr(o, "ends_last", False)))
