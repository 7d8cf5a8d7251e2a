"""Email commands as typed frozen values, one class per command, errors included.

Every value carries the `Line` it came from: its number in the message text and its text with
whitespace collapsed and any password masked, so that a value (or its repr, or an error quoting
it) never shows a password. Names are kept as written (powers, variants); resolving them against
a game's variant is the job of the command that runs them. Game names are lower-cased.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, time, timedelta

from gm.engine.phase import Phase, PhaseType
from gm.policies import LatePolicy as LatePolicy
from gm.policies import PressPolicy as PressPolicy
from gm.secret import MASK as MASK
from gm.secret import Secret as Secret


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


@dataclass(frozen=True)
class UnendedPress(CommandError):
    """A PRESS or BROADCAST line with no ENDPRESS after it: the press is not sent."""


# --------------------------------------------------------------------------------------------
# Players


@dataclass(frozen=True)
class SignOn(Command):
    """`SIGNON France mygame secret`, or the one-letter form `SIGNON Fmygame secret`.

    `power` is as written (one or two words, e.g. "St Petersburg"); with `by_code` it is the
    one-character power code (F, or for Chaos II A..Z and 0..9).
    """

    power: str
    game: str
    password: Secret
    by_code: bool = False


@dataclass(frozen=True)
class SignOnMaster(Command):
    """`SIGNON GM mygame secret` (also the one-letter form `SIGNON Mmygame secret`)."""

    game: str
    password: Secret


@dataclass(frozen=True)
class SignOff(Command):
    """`SIGNOFF`: the rest of the message is ignored."""


@dataclass(frozen=True)
class Join(Command):
    """`JOIN mygame secret` (any free power) or `JOIN France mygame secret`.

    The password is the one the player will sign on with.
    """

    game: str
    password: Secret
    power: str | None = None


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
class Press(Command):
    """A press message: `PRESS TO France, Germany` or `BROADCAST`, its text, then `ENDPRESS`.

    `recipients` are the names as written (empty for a broadcast); `body` is the text between
    the two lines, verbatim except that blank lines around it are dropped.
    """

    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: str
    end_line: int


@dataclass(frozen=True)
class SetPassword(Command):
    password: Secret


@dataclass(frozen=True)
class SetDraw(Command):
    """`SET DRAW` (draw: True) or `SET NO DRAW` (False): the power's vote for a draw."""

    draw: bool


@dataclass(frozen=True)
class SetWait(Command):
    """`SET WAIT` (True) or `SET NOWAIT` / `SET NO WAIT` (False): wait for the deadline even
    when every power has ordered."""

    wait: bool


@dataclass(frozen=True)
class ListGames(Command):
    """`LIST` (all games) or `LIST mygame` (one game's details)."""

    game: str | None = None


@dataclass(frozen=True)
class History(Command):
    """`HISTORY mygame` or `HISTORY mygame S1901M` / `HISTORY mygame Spring 1901, Movement`."""

    game: str
    phase: PhaseRef | None = None


@dataclass(frozen=True)
class Summary(Command):
    game: str


@dataclass(frozen=True)
class Help(Command):
    """`HELP` or `HELP <topic>`; the topic words as written (see gm.commands.catalog.help)."""

    topic: str | None = None


@dataclass(frozen=True)
class Resign(Command):
    pass


@dataclass(frozen=True)
class Clear(Command):
    """`CLEAR`: remove the power's orders for the current phase."""


# --------------------------------------------------------------------------------------------
# Gamemaster


@dataclass(frozen=True)
class Create(Command):
    """`CREATE mygame Deluge II secret`: `variant` as written (one to three words)."""

    game: str
    variant: str
    password: Secret
    rulebook: str | None = None  # `... RULEBOOK 2023` (gm.engine.rulebook); None: the default


@dataclass(frozen=True)
class Add(Command):
    """`ADD France player@example.org [secret]`: seat a player (without a password the
    service makes one); the player is mailed the password either way."""

    power: str
    address: str
    password: Secret | None = None


@dataclass(frozen=True)
class Start(Command):
    pass


@dataclass(frozen=True)
class Pause(Command):
    pass


@dataclass(frozen=True)
class Resume(Command):
    pass


@dataclass(frozen=True)
class Process(Command):
    """`PROCESS`: adjudicate the current phase now."""


@dataclass(frozen=True)
class Preview(Command):
    """`PREVIEW`: show what processing now would give, without doing it."""


@dataclass(frozen=True)
class Terminate(Command):
    pass


@dataclass(frozen=True)
class SetDeadline(Command):
    """`SET DEADLINE [MOVEMENT|RETREAT|ADJUSTMENT|ALL] <48h | 20:00>`.

    `phase_type` None means all phase types. `when` is a timedelta (time allowed from the
    start of the phase) or a time of day (the deadline falls at the next such time, in the
    game's time zone).
    """

    phase_type: PhaseType | None
    when: timedelta | time


@dataclass(frozen=True)
class SetGrace(Command):
    grace: timedelta


