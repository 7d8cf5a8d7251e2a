"""SIGNON GM <game> <password>: sign on as the game's gamemaster (the use case:
gm.play.signon.sign_on_master)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.handlers.context import Signed
from gm.commands.handlers.signon import refuse
from gm.commands.handlers.signon_guard import refusal, refused, wrong_password
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec
from gm.commands.values import Command
from gm.play import signon
from gm.play.signon_locks import GM_KEY
from gm.secret import Secret
from gm.store import games as games_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SignOnMaster(Command):
    """`SIGNON GM mygame secret` (also the one-letter form `SIGNON Mmygame secret`)."""

    game: str
    password: Secret


def read_signon_master(c: list[Token]) -> Draft:
    game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: SignOnMaster(line, name, secret), (password,))


def handle(ctx: Context, command: SignOnMaster) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        refuse(ctx, "T" + no_game(ctx, command.game)[1:])
        return
    why = refusal(ctx, game, GM_KEY, (game.gm_address,))
    if why is not None:
        refused(ctx, why)
        return
    done = signon.sign_on_master(ctx.session, game, command.password.value, now=ctx.now)
    if not isinstance(done, signon.MasterSignedOn):
        wrong_password(ctx, game, GM_KEY, (), f"Wrong GM password for {game.name}.")
        return
    game = done.game
    ctx.signed = Signed(game, None)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"Signed on as the GM of {game.name}.")


COMMAND = CommandSpec(
    value=SignOnMaster,
    keywords=("SIGNON",),
    rules={"signon_master": read_signon_master},
    handle=handle,
    without_signon=True,
    holds_password=True,
)
