"""What the email commands share as typed frozen values: the `Command` base, the errors, the
order line (and CLEAR, which order taking runs among the order lines), and the small values
several commands hold (Line, PhaseCode; passwords are gm.secret.Secret). Each command's own
value class is in its module of gm.commands.catalog.

Every value carries the `Line` it came from: its number in the message text and its text with
whitespace collapsed and any password masked, so that a value (or its repr, or an error quoting
it) never shows a password. Names are kept as written (powers, variants); resolving them against
a game's variant is the job of the command that runs them. Game names are lower-cased.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.engine.phase import Phase, PhaseType


@dataclass(frozen=True)
class Line:
    """Where a command came from: 1-based line number (0 = the message as a whole) and text."""

    number: int
    text: str

    def __str__(self) -> str:
        return f"line {self.number}: {self.text}" if self.number else self.text


@dataclass(frozen=True)
class PhaseCode:
    """A compact phase name such as `S1901M` or `W1901B`.

    The season letters are resolved later against the variant's calendar (`J1914M` may be
    June or July); B (builds) is read as an adjustment phase.
    """

    season: str
    year: int
    type: PhaseType

    def __str__(self) -> str:
        return f"{self.season}{self.year}{self.type.letter}"


PhaseRef = Phase | PhaseCode


# --------------------------------------------------------------------------------------------
# Base classes


@dataclass(frozen=True)
class Command:
    """Base of every command value, errors included."""

    line: Line


@dataclass(frozen=True)
class CommandError(Command):
    """A line that could not be taken as a command; `message` quotes it and says what works."""

    message: str

    def __str__(self) -> str:
        return f"line {self.line.number}: {self.message}" if self.line.number else self.message


@dataclass(frozen=True)
class Unreadable(CommandError):
    """A line starting with a command keyword whose rest does not fit that command."""

    keyword: str = ""  # the command keyword the line starts with, upper case


@dataclass(frozen=True)
class NotACommand(CommandError):
    """A line before any SIGNON that is not a command (orders need a SIGNON first)."""


@dataclass(frozen=True)
class TooLong(CommandError):
    """A line, or the whole message, over the size limits (see gm.commands.parse)."""


# --------------------------------------------------------------------------------------------
# Order lines


@dataclass(frozen=True)
class OrderLine(Command):
    """A line after a SIGNON that is not a command: an order, for gm.notation to read. `sent` is
    the line as the player wrote it (ends stripped), which error messages quote; "" when the
    value was not read from a message."""

    sent: str = field(default="", compare=False)

    @property
    def text(self) -> str:
        return self.line.text


@dataclass(frozen=True)
class ListOrders(Command):
    """`ORDERS`: the power's orders as they stand, in words and drawn on the board (order
    taking lists them; nothing is changed)."""


@dataclass(frozen=True)
class Clear(Command):
    """`CLEAR`: remove the power's orders for the current phase (shared with order taking, for
    which a CLEAR is part of a run of order lines)."""

