"""Read the text of one email into a list of command values (grammar: grammars/commands.lark).

The text is read line by line. A line whose first word is a command keyword is read by the
grammar (one command per line); a PRESS TO or BROADCAST line opens a press message whose lines
are kept verbatim up to ENDPRESS; SIGNOFF ends the reading. Any other line is an order after a
SIGNON (kept as an `OrderLine` for gm.notation) and an error before it. Blank lines are skipped.
Whatever the input, the result is a list of values, errors included; nothing raises.
"""

from __future__ import annotations

import difflib
import functools
import re
import zoneinfo
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, time, timedelta
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, VisitError

from gm.commands.usage import PASSWORD_KEYWORDS, usage
from gm.commands.values import (
    MASK,
    Add,
    AddObserver,
    Ahead,
    Clear,
    ClearAbsence,
    ClearAhead,
    Command,
    ConfirmAddress,
    Create,
    Eject,
    Help,
    History,
    Join,
    JoinPrefer,
    LatePolicy,
    Line,
    ListGames,
    MapRequest,
    NotACommand,
    Observe,
    OrderLine,
    Pause,
    PhaseCode,
    PhaseRef,
    Press,
    PressPolicy,
    Preview,
    Process,
    Replace,
    ReplaceFromStandby,
    Resign,
    Resume,
    Rollback,
    Secret,
    SetAbsence,
    SetAbsenceLimit,
    SetAddress,
    SetDeadline,
    SetDraw,
    SetEarly,
    SetGrace,
    SetLate,
    SetObserve,
    SetObservers,
    SetPassword,
    SetPress,
    SetRemind,
    SetRulebook,
    SetTimezone,
    SetWait,
    SignOff,
    SignOn,
    SignOnMaster,
    Standby,
    Start,
    Summary,
    Terminate,
    TooLong,
    UnendedPress,
    Unlock,
    Unreadable,
)
from gm.engine.phase import Phase, PhaseType
from gm.engine.rulebook import RULEBOOKS
from gm.paths import GRAMMARS

# Limits. A message over them is refused as a whole (a TooLong value and nothing else); a
# command or order line over MAX_LINE_CHARS is refused alone. Lines after SIGNOFF do not count.
MAX_MESSAGE_CHARS = 200_000
MAX_LINES = 2_000
MAX_LINE_CHARS = 500
# Before a SIGNON, lines that are not commands are reported one by one up to this many, then
# counted in one last error.
MAX_NOT_COMMANDS = 10

KEYWORDS = frozenset(
    {
        "SIGNON", "JOIN", "SIGNOFF", "PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS",
        "SET", "LIST", "HISTORY", "SUMMARY", "HELP", "RESIGN", "CLEAR", "CREATE", "ADD",
        "START", "PAUSE", "RESUME", "PROCESS", "PREVIEW", "TERMINATE", "REPLACE", "EJECT",
        "ROLLBACK", "UNLOCK", "OBSERVE", "MAP", "STANDBY", "AHEAD",
    }
)  # fmt: skip
# Commands a message may hold before any SIGNON, as the "not a command" error lists them.
BEFORE_SIGNON = "SIGNON, JOIN, CREATE, LIST, HISTORY, SUMMARY or HELP"

_GAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}", re.IGNORECASE)
_EOL = re.compile(r"\r\n|\r|\n")
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))
# A list item's mark before a command or order: `1. A Bur - Par`, `2) ...`, `* F Hol - NTH`,
# `- A Mun H`, `• ...` (numbered and bulleted lists, as mail programs make them).
_LIST_MARK = re.compile(
    r"(?:\d{1,3}[.)]|[-*+\u2022\u2023\u25e6\u2043\u2219\u00b7\u2013\u2014])\s+(?=\S)")


@dataclass(frozen=True)
class Session:
    """The commands of a message that follow one SIGNON line, up to the next one.

    `signon` is that line's value (SignOn, SignOnMaster, or an Unreadable SIGNON line), or None
    for the commands before the first SIGNON.
    """

    signon: Command | None
    commands: tuple[Command, ...]


_CENTRE_WORDS = ("centre", "center", "sc", "s.c.", "s.c", "supply")


