"""STANDBY [<game>] [OFF]: offer (or withdraw the offer) to take over a power that loses its
player.

Offers for the game itself come before offers for any game, oldest first. A power that goes
into civil disorder (EJECT, or missed deadlines under SET LATE DISORDER) is offered to the GM
with the list (gm.commands.handlers.standing_by).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.handlers.notices import tell
from gm.commands.handlers.reliability import record_for_gm
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store import standby as standby_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Standby(Command):
    """`STANDBY mygame`, `STANDBY` (any game), with OFF to withdraw: `STANDBY mygame OFF`,
    `STANDBY OFF` (every offer)."""

    game: str | None = None
    off: bool = False


def read_standby(c: list[Token]) -> Draft:
    off = bool(c) and c[-1].type == "OFF"
    words = c[:-1] if off else c
    game = game_name(words[0]) if words else None
    return Draft(lambda line: Standby(line, game, off))


def handle(ctx: Context, command: Standby) -> None:
    if command.game is None:
        if command.off:
            count = standby_repo.withdraw_all(ctx.session, ctx.sender)
            ctx.results.add("STANDBY OFF: " + (f"your {count} offer{'s' if count != 1 else ''}"
                                               " withdrawn." if count else
                                               "you were not standing by for any game."))
            return
        if not standby_repo.offer(ctx.session, ctx.sender, None, now=ctx.now):
            ctx.results.add("STANDBY: you stand by for any game already (STANDBY OFF "
                            "withdraws).")
            return
        ctx.results.add("You stand by for any game: a GM whose power loses its player may "
                        "give it to you. STANDBY OFF withdraws.")
        return
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"STANDBY: {no_game(ctx, command.game)}")
        return
    ctx.results.game = game.name
    if command.off:
        if standby_repo.withdraw(ctx.session, ctx.sender, game.id):
            ctx.results.add(f"You no longer stand by for {game.name}.")
        else:
            ctx.results.add(f"STANDBY {game.name} OFF: you were not standing by for "
                            f"{game.name}.")
        return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"STANDBY: {game.name} is finished.")
        return
    played = [p.name for p in powers_repo.powers_played_by(ctx.session, ctx.sender)
              if p.game_id == game.id]
    if played:
        ctx.results.add(f"STANDBY: you play {played[0]} in {game.name} already.")
        return
    if not standby_repo.offer(ctx.session, ctx.sender, game.id, now=ctx.now):
        ctx.results.add(f"STANDBY: you stand by for {game.name} already (STANDBY "
                        f"{game.name} OFF withdraws).")
        return
    ctx.results.add(f"You stand by for {game.name}: its GM may give you a power that loses "
                    f"its player. STANDBY {game.name} OFF withdraws.")
    tell(ctx, game.gm_address, game, "a player stands by",
         f"{ctx.sender} stands by for {game.name}: REPLACE <power> STANDBY gives a power to "
         "the first player standing by.\n" + record_for_gm(ctx, ctx.sender))


COMMAND = CommandSpec(
    value=Standby,
    keywords=("STANDBY",),
    rules={"standby": read_standby},
    handle=handle,
    usage={
        "STANDBY": (
            "STANDBY may name a game, and OFF withdraws: STANDBY mygame, STANDBY (any game),"
            " STANDBY mygame OFF or STANDBY OFF"
        ),
    },
    without_signon=True,
    help=(
        HelpLines("GAMES", 80, """\
    STANDBY <game>             offer to take over a power that loses its player:
                               STANDBY mygame
    STANDBY                    the same for any game
    STANDBY [<game>] OFF       withdraw the offer (STANDBY OFF: every offer)
"""),
    ),
)
