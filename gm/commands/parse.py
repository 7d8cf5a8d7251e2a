"""Read the text of one email into a list of command values (grammar: grammars/commands.lark).

The text is read line by line. A line whose first word is a command keyword is read by the
grammar (one command per line); a PRESS TO or BROADCAST line opens a press message whose lines
are kept verbatim up to ENDPRESS or ENDBROADCAST, nothing in them read as a heading, an order or
a command (one without them ends at SIGNOFF, a SIGNON line or the end of the message: press is
never lost); under a press heading that cannot be read nothing is sent or taken up to its end;
SIGNOFF ends the reading. Any other line is an order after a SIGNON (kept as an `OrderLine` for
gm.notation) and an error before it. Blank lines are skipped.
Whatever the input, the result is a list of values, errors included; nothing raises.
"""

from __future__ import annotations

import dataclasses
import difflib
import functools
import re
from collections import deque
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from lark import Lark, Token, Transformer
from lark.exceptions import LarkError, VisitError

from gm.commands.catalog import KEYWORDS, PASSWORD_KEYWORDS, RULES, TABLES, usage
from gm.commands.catalog.press import OpenPress, Press, PressEnd, open_press
from gm.commands.catalog.signoff import SignOff
from gm.commands.catalog.signon import SignOn
from gm.commands.catalog.signon_master import SignOnMaster
from gm.commands.lark_cache import cached_lark
from gm.commands.press_heading import FORMS
from gm.commands.reading import Draft, Invalid, kind_of_phase, quote
from gm.commands.tables import command_rule, mask_unread
from gm.commands.values import (
    Command,
    CommandError,
    Line,
    NotACommand,
    OrderLine,
    PhaseCode,
    TooLong,
    Unreadable,
)
from gm.engine.phase import Phase
from gm.paths import GRAMMARS
from gm.secret import MASK
from gm.variants.registry import canonical_name

# Limits. A message over them is refused as a whole (a TooLong value and nothing else); a
# command or order line over MAX_LINE_CHARS is refused alone. Lines after SIGNOFF do not count.
MAX_MESSAGE_CHARS = 200_000
MAX_LINES = 2_000
MAX_LINE_CHARS = 500
# Before a SIGNON, lines that are not commands are reported one by one up to this many, then
# counted in one last error.
MAX_NOT_COMMANDS = 10

# Commands a message may hold before any SIGNON, as the "not a command" error lists them.
BEFORE_SIGNON = "SIGNON, JOIN, CREATE, LIST, HISTORY, SUMMARY or HELP"

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


def parse_message(text: str, long_lines: Mapping[str, int] | None = None) -> list[Command]:
    """Read one message's text (decoded, quotes and signature cut) into command values.
    `long_lines` gives the real length of each line the decoder cut (as kept), for the reply."""
    out: list[Command] = []
    signed_on = False
    press: OpenPress | None = None
    not_commands = 0
    first_unreported: Line | None = None
    chars = 0
    lines = _Lines(text)
    closed = False  # whether the open press has its ENDPRESS further on
    for number, raw in enumerate(lines, start=1):
        chars += len(raw) + 1
        if number > MAX_LINES or chars > MAX_MESSAGE_CHARS:
            return [_message_too_long(text)]
        if press is not None:
            ended = _ends_press(_clean(raw), number, closed)
            if ended is None:
                press.body.append(raw)
                continue
            out.append(_with_commands(press.close(number, ended)))
            press = None
            if ended is PressEnd.ENDPRESS:
                continue
            # SIGNOFF, a SIGNON line or a new press line: read as such below
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
            length = (long_lines or {}).get(raw.rstrip(), len(clean))
            out.append(_line_too_long(number, clean, keyword, length))
            continue
        if keyword == "CREATE" and signed_on and _creates_centre(clean):  # Geophysical rule 7
            out.append(OrderLine(Line(number, clean), raw.translate(_INVISIBLE).strip()))
            continue
        if keyword in _HEADINGS or _postal_press(clean):
            heading = (open_press(Line(number, clean)) if keyword in _PRESS_OPENERS
                       else _not_read_here(Line(number, clean), keyword))
            if isinstance(heading, OpenPress):
                press, closed = heading, lines.press_closes()
            else:
                out.append(_discarded(heading, lines, number, lines.press_closes()))
            continue
        if keyword in KEYWORDS:
            result = _read_command(clean, number, keyword)
            assert not isinstance(result, OpenPress)  # press headings are read above
            out.append(result)
            if keyword in ("SIGNON", "TAKEOVER"):  # TAKEOVER signs on to the power it takes
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
    if press is not None:  # the end of the message ends it
        out.append(_with_commands(press.close(0, PressEnd.MESSAGE)))
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


