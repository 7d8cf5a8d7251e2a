"""ADD <power> BOT (GM): seat the bot in a power (gm.play.stand_in). Its orders are stored as
the power's when each phase opens, as a player's are; a player ADDed, REPLACEd or taking over
the power later plays it instead."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, open_phase_of, refresh, variant_of
from gm.commands.handlers.seats import tell_unseated
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.stand_in import play_bots, with_bot
from gm.store import audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.statuses import GameStatus, PowerStatus

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
    power = variant_of(game).power(command.power)
    if power is None:
        names = ", ".join(variant_of(game).power_names)
        ctx.results.add(f"ADD {command.power} BOT: {command.power!r} is not a power of "
                        f"{game.name} (powers: {names}).")
        return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"ADD {power.name} BOT: refused, {game.name} is finished.")
        return
    seated = powers_repo.get_power(ctx.session, game.id, power.name)
    before = [] if seated is None else list(seated.addresses)
    powers_repo.set_players(ctx.session, game.id, power.name, [], now=ctx.now)
    powers_repo.set_power_password(ctx.session, game.id, power.name, None, now=ctx.now)
    if seated is not None and seated.status is PowerStatus.CIVIL_DISORDER:
        powers_repo.set_power_status(ctx.session, game.id, power.name, PowerStatus.PLAYING,
                                     now=ctx.now)
    settings = dataclasses.replace(game.settings, extra=with_bot(game.settings, power.name,
                                                                 True))
    signed.game = game = games_repo.set_game_settings(ctx.session, game.id, settings,
                                                      now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="add", now=ctx.now,
                        game_id=game.id, details={"power": power.name, "bot": True,
                                                  "previous": before},
                        inbound_id=ctx.inbound_id)
    ordered = ""
    phase = open_phase_of(ctx, game) if game.status is GameStatus.ACTIVE else None
    if phase is not None and play_bots(ctx.session, game, phase, [power.name], now=ctx.now):
        ordered = f" It has given its orders for {variant_of(game).format_phase(phase.phase)}."
    ctx.results.add(f"The bot plays {power.name} in {game.name}"
                    + (f" (instead of {', '.join(before)}, who was told)" if before else "")
                    + f"; ADD or REPLACE a player to take it back.{ordered}")
    tell_unseated(ctx, game, power.name, list(before))


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
