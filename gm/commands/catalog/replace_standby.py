"""REPLACE <power> STANDBY (GM): the first player standing by takes the power."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.seats import replace_player
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.standing_by import standing_by, took_over_from_standby

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class ReplaceFromStandby(Command):
    """`REPLACE France STANDBY` (GM): the first player standing by takes the power."""

    power: str


def read_replace_standby(c: list[Token]) -> Draft:
    power = joined(c)
    return Draft(lambda line: ReplaceFromStandby(line, power))


def handle(ctx: Context, command: ReplaceFromStandby) -> None:
    signed = as_master(ctx, "REPLACE")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    ready = standing_by(ctx.session, game.id)
    if not ready:
        ctx.results.add(f"{command.line}: no one stands by for {game.name} or for any game "
                        "(players offer with STANDBY); name the new player's address: "
                        f"REPLACE {command.power} player@example.org")
        return
    chosen = ready[0]
    replace_player(ctx, command.power, chosen, None)
    if took_over_from_standby(ctx.session, game, chosen, now=ctx.now, actor=ctx.sender,
                              inbound_id=ctx.inbound_id) is None:
        return  # REPLACE refused it, and said why
    ctx.results.add(f"({chosen} was the first standing by; their offers are withdrawn.)")


COMMAND = CommandSpec(
    value=ReplaceFromStandby,
    keywords=("REPLACE",),
    rules={"replace_standby": read_replace_standby},
    handle=handle,
    help=(
        HelpLines("GM", 120, """\
    REPLACE <power> STANDBY                the first player standing by (STANDBY)
                                           takes the power: REPLACE France STANDBY
"""),
    ),
)
