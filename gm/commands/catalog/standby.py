"""STANDBY [<game>] [OFF]: offer (or withdraw the offer) to take over a power that loses its
player.

Offers for the game itself come before offers for any game, oldest first. A power that goes
into civil disorder (EJECT, or missed deadlines under SET LATE DISORDER) is offered to the GM
with the list (gm.play.standing_by).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import standing_by
from gm.store import games as games_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


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
    game = None
    if command.game is not None:
        game = games_repo.find_game(ctx.session, command.game)
        if game is None:
            ctx.results.add(f"STANDBY: {no_game(ctx, command.game)}")
            return
        ctx.results.game = game.name
    if command.off:
        count = standing_by.withdraw(ctx.session, game, ctx.sender)
        if game is None:
            ctx.results.add("STANDBY OFF: " + (f"your {count} offer{'s' if count != 1 else ''}"
                                               " withdrawn." if count else
                                               "you were not standing by for any game."))
        elif count:
            ctx.results.add(f"You no longer stand by for {game.name}.")
        else:
            ctx.results.add(f"STANDBY {game.name} OFF: you were not standing by for "
                            f"{game.name}.")
        return
    done = standing_by.stand_by(ctx.session, game, ctx.sender, now=ctx.now,
                                service=ctx.service)
    if isinstance(done, standing_by.NotOffered):
        ctx.results.add(_refusal(game, done))
        return
    ctx.results.add("You stand by for any game: a GM whose power loses its player may give it "
                    "to you. STANDBY OFF withdraws." if game is None else
                    f"You stand by for {game.name}: its GM may give you a power that loses "
                    f"its player. STANDBY {game.name} OFF withdraws.")
    ctx.results.mail.extend(done.mail)


def _refusal(game: GameRecord | None, refused: standing_by.NotOffered) -> str:
    """STANDBY's reply to an offer not taken."""
    if game is None:
        return "STANDBY: you stand by for any game already (STANDBY OFF withdraws)."
    if refused.why is standing_by.OfferRefusal.FINISHED:
        return f"STANDBY: {game.name} is finished."
    if refused.why is standing_by.OfferRefusal.PLAYS:
        return f"STANDBY: you play {refused.power} in {game.name} already."
    return (f"STANDBY: you stand by for {game.name} already (STANDBY {game.name} OFF "
            "withdraws).")


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
