"""SIGNON GM <game> <password>: sign on as the game's gamemaster."""

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
from gm.play.signon_locks import GM_KEY
from gm.secret import Secret
from gm.store import games as games_repo
from gm.store.passwords import upgraded_hash, verify_password

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
    if not verify_password(command.password.value, game.gm_password_hash):
        wrong_password(ctx, game, GM_KEY, (), f"Wrong GM password for {game.name}.")
        return
    upgraded = upgraded_hash(command.password.value, game.gm_password_hash)
    if upgraded is not None:  # a hash made before passwords were normalised
        game = games_repo.set_game_master(ctx.session, game.id, address=game.gm_address,
                                          password_hash=upgraded, now=ctx.now)
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