_PRESS_ENDS = frozenset({"ENDPRESS", "END PRESS", "ENDBROADCAST", "END BROADCAST"})
_PRESS_OPENERS = frozenset({"PRESS", "BROADCAST", "GREY", "GRAY"})
# the words that open a press heading, read by gm or not (njudge's DIARY, POSTAL PRESS): under
# a heading that cannot be read nothing is sent and nothing is taken
_HEADINGS = _PRESS_OPENERS | {"DIARY"}


def _with_commands(closed: Command) -> Command:
    """A press with no ENDPRESS, with the lines in it that read as commands (the reply quotes
    them: sent as press text, not taken)."""
    if not isinstance(closed, Press) or closed.ending is PressEnd.ENDPRESS:
        return closed
    found = []
    for raw in closed.body.splitlines():
        clean = _clean(raw)
        mark = _LIST_MARK.match(clean)
        if mark is not None:
            clean = clean[mark.end():]
        if clean.split(" ", 1)[0].upper() in KEYWORDS:
            found.append(_mask_unknown(clean, clean.split(" ", 1)[0]))
    return dataclasses.replace(closed, command_lines=tuple(found))


def _not_read_here(line: Line, keyword: str) -> Unreadable:
    """njudge's POSTAL PRESS and DIARY headings, which gm does not keep."""
    what = ("gm has no postal press (press held until the phase is processed); send it now"
            " with BROADCAST" if keyword == "POSTAL" else
            "gm keeps no diaries; keep your notes yourself, or send them to the GM (PRESS TO"
            " GM)")
    return Unreadable(line, f"Cannot read {quote(line.text)}: {what}", keyword)


def _postal_press(clean: str) -> bool:
    """njudge's POSTAL PRESS heading."""
    return clean.upper().split(" ")[:2] == ["POSTAL", "PRESS"]


def _discarded(heading: CommandError, lines: _Lines, number: int, closed: bool) -> Command:
    """The refusal of an unreadable press heading, the lines under it read and dropped up to its
    ENDPRESS (or, with none further on, a SIGNOFF, a SIGNON line or the end of the message;
    those are then read as usual), so that press text is never run as orders or commands
    (njudge: "No press/broadcast message sent, discarding text")."""
    last = number
    for raw in lines:
        clean = _clean(raw)
        ended = _ends_press(clean, last + 1, closed)
        if ended is not None and ended is not PressEnd.ENDPRESS:
            lines.push_back(raw)
            break
        last += 1
        if ended is PressEnd.ENDPRESS:
            break
    under = (f"lines {number + 1} to {last}" if last > number + 1
             else f"line {last}" if last == number + 1 else "")
    what = (f"Nothing was sent, and nothing under it ({under}) was sent or taken as orders or"
            " commands" if under else "Nothing was sent")
    return Unreadable(heading.line,
                      f"{heading.message.rstrip('.')}. {what}. The press headings read are "
                      f"{FORMS}; end the press with ENDPRESS.",
                      heading.keyword if isinstance(heading, Unreadable) else "PRESS")


def _ends_press(clean: str, number: int, closed: bool) -> PressEnd | None:
    """How the line `clean` ends an open press message, or None when it is one of its lines.

    ENDPRESS or ENDBROADCAST (also END PRESS, END BROADCAST) end it, as on the classic judges.
    Inside a press nothing is a heading, an order or a command (njudge: "it will ignore any
    orders or other command keywords"): a line `Press to Russia ...` or `BROADCAST` is press
    text sent to the recipients of the press it stands in. A press with no such line further on
    (`closed` false) ends at SIGNOFF, as there, and also at a SIGNON line that reads as one (its
    password is sent to no one, and the orders after it are taken); else at the end of the
    message."""
    upper = clean.upper()
    if upper in _PRESS_ENDS:
        return PressEnd.ENDPRESS
    if closed:
        return None
    if upper == "SIGNOFF":
        return PressEnd.SIGNOFF
    keyword = upper.split(" ", 1)[0]
    if keyword == "SIGNON" and not isinstance(_read_command(clean, number, keyword),
                                              CommandError):
        return PressEnd.SIGNON
    return None


class _Lines:
    """The lines of a message, read lazily (SIGNOFF may stop early), with a look ahead for the
    end of a press message."""

    def __init__(self, text: str) -> None:
        self._lines = _lines(text)
        self._ahead: deque[str] = deque()

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        return self._ahead.popleft() if self._ahead else next(self._lines)

    def push_back(self, line: str) -> None:
        """Read `line` again next."""
        self._ahead.appendleft(line)

    def press_closes(self) -> bool:
        """Whether an ENDPRESS or ENDBROADCAST line comes before any SIGNOFF line or the end of
        the message."""
        for line in self._ahead:
            if (found := _closing(line)) is not None:
                return found
        for line in self._lines:
            self._ahead.append(line)
            if (found := _closing(line)) is not None:
                return found
        return False


