"""RESIGN (WITHDRAW): leave the game for good; in a forming game, give the power back. The GM
and the other players are told (the use case: gm.play.seats.resign)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import seats

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Resign(Command):
    pass


def read_resign(c: list[Token]) -> Draft:
    return Draft(Resign)


def handle(ctx: Context, command: Resign) -> None:
    what = command.line.text.split(" ", 1)[0].upper() or "RESIGN"
    signed = as_player(ctx, what)
    if signed is None or signed.power is None:
        return
    left = seats.resign(ctx.session, signed.game, signed.power, now=ctx.now, actor=ctx.sender,
                        service=ctx.service, inbound_id=ctx.inbound_id)
    if left.how is seats.Departure.WITHDREW:
        ctx.results.add(f"You withdrew from {signed.game.name}, which has not started:"
                        f" {signed.power} is free again (JOIN takes it). The GM and the other "
                        "players are told.")
    else:
        ctx.results.add(f"You resigned {signed.power} in {signed.game.name}; the GM will find a "
                        "replacement. The GM and the other players are told.")
    ctx.results.mail.extend(left.mail)
    ctx.signed = None


COMMAND = CommandSpec(
    value=Resign,
    keywords=("RESIGN", "WITHDRAW"),
    rules={"resign": read_resign},
    handle=handle,
    usage={
        "RESIGN": "RESIGN takes nothing after it",
        "WITHDRAW": "WITHDRAW (RESIGN) takes nothing after it",
    },
    help=(
        HelpLines("SIGNON", 40, """\
    RESIGN       leave the game for good; in a game that has not started, give
                 your power back (JOIN takes it again); the GM and the other
                 players are told
    WITHDRAW     the same (the classic judges' word); STANDBY <game> OFF
                 withdraws an offer to stand by
"""),
    ),
)