def _creates_centre(clean: str) -> bool:
    """`Create centre Bur`, `Create a new s.c. in Bur` (Geophysical rule 7) are orders, not
    the CREATE command."""
    words = [w.lower() for w in clean.split()]
    if len(words) >= 2 and words[1] in _CENTRE_WORDS:
        return True
    fillers = ("a", "an", "the", "new")
    return len(words) >= 3 and words[1] in fillers and (
        words[2] in _CENTRE_WORDS or (words[2] in fillers and len(words) >= 4
                                      and words[3] in _CENTRE_WORDS))


def parse_message(text: str) -> list[Command]:
    """Read one message's text (decoded, quotes and signature cut) into command values."""
    out: list[Command] = []
    signed_on = False
    press: _OpenPress | None = None
    not_commands = 0
    first_unreported: Line | None = None
    chars = 0
    for number, raw in enumerate(_lines(text), start=1):
        chars += len(raw) + 1
        if number > MAX_LINES or chars > MAX_MESSAGE_CHARS:
            return [_message_too_long(text)]
        if press is not None:
            if _clean(raw).upper() in ("ENDPRESS", "END PRESS"):
                out.append(press.close(number))
                press = None
            else:
                press.body.append(raw)
            continue
        clean = _clean(raw)
        if not clean:
            continue
        mark = _LIST_MARK.match(clean)
        if mark is not None:  # the line as if it were not in a list
            clean = clean[mark.end():]
            raw = _LIST_MARK.sub("", raw.translate(_INVISIBLE).strip(), count=1)
        first = clean.split(" ", 1)[0]
        keyword = first.upper() if first.isascii() else ""
        if len(clean) > MAX_LINE_CHARS:
            out.append(_line_too_long(number, clean, keyword))
            continue
        if keyword == "CREATE" and signed_on and _creates_centre(clean):  # Geophysical rule 7
            out.append(OrderLine(Line(number, clean), raw.translate(_INVISIBLE).strip()))
            continue
        if keyword in KEYWORDS:
            result = _read_command(clean, number, keyword)
            if isinstance(result, _OpenPress):
                press = result
                continue
            out.append(result)
            if keyword == "SIGNON":
                # even a SIGNON line that cannot be read: the orders after it are its orders
                # (refused with it), not lines to report one by one as "not a command"
                signed_on = True
            if isinstance(result, SignOff):
                break
        elif signed_on:
            out.append(OrderLine(Line(number, clean), raw.translate(_INVISIBLE).strip()))
        else:
            not_commands += 1
            if not_commands <= MAX_NOT_COMMANDS:
                out.append(_not_a_command(number, clean, first))
            elif first_unreported is None:
                first_unreported = Line(number, _mask_unknown(clean, first))
    if press is not None:
        out.append(press.unended())
    if first_unreported is not None:
        more = not_commands - MAX_NOT_COMMANDS
        out.append(
            NotACommand(
                first_unreported,
                f"{more} more line{'s' if more > 1 else ''} from line {first_unreported.number}"
                f" on are not commands either, and were ignored",
            )
        )
    return out


def sessions(commands: Sequence[Command]) -> list[Session]:
    """Group a message's commands by the SIGNON line they follow (several SIGNONs allowed)."""
    groups: list[Session] = []
    start: Command | None = None
    current: list[Command] = []
    for command in commands:
        if _is_signon(command):
            if start is not None or current:
                groups.append(Session(start, tuple(current)))
            start, current = command, []
        else:
            current.append(command)
    if start is not None or current:
        groups.append(Session(start, tuple(current)))
    return groups


def _is_signon(command: Command) -> bool:
    return isinstance(command, SignOn | SignOnMaster) or (
        isinstance(command, Unreadable) and command.keyword == "SIGNON"
    )


# --------------------------------------------------------------------------------------------
# Lines


def _lines(text: str) -> Iterator[str]:
    """The lines of `text` (CR, LF or CRLF ends a line), lazily: SIGNOFF may stop early."""
    pos = 0
    for eol in _EOL.finditer(text):
        yield text[pos : eol.start()]
        pos = eol.end()
    if pos < len(text):
        yield text[pos:]


def _clean(raw: str) -> str:
    """The line with invisible characters dropped and white space collapsed to single spaces."""
    return " ".join(raw.translate(_INVISIBLE).split())


def _quote(text: str, limit: int = 80) -> str:
    """`text` in double quotes for an error message: shortened, unprintable characters shown as
    U+FFFD."""
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return '"' + "".join(ch if ch.isprintable() else "\ufffd" for ch in short) + '"'


