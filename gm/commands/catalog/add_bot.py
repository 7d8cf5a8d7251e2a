"""ADD <power> BOT (GM): seat the bot in a power (gm.play.seats.seat_bot; the bot's play:
gm.play.stand_in). Its orders are stored as the power's when each phase opens, as a player's
are; a player ADDed, REPLACEd or taking over the power later plays it instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, named_power, refresh, variant_of
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import seats
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class AddBot(Command):
    """`ADD France BOT`: the bot plays France."""

    power: str


def read_add_bot(c: list[Token]) -> Draft:
    return Draft(lambda line: AddBot(line, joined(c)))


def handle(ctx: Context, command: AddBot) -> None:
    signed = as_master(ctx, "ADD BOT")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    power = named_power(ctx, game, f"ADD {command.power} BOT", command.power)
    if power is None:
        return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"ADD {power.name} BOT: refused, {game.name} is finished.")
        return
    done = seats.seat_bot(ctx.session, game, power.name, now=ctx.now, actor=ctx.sender,
                          service=ctx.service, inbound_id=ctx.inbound_id)
    signed.game = game = done.game
    ordered = ("" if done.ordered is None else " It has given its orders for "
               f"{variant_of(game).format_phase(done.ordered.phase)}.")
    ctx.results.add(f"The bot plays {power.name} in {game.name}"
                    + (f" (instead of {', '.join(done.before)}, who was told)"
                       if done.before else "")
                    + f"; ADD or REPLACE a player to take it back.{ordered}")
    ctx.results.mail.extend(done.mail)


COMMAND = CommandSpec(
    value=AddBot,
    keywords=("ADD",),
    rules={"add_bot": read_add_bot},
    handle=handle,
    help=(
        HelpLines("GM", 41, """\
    ADD <power> BOT                        seat the bot: it orders for the power each
                                           phase, as a player would (ADD or REPLACE a
                                           player to take the power back); seated, it
                                           also declares Chaos II alliances (rule 6)
"""),
    ),
)