@dataclass(frozen=True)
class SetTimezone(Command):
    """`SET TIMEZONE Europe/Paris`: `zone` is the tz database name, as the database spells it."""

    zone: str


@dataclass(frozen=True)
class SetPress(Command):
    policy: PressPolicy


@dataclass(frozen=True)
class SetLate(Command):
    """`SET LATE HOLD`, `SET LATE WAIT`, `SET LATE DISORDER [AFTER n]` (n missed deadlines in
    a row, default 1; `after` is 0 unless the policy is DISORDER)."""

    policy: LatePolicy
    after: int = 0


@dataclass(frozen=True)
class SetRulebook(Command):
    """`SET RULEBOOK 2000|2023`: the rulebook the game plays, chosen before START."""

    rulebook: str


@dataclass(frozen=True)
class SetEarly(Command):
    """`SET EARLY ON|OFF`: process as soon as every power has ordered."""

    early: bool


@dataclass(frozen=True)
class SetRemind(Command):
    """`SET REMIND 6h` / `SET REMIND OFF` / `SET REMIND ON`: how long before the deadline
    powers without orders are reminded (zero: never; None: the default)."""

    before: timedelta | None


@dataclass(frozen=True)
class SetObservers(Command):
    """`SET OBSERVERS a@example.org b@example.org` / `SET OBSERVERS NONE`: the whole list of
    addresses that get the observers' report."""

    addresses: tuple[str, ...]


@dataclass(frozen=True)
class AddObserver(Command):
    """`ADD OBSERVER a@example.org`: one more address for the observers' report."""

    address: str


@dataclass(frozen=True)
class Replace(Command):
    """`REPLACE France new@example.org [secret]`: a new player takes over a power."""

    power: str
    address: str
    password: Secret | None = None


@dataclass(frozen=True)
class Eject(Command):
    power: str


@dataclass(frozen=True)
class Unlock(Command):
    """`UNLOCK France` / `UNLOCK GM` / `UNLOCK ALL`: forget the wrong passwords counted
    against sign-ons to a power, the GM, or all of them."""

    power: str


@dataclass(frozen=True)
class Rollback(Command):
    """`ROLLBACK S1901M` / `ROLLBACK Spring 1901, Movement`: return the game to that phase."""

    phase: PhaseRef


# --------------------------------------------------------------------------------------------
# What players of the classic judges type besides: observing, the map, standing by, moving to
# a new address, absences, joining with preferences


@dataclass(frozen=True)
class Observe(Command):
    """`OBSERVE mygame` (get the observers' report of every phase) or `OBSERVE mygame OFF`."""

    game: str
    off: bool = False


@dataclass(frozen=True)
class SetObserve(Command):
    """`SET OBSERVE ON|OFF` (GM): whether anyone may OBSERVE the game."""

    allowed: bool


@dataclass(frozen=True)
class MapRequest(Command):
    """`MAP mygame` (the position now) or `MAP mygame S1901M` (at the start of that phase)."""

    game: str
    phase: PhaseRef | None = None


@dataclass(frozen=True)
class Standby(Command):
    """`STANDBY mygame`, `STANDBY` (any game), with OFF to withdraw: `STANDBY mygame OFF`,
    `STANDBY OFF` (every offer)."""

    game: str | None = None
    off: bool = False


@dataclass(frozen=True)
class ReplaceFromStandby(Command):
    """`REPLACE France STANDBY` (GM): the first player standing by takes the power."""

    power: str


@dataclass(frozen=True)
class SetAddress(Command):
    """`SET ADDRESS new@example.org`: move to a new address in every game, once confirmed."""

    address: str


@dataclass(frozen=True)
class ConfirmAddress(Command):
    """`SET ADDRESS CONFIRM <code>`, sent from the new address."""

    code: Secret


@dataclass(frozen=True)
class SetAbsence(Command):
    """`SET ABSENCE 2026-03-05 TO 2026-03-08`: days away (first and last, in the game's time
    zone)."""

    start: date
    end: date


@dataclass(frozen=True)
class ClearAbsence(Command):
    """`SET NO ABSENCE`: withdraw the absences that have not begun."""


@dataclass(frozen=True)
class SetAbsenceLimit(Command):
    """`SET ABSENCE LIMIT 14` / `SET ABSENCE LIMIT OFF` (GM): the days of absence each power may
    claim in the game (0: absences off)."""

    days: int


@dataclass(frozen=True)
class JoinPrefer(Command):
    """`JOIN mygame secret PREFER France, Italy, Turkey`: join a forming game; a power is
    given at START by these preferences (names as written)."""

    game: str
    password: Secret
    preferences: tuple[str, ...]


@dataclass(frozen=True)
class Ahead(Command):
    """`AHEAD RETREAT A Bur-Par` / `AHEAD BUILD Build A Par`: an order for the next phase of
    that kind, checked when it opens. `text` is the order as written."""

    phase_type: PhaseType
    text: str


@dataclass(frozen=True)
class ClearAhead(Command):
    """`AHEAD CLEAR`: withdraw the orders sent ahead."""