def _mask_last_word(clean: str) -> str:
    words = clean.split(" ")
    return clean if len(words) < 2 else " ".join([*words[:-1], MASK])


def _mask_unread(clean: str, keyword: str) -> str:
    """Mask what may be a password in a line that was not read (see usage.PASSWORD_KEYWORDS)."""
    words = clean.split(" ")
    if keyword == "SET" and len(words) > 2 and words[1].upper().startswith(("PA", "PW")):
        return " ".join([*words[:2], MASK])
    upper = [w.upper() for w in words]
    if keyword == "SET" and upper[1:3] == ["ADDRESS", "CONFIRM"] and len(words) > 3:
        return " ".join([*words[:3], MASK])
    if keyword == "JOIN" and "PREFER" in upper[1:]:
        at = upper.index("PREFER")  # the password is the word before PREFER
        return " ".join([*words[: at - 1], MASK, *words[at:]]) if at > 1 else clean
    if keyword == "CREATE" and len(words) > 3 and words[-2].upper() == "RULEBOOK":
        # `CREATE g v secret RULEBOOK 1999`: the password is before RULEBOOK
        return " ".join([*words[:-3], MASK, *words[-2:]])
    if keyword in PASSWORD_KEYWORDS:
        return _mask_last_word(clean)
    return clean


def _closest_keyword(word: str) -> str | None:
    close = difflib.get_close_matches(word.upper(), sorted(KEYWORDS), n=1, cutoff=0.75)
    return close[0] if close else None


def _mask_unknown(clean: str, first: str) -> str:
    """A line that is not a command may still be a misspelt SIGNON with a password."""
    near = _closest_keyword(first)
    return _mask_unread(clean, near) if near else clean


def _not_a_command(number: int, clean: str, first: str) -> NotACommand:
    near = _closest_keyword(first)
    masked = _mask_unknown(clean, first)
    hint = f" (did you mean {near}?)" if near else ""
    return NotACommand(
        Line(number, masked),
        f"{_quote(masked)} is not a command{hint}. Before a SIGNON line a message may hold"
        f" only commands ({BEFORE_SIGNON}; send HELP for all of them); orders go on the"
        f" lines after your SIGNON line",
    )


def _line_too_long(number: int, clean: str, keyword: str) -> TooLong:
    masked = _mask_unread(clean, keyword) if keyword else _mask_unknown(clean, clean.split()[0])
    return TooLong(
        Line(number, masked[:59] + "…"),
        f"{_quote(masked, 60)} is {len(clean)} characters long; a command or order line may"
        f" have at most {MAX_LINE_CHARS}. The line was ignored",
    )


def _message_too_long(text: str) -> TooLong:
    lines = sum(1 for _ in _EOL.finditer(text)) + 1
    return TooLong(
        Line(0, ""),
        f"The message is too long ({lines} lines, {len(text)} characters); a message may have"
        f" at most {MAX_LINES} lines and {MAX_MESSAGE_CHARS} characters before SIGNOFF."
        f" Nothing in it was done",
    )


# --------------------------------------------------------------------------------------------
# Press


@dataclass
class _OpenPress:
    """A PRESS TO or BROADCAST line whose ENDPRESS has not been read yet."""

    line: Line
    recipients: tuple[str, ...]
    broadcast: bool
    grey: bool
    body: list[str] = field(default_factory=list)

    def close(self, end_line: int) -> Command:
        lines = list(self.body)
        while lines and not lines[0].strip():
            lines.pop(0)
        while lines and not lines[-1].strip():
            lines.pop()
        if not lines:
            return Unreadable(
                self.line,
                f"{_quote(self.line.text)} (line {self.line.number}) has no text before its"
                f" ENDPRESS (line {end_line}); nothing was sent. Write the message on the lines"
                " between them",
                "PRESS",
            )
        return Press(
            self.line, self.recipients, self.broadcast, self.grey, "\n".join(lines), end_line
        )

    def unended(self) -> UnendedPress:
        return UnendedPress(
            self.line,
            f"{_quote(self.line.text)} (line {self.line.number}) has no ENDPRESS line after it;"
            f" the press was not sent, and {_lines_after(len(self.body))} taken as its text."
            " End a press message with a line ENDPRESS",
        )


def _lines_after(count: int) -> str:
    return "the line after it was" if count == 1 else f"the {count} lines after it were"