def _closing(raw: str) -> bool | None:
    """True for a line that ends a press message, False for one that marks it unended
    (SIGNOFF), None for others."""
    upper = _clean(raw).upper()
    if upper in _PRESS_ENDS:
        return True
    if upper == "SIGNOFF":
        return False
    return None


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


def _mask_last_word(clean: str) -> str:
    words = clean.split(" ")
    return clean if len(words) < 2 else " ".join([*words[:-1], MASK])


def _mask_unread(clean: str, keyword: str) -> str:
    """Mask what may be a password in a line that was not read (the commands of `keyword` say
    where: gm.commands.tables.mask_unread)."""
    return " ".join(mask_unread(clean.split(" "), keyword, TABLES))


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
        f"{quote(masked)} is not a command{hint}. Before a SIGNON line a message may hold"
        f" only commands ({BEFORE_SIGNON}; send HELP for all of them); orders go on the"
        f" lines after your SIGNON line",
    )


def _line_too_long(number: int, clean: str, keyword: str, length: int) -> TooLong:
    first = clean.split(" ", 1)[0]
    if (keyword or _closest_keyword(first) or "") in PASSWORD_KEYWORDS:
        # the password is somewhere in a line too long to read: none of the rest is quoted
        masked = f"{first} {MASK}"
    else:
        masked = _mask_unread(clean, keyword) if keyword else _mask_unknown(clean, first)
    return TooLong(
        Line(number, masked[:59] + "…"),
        f"{quote(masked, 60)} is {length} characters long; a command or order line may"
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
# Command lines


def command_grammar() -> str:
    """The command grammar: grammars/commands.lark with its `command` rule, made from the rules
    the commands read."""
    grammar = (GRAMMARS / "commands.lark").read_text(encoding="utf-8")
    return grammar + command_rule(grammar, RULES)


@functools.cache
def _parser() -> Lark:
    """The command grammar, built once per process (LALR, values built while parsing; the
    built parser is kept between runs by gm.commands.lark_cache)."""
    return cached_lark(
        "commands",
        command_grammar(),
        lexer="contextual",
        transformer=_Build(),
    )


def _read_command(clean: str, number: int, keyword: str) -> Command | OpenPress:
    try:
        draft = _parser().parse(clean)
    except (Invalid, VisitError) as error:
        reason = error.orig_exc if isinstance(error, VisitError) else error
        masked = _mask_unread(clean, keyword)
        return Unreadable(Line(number, masked), f"Cannot read {quote(masked)}: {reason}", keyword)
    except LarkError:
        if keyword == "CREATE":
            missing = _create_missing(clean, number)
            if missing is not None:
                return missing
        masked = _mask_unread(clean, keyword)
        second = clean.split(" ")[1].upper() if " " in clean else ""
        return Unreadable(
            Line(number, masked),
            f"Cannot read {quote(masked)}: {usage(keyword, second)}",
            keyword,
        )
    assert isinstance(draft, Draft)
    text = clean
    for token in sorted(draft.secrets, key=lambda t: t.start_pos or 0, reverse=True):
        text = text[: token.start_pos] + MASK + text[token.end_pos :]
    return draft.make(Line(number, text))


def _create_missing(clean: str, number: int) -> Unreadable | None:
    """`CREATE mygame Standard`: the password is missing (the line ends with a variant's name,
    not a password to mask), or None when the line is something else."""
    words = clean.split(" ")[1:]
    if len(words) < 2 or canonical_name(" ".join(words[1:])) is None:
        return None
    return Unreadable(
        Line(number, clean),
        f"Cannot read {quote(clean)}: the password is missing; CREATE needs a game name, a"
        f" variant and a password: CREATE {words[0]} {' '.join(words[1:])} secret",
        "CREATE",
    )


_UNITS = {"d": timedelta(days=1), "h": timedelta(hours=1), "m": timedelta(minutes=1)}


class _Build(Transformer[Token, Any]):
    """Builds drafts of command values from the grammar's rules (see commands.lark): each
    command's rules by the readers its module gives (gm.commands.catalog.RULES), the values
    several commands share (durations, phases, press recipients) by the methods below."""

    def __init__(self) -> None:
        super().__init__()
        for rule, reader in RULES.items():
            setattr(self, rule, reader)

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
            raise Invalid("PRESS TO needs the names of its recipients: PRESS TO France, Germany")
        return tuple(unique)

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
        return Phase(season, int(year), kind_of_phase(str(kind)))

    def phase_code(self, c: list[Token]) -> PhaseCode:
        m = re.fullmatch(r"([a-z]+)(\d+)([a-z])", str(c[0]).lower())
        assert m is not None  # the grammar's PHASE_CODE
        return PhaseCode(m.group(1).upper(), int(m.group(2)), kind_of_phase(m.group(3)))

    def start(self, c: list[Draft]) -> Draft:
        return c[0]
