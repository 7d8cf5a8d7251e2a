"""PRESS TO <names> / BROADCAST (GREY for grey press), the text, then ENDPRESS: a message to
other powers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lark import Token

from gm.commands.reading import Draft, Invalid, quote
from gm.commands.spec import CommandSpec
from gm.commands.values import Command, Line, Press, UnendedPress, Unreadable

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


# HELP PRESS (gm.commands.catalog.help).
HELP = """\
HELP PRESS

Press is a message to other powers. It starts with a PRESS TO or BROADCAST line, its text
follows on the next lines, and a line ENDPRESS ends it:

    PRESS TO England, Germany
    Shall we talk about the North Sea?
    ENDPRESS

    PRESS TO Italy             to one power
    PRESS TO Italy, Austria    to several, with commas between the names; spaces will do
                               when no name has two words:
                               PRESS TO Italy Austria
                               PRESS TO St Petersburg, Warsaw
    PRESS TO GM                to the gamemaster
    BROADCAST                  to every power (PRESS TO ALL is the same)
    GREY PRESS TO Italy        grey press: sent without your name, where the game allows it
    GREY BROADCAST             grey press to everyone

GRAY is the same as GREY, and GREY may also end the line: PRESS TO Italy GREY. The text of a
press message is sent exactly as written. A press line without its ENDPRESS is not sent.
The gamemaster gets a copy of all press, grey press with its sender named.
"""

# What each of the press keywords needs (told when its line cannot be read).
USAGE: dict[str, str] = {
    "PRESS": (
        "PRESS needs its recipients, separated by commas: PRESS TO France, Germany (GREY PRESS"
        " TO France for grey press); the text follows on the next lines, then a line ENDPRESS"
    ),
    "BROADCAST": (
        "BROADCAST takes nothing after it (GREY BROADCAST for grey press); the text follows on"
        " the next lines, then a line ENDPRESS"
    ),
    "GREY": "GREY goes before PRESS or BROADCAST: GREY PRESS TO France or GREY BROADCAST",
    "ENDPRESS": (
        "ENDPRESS ends a press message, and there is no PRESS TO or BROADCAST line open before"
        " it"
    ),
}
USAGE["GRAY"] = USAGE["GREY"]


@dataclass
class OpenPress:
    """A PRESS TO or BROADCAST line whose ENDPRESS has not been read yet (gm.commands.parse
    keeps the lines after it verbatim, up to ENDPRESS)."""

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
                f"{quote(self.line.text)} (line {self.line.number}) has no text before its"
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
            f"{quote(self.line.text)} (line {self.line.number}) has no ENDPRESS line after it;"
            f" the press was not sent, and {_lines_after(len(self.body))} taken as its text."
            " End a press message with a line ENDPRESS",
        )


def _lines_after(count: int) -> str:
    return "the line after it was" if count == 1 else f"the {count} lines after it were"


def read_press_to(c: list[Any]) -> Draft:
    recipients = next(x for x in c if isinstance(x, tuple))
    grey = any(isinstance(x, Token) for x in c)
    if len(recipients) == 1 and recipients[0].upper() == "ALL":
        return Draft(lambda line: OpenPress(line, (), True, grey))
    return Draft(lambda line: OpenPress(line, recipients, False, grey))


def read_broadcast(c: list[Token]) -> Draft:
    grey = bool(c)
    return Draft(lambda line: OpenPress(line, (), True, grey))


def read_endpress(c: list[Token]) -> Draft:
    raise Invalid(USAGE["ENDPRESS"])


def handle(ctx: Context, command: Press) -> None:
    from gm.commands.handlers.press import press

    press(ctx, command)


COMMAND = CommandSpec(
    value=Press,
    keywords=("PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS"),
    rules={"press_to": read_press_to, "broadcast": read_broadcast, "endpress": read_endpress},
    handle=handle,
    usage=USAGE,
)