# --------------------------------------------------------------------------------------------
# Command lines


class _Invalid(Exception):
    """A line the grammar accepts but whose values are wrong; the message says why."""


@dataclass(frozen=True)
class _Draft:
    """What the grammar read: a constructor awaiting the (masked) line, and the secret tokens."""

    make: Callable[[Line], Command | _OpenPress]
    secrets: tuple[Token, ...] = ()


@functools.cache
def _parser() -> Lark:
    """The command grammar, built once per process (LALR, values built while parsing; the
    built parser is kept between runs by gm.commands.lark_cache)."""
    from gm.commands.lark_cache import cached_lark

    return cached_lark(
        "commands",
        (GRAMMARS / "commands.lark").read_text(encoding="utf-8"),
        lexer="contextual",
        transformer=_Build(),
    )


def _read_command(clean: str, number: int, keyword: str) -> Command | _OpenPress:
    try:
        draft = _parser().parse(clean)
    except (_Invalid, VisitError) as error:
        reason = error.orig_exc if isinstance(error, VisitError) else error
        masked = _mask_unread(clean, keyword)
        return Unreadable(Line(number, masked), f"Cannot read {_quote(masked)}: {reason}", keyword)
    except LarkError:
        if keyword == "CREATE":
            missing = _create_missing(clean, number)
            if missing is not None:
                return missing
        masked = _mask_unread(clean, keyword)
        second = clean.split(" ")[1].upper() if " " in clean else ""
        return Unreadable(
            Line(number, masked),
            f"Cannot read {_quote(masked)}: {usage(keyword, second)}",
            keyword,
        )
    assert isinstance(draft, _Draft)
    text = clean
    for token in sorted(draft.secrets, key=lambda t: t.start_pos or 0, reverse=True):
        text = text[: token.start_pos] + MASK + text[token.end_pos :]
    return draft.make(Line(number, text))


def _create_missing(clean: str, number: int) -> Unreadable | None:
    """`CREATE mygame Standard`: the password is missing (the line ends with a variant's name,
    not a password to mask), or None when the line is something else."""
    from gm.variants.registry import canonical_name

    words = clean.split(" ")[1:]
    if len(words) < 2 or canonical_name(" ".join(words[1:])) is None:
        return None
    return Unreadable(
        Line(number, clean),
        f"Cannot read {_quote(clean)}: the password is missing; CREATE needs a game name, a"
        f" variant and a password: CREATE {words[0]} {' '.join(words[1:])} secret",
        "CREATE",
    )


def _game(token: Token) -> str:
    name = str(token)
    if not _GAME.fullmatch(name):
        raise _Invalid(
            f"{_quote(name, 40)} is not a game name; game names are letters, digits,"
            " - and _ (at most 40)"
        )
    return name.lower()


def _words(tokens: Sequence[Token]) -> str:
    return " ".join(str(t) for t in tokens)


def _address(token: Token) -> str:
    return str(token).removeprefix("<").removesuffix(">")


_UNITS = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}
_PHASE_TYPES = {"m": PhaseType.MOVEMENT, "r": PhaseType.RETREAT, "a": PhaseType.ADJUSTMENT,
                "b": PhaseType.ADJUSTMENT}  # fmt: skip


def _phase_type(word: str) -> PhaseType:
    return _PHASE_TYPES[word[0].lower()]


