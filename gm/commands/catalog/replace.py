"""REPLACE <power> <address> [<password>] (GM): a new player takes over a power."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.seats import replace_player
from gm.commands.reading import Draft, bare_address, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.secret import Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Replace(Command):
    """`REPLACE France new@example.org [secret]`: a new player takes over a power."""

    power: str
    address: str
    password: Secret | None = None


def read_replace(c: list[Token]) -> Draft:
    at = next(i for i, t in enumerate(c) if t.type == "ADDRESS")
    power, address, rest = c[:at], c[at], c[at + 1 :]
    secret = Secret(str(rest[0])) if rest else None
    return Draft(
        lambda line: Replace(line, joined(power), bare_address(address), secret), tuple(rest)
    )


def handle(ctx: Context, command: Replace) -> None:
    replace_player(ctx, command.power, command.address, command.password)


COMMAND = CommandSpec(
    value=Replace,
    keywords=("REPLACE",),
    rules={"replace": read_replace},
    handle=handle,
    usage={
        "REPLACE": (
            "REPLACE needs a power and the new player's e-mail address, and may add a password:"
            " REPLACE France player@example.org or REPLACE France player@example.org secret"
            " (REPLACE France STANDBY gives the power to the first player standing by)"
        ),
    },
    holds_password=True,
    help=(
        HelpLines("GM", 110, """\
    REPLACE <power> <address> [password]   a new player takes over a power, e.g.
                                           REPLACE France bob@example.org newsecret
                                           (without a password a new one is made and
                                           sent to the new player; the old one stops
                                           working either way; the old player's
                                           absences are withdrawn)
"""),
    ),
)