@functools.cache
def _zones() -> dict[str, str]:
    """tz database names by lower-case name (empty where the system has no tz database)."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


@dataclass(frozen=True)
class _RulebookWord:
    """The year after RULEBOOK in a CREATE line, checked."""

    value: str


def _rulebook(word: str) -> str:
    if word in RULEBOOKS:
        return word
    raise _Invalid(f"there is no {word!r} rulebook: RULEBOOK {' or '.join(RULEBOOKS)} "
                   "(2000 if not given; HELP RULEBOOK)")


def _zone(name: str) -> str:
    zones = _zones()
    if name.lower() in zones:
        return zones[name.lower()]
    if not zones:  # no tz database to list: ask zoneinfo itself
        try:
            zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            pass
        else:
            return name
    raise _Invalid(
        f"{_quote(name, 40)} is not a time zone; give a tz database name such as Europe/Paris,"
        " America/New_York or UTC"
    )


class _Build(Transformer[Token, Any]):
    """Builds drafts of command values from the grammar's rules (see commands.lark)."""

    # ---- signing on
    def signon(self, c: list[Token]) -> _Draft:
        *power, game, password = c
        name, secret = _game(game), Secret(str(password))
        return _Draft(lambda line: SignOn(line, _words(power), name, secret), (password,))

    def signon_by_code(self, c: list[Token]) -> _Draft:
        coded, password = c
        code, name, secret = (
            str(coded)[0],
            _game(Token("WORD", str(coded)[1:])),
            Secret(str(password)),
        )
        if code in "Mm":  # M is the gamemaster's code (the power codes never use it)
            return _Draft(lambda line: SignOnMaster(line, name, secret), (password,))
        if code == "?":  # the classic judges' way to join a forming game: JOIN
            return _Draft(lambda line: Join(line, name, secret), (password,))
        return _Draft(
            lambda line: SignOn(line, code.upper(), name, secret, by_code=True), (password,)
        )

    def signon_master(self, c: list[Token]) -> _Draft:
        game, password = c
        name, secret = _game(game), Secret(str(password))
        return _Draft(lambda line: SignOnMaster(line, name, secret), (password,))

    def join_any(self, c: list[Token]) -> _Draft:
        game, password = c
        name, secret = _game(game), Secret(str(password))
        return _Draft(lambda line: Join(line, name, secret), (password,))

    def join(self, c: list[Token]) -> _Draft:
        *power, game, password = c
        name, secret = _game(game), Secret(str(password))
        return _Draft(lambda line: Join(line, name, secret, _words(power)), (password,))

    def signoff(self, c: list[Token]) -> _Draft:
        return _Draft(SignOff)

    # ---- press
    def name(self, c: list[Token]) -> list[str]:
        return [str(t) for t in c]

    def recipients(self, c: list[list[str]]) -> tuple[str, ...]:
        words = [w for group in c for w in group]
        if len(c) == 1 and not any(w.lower() == "and" for w in words):
            names = words  # no separators: each word is a name
        else:
            names = []
            for group in c:
                run: list[str] = []
                for word in [*group, "and"]:
                    if word.lower() == "and":
                        if run:
                            names.append(" ".join(run))
                        run = []
                    else:
                        run.append(word)
        unique = list(dict.fromkeys(names))
        if not unique:
            raise _Invalid("PRESS TO needs the names of its recipients: PRESS TO France, Germany")
        return tuple(unique)

    def press_to(self, c: list[Any]) -> _Draft:
        recipients = next(x for x in c if isinstance(x, tuple))
        grey = any(isinstance(x, Token) for x in c)
        if len(recipients) == 1 and recipients[0].upper() == "ALL":
            return _Draft(lambda line: _OpenPress(line, (), True, grey))
        return _Draft(lambda line: _OpenPress(line, recipients, False, grey))

    def broadcast(self, c: list[Token]) -> _Draft:
        grey = bool(c)
        return _Draft(lambda line: _OpenPress(line, (), True, grey))

    def endpress(self, c: list[Token]) -> _Draft:
        raise _Invalid(usage("ENDPRESS"))

    # ---- player settings
    def set_password(self, c: list[Token]) -> _Draft:
        (password,) = c
        secret = Secret(str(password))
        return _Draft(lambda line: SetPassword(line, secret), (password,))

    def set_draw(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: SetDraw(line, True))

    def set_no_draw(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: SetDraw(line, False))

    def set_wait(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: SetWait(line, True))

    def set_no_wait(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: SetWait(line, False))

    # ---- information
    def list_games(self, c: list[Token]) -> _Draft:
        game = _game(c[0]) if c else None
        return _Draft(lambda line: ListGames(line, game))

    def history(self, c: list[Any]) -> _Draft:
        game = _game(c[0])
        phase: PhaseRef | None = c[1] if len(c) > 1 else None
        return _Draft(lambda line: History(line, game, phase))

    def summary(self, c: list[Token]) -> _Draft:
        game = _game(c[0])
        return _Draft(lambda line: Summary(line, game))

    def help(self, c: list[Token]) -> _Draft:
        topic = _words(c) or None
        return _Draft(lambda line: Help(line, topic))

    def resign(self, c: list[Token]) -> _Draft:
        return _Draft(Resign)

    def clear(self, c: list[Token]) -> _Draft:
        return _Draft(Clear)

    # ---- gamemaster
    def create(self, c: list[Any]) -> _Draft:
        rulebook = c.pop() if isinstance(c[-1], _RulebookWord) else None
        game, *variant, password = c
        name, secret = _game(game), Secret(str(password))
        book = None if rulebook is None else rulebook.value
        return _Draft(lambda line: Create(line, name, _words(variant), secret, book),
                      (password,))

    def rulebook(self, c: list[Token]) -> _RulebookWord:
        return _RulebookWord(_rulebook(str(c[0])))

    def set_rulebook(self, c: list[Token]) -> _Draft:
        rulebook = _rulebook(str(c[0]))
        return _Draft(lambda line: SetRulebook(line, rulebook))

    def add(self, c: list[Token]) -> _Draft:
        at = next(i for i, t in enumerate(c) if t.type == "ADDRESS")
        power, address, rest = c[:at], c[at], c[at + 1 :]
        secret = Secret(str(rest[0])) if rest else None
        return _Draft(lambda line: Add(line, _words(power), _address(address), secret),
                      tuple(rest))

    def add_observer(self, c: list[Token]) -> _Draft:
        address = _address(c[0])
        return _Draft(lambda line: AddObserver(line, address))

    def start_game(self, c: list[Token]) -> _Draft:
        return _Draft(Start)

    def pause(self, c: list[Token]) -> _Draft:
        return _Draft(Pause)

    def resume(self, c: list[Token]) -> _Draft:
        return _Draft(Resume)

    def process(self, c: list[Token]) -> _Draft:
        return _Draft(Process)

    def preview(self, c: list[Token]) -> _Draft:
        return _Draft(Preview)

    def terminate(self, c: list[Token]) -> _Draft:
        return _Draft(Terminate)

    def replace(self, c: list[Token]) -> _Draft:
        at = next(i for i, t in enumerate(c) if t.type == "ADDRESS")
        power, address, rest = c[:at], c[at], c[at + 1 :]
        secret = Secret(str(rest[0])) if rest else None
        return _Draft(
            lambda line: Replace(line, _words(power), _address(address), secret), tuple(rest)
        )

    def eject(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: Eject(line, _words(c)))

    def unlock(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: Unlock(line, _words(c)))

    def rollback(self, c: list[PhaseRef]) -> _Draft:
        (phase,) = c
        return _Draft(lambda line: Rollback(line, phase))

    def set_deadline(self, c: list[Any]) -> _Draft:
        kind = c[0] if len(c) == 2 else None
        phase_type = None if kind is None or str(kind).lower() == "all" else _phase_type(kind)
        when: timedelta | time = c[-1] if isinstance(c[-1], timedelta) else _time(c[-1])
        if when == timedelta(0):
            raise _Invalid("a deadline needs a time after 0: SET DEADLINE MOVEMENT 48h")
        return _Draft(lambda line: SetDeadline(line, phase_type, when))

    def set_grace(self, c: list[timedelta]) -> _Draft:
        (grace,) = c
        return _Draft(lambda line: SetGrace(line, grace))

    def set_timezone(self, c: list[Token]) -> _Draft:
        zone = _zone(str(c[0]))
        return _Draft(lambda line: SetTimezone(line, zone))

    def set_press(self, c: list[Token]) -> _Draft:
        word = str(c[0]).lower().replace("gray", "grey")
        policy = PressPolicy(word)
        return _Draft(lambda line: SetPress(line, policy))

    def set_late_hold(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: SetLate(line, LatePolicy.HOLD))

    def set_late_wait(self, c: list[Token]) -> _Draft:
        return _Draft(lambda line: SetLate(line, LatePolicy.WAIT))

    def set_late_disorder(self, c: list[Token]) -> _Draft:
        after = int(c[0]) if c else 1
        if after < 1:
            raise _Invalid("DISORDER AFTER needs a number of missed deadlines from 1 up")
        return _Draft(lambda line: SetLate(line, LatePolicy.DISORDER, after))

    def set_early(self, c: list[Token]) -> _Draft:
        early = str(c[0]).lower() == "on"
        return _Draft(lambda line: SetEarly(line, early))

    def set_remind(self, c: list[Any]) -> _Draft:
        (value,) = c
        before: timedelta | None
        if isinstance(value, timedelta):
            before = value
        else:
            before = None if str(value).lower() == "on" else timedelta(0)
        return _Draft(lambda line: SetRemind(line, before))

    def set_observers(self, c: list[Token]) -> _Draft:
        addresses = tuple(dict.fromkeys(_address(t).rstrip(",") for t in c))
        return _Draft(lambda line: SetObservers(line, addresses))

    # ---- observing, the map, standing by, moving, absences, preferences
    def observe(self, c: list[Token]) -> _Draft:
        game, off = _game(c[0]), len(c) > 1
        return _Draft(lambda line: Observe(line, game, off))

    def set_observe(self, c: list[Token]) -> _Draft:
        allowed = str(c[0]).lower() == "on"
        return _Draft(lambda line: SetObserve(line, allowed))

    def map(self, c: list[Any]) -> _Draft:
        game = _game(c[0])
        phase: PhaseRef | None = c[1] if len(c) > 1 else None
        return _Draft(lambda line: MapRequest(line, game, phase))

    def standby(self, c: list[Token]) -> _Draft:
        off = bool(c) and c[-1].type == "OFF"
        words = c[:-1] if off else c
        game = _game(words[0]) if words else None
        return _Draft(lambda line: Standby(line, game, off))

    def replace_standby(self, c: list[Token]) -> _Draft:
        power = _words(c)
        return _Draft(lambda line: ReplaceFromStandby(line, power))

    def set_address(self, c: list[Token]) -> _Draft:
        address = _address(c[0])
        return _Draft(lambda line: SetAddress(line, address))

    def confirm_address(self, c: list[Token]) -> _Draft:
        (code,) = c
        secret = Secret(str(code))
        return _Draft(lambda line: ConfirmAddress(line, secret), (code,))

    def set_absence(self, c: list[Token]) -> _Draft:
        start, end = _date(c[0]), _date(c[1])
        if end < start:
            raise _Invalid(f"the absence ends ({end}) before it begins ({start}); write the"
                           " first day away, then the last: SET ABSENCE 2026-03-05 TO 2026-03-08")
        return _Draft(lambda line: SetAbsence(line, start, end))

    def clear_absence(self, c: list[Token]) -> _Draft:
        return _Draft(ClearAbsence)

    def set_absence_limit(self, c: list[Token]) -> _Draft:
        word = str(c[0]).lower()
        if word == "on":
            raise _Invalid("SET ABSENCE LIMIT needs a number of days, or OFF:"
                           " SET ABSENCE LIMIT 14")
        days = 0 if word == "off" else int(word)
        return _Draft(lambda line: SetAbsenceLimit(line, days))

    def join_prefer(self, c: list[Any]) -> _Draft:
        game, password, names = c
        name, secret = _game(game), Secret(str(password))
        return _Draft(lambda line: JoinPrefer(line, name, secret, names), (password,))

    def ahead(self, c: list[Token]) -> _Draft:
        kind, *words = c
        phase_type, text = _phase_type(str(kind)), _words(words)
        return _Draft(lambda line: Ahead(line, phase_type, text))

    def clear_ahead(self, c: list[Token]) -> _Draft:
        return _Draft(ClearAhead)

    # ---- values
    def duration(self, c: list[Token]) -> timedelta:
        total = timedelta(0)
        for part in c:
            m = re.fullmatch(r"(\d+) ?([a-z])[a-z]*", str(part).lower())
            assert m is not None  # the grammar's DURATION_PART
            total += int(m.group(1)) * _UNITS[m.group(2)]
        return total

    def season(self, c: list[Token]) -> str:
        return " ".join(str(t).title() for t in c)

    def phase_long(self, c: list[Any]) -> Phase:
        season, year, *_, kind = c
        return Phase(season, int(year), _phase_type(str(kind)))

    def phase_code(self, c: list[Token]) -> PhaseCode:
        m = re.fullmatch(r"([a-z]+)(\d+)([a-z])", str(c[0]).lower())
        assert m is not None  # the grammar's PHASE_CODE
        return PhaseCode(m.group(1).upper(), int(m.group(2)), _phase_type(m.group(3)))

    def start(self, c: list[_Draft]) -> _Draft:
        return c[0]


def _date(token: Token) -> date:
    try:
        return date(*(int(part) for part in str(token).split("-")))
    except ValueError:
        raise _Invalid(f"{_quote(str(token), 20)} is not a date; write dates as year-month-day:"
                       " 2026-03-05") from None


def _time(token: Token) -> time:
    hours, minutes = str(token).split(":")
    return time(int(hours), int(minutes))
