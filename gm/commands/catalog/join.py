"""JOIN [<power>] <game> <password>: take a power (any free one, or the one named) in a
forming game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game, variant_of
from gm.commands.handlers.join_prefer import (
    ONE_POWER_RULE,
    multiple_allowed,
    open_seats,
    seats_of_sender,
)
from gm.commands.handlers.reliability import join_refused, record_for_gm
from gm.commands.reading import Draft, game_name, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.mail.compose import build_subject
from gm.play.render import render
from gm.secret import Secret
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password
from gm.store.statuses import GameStatus
from gm.variants.registry import canonical_name

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Join(Command):
    """`JOIN mygame secret` (any free power) or `JOIN France mygame secret`.

    The password is the one the player will sign on with.
    """

    game: str
    password: Secret
    power: str | None = None
    variant: str | None = None  # njudge's `SIGNON ?mygame secret <variant>`: it must be the game's


def read_join_any(c: list[Token]) -> Draft:
    game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: Join(line, name, secret), (password,))


def read_join(c: list[Token]) -> Draft:
    *power, game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: Join(line, name, secret, joined(power)), (password,))


def handle(ctx: Context, command: Join) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"JOIN: {no_game(ctx, command.game)}")
        return
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"JOIN: {game.name} has started; ask its GM for a free power.")
        return
    variant = variant_of(game)
    if command.variant is not None and canonical_name(command.variant) != variant.name:
        ctx.results.add(f"JOIN: {game.name} plays {variant.title}, not {command.variant!r} "
                        f"(njudge's SIGNON ?{game.name} <password> <variant> names the game's "
                        f"own variant; SIGNON ?{game.name} <password> is enough here).")
        return
    if join_refused(ctx, game, "JOIN"):  # the GM's minimum record (SET JOIN)
        return
    free = [p for p in powers_repo.list_powers(ctx.session, game.id) if not p.addresses]
    if command.power is not None:
        wanted = variant.power(command.power)
        if wanted is None:
            names = ", ".join(variant.power_names)
            ctx.results.add(f"JOIN: {command.power!r} is not a power of {game.name} "
                            f"(powers: {names}).")
            return
        others = ", ".join(p.name for p in free) or "none"
        free = [p for p in free if p.name == wanted.name]
        if not free:
            ctx.results.add(f"JOIN: {wanted.name} in {game.name} is taken (free: {others}).")
            return
    if not free:
        ctx.results.add(f"JOIN: every power in {game.name} is taken.")
        return

    already = seats_of_sender(ctx, game)
    if already and not multiple_allowed(game):
        ctx.results.add(f"{command.line}: refused, you have {already[0]} in {game.name} "
                        f"already: {ONE_POWER_RULE}.")
        return
    if open_seats(ctx, game) <= 0:  # the free powers are promised (JOIN ... PREFER)
        ctx.results.add(f"JOIN: every power in {game.name} is taken or promised to players "
                        "who joined with preferences.")
        return
    chosen = free[0].name
    powers_repo.set_players(ctx.session, game.id, chosen, [ctx.sender], now=ctx.now)
    powers_repo.set_power_password(ctx.session, game.id, chosen,
                                   hash_password(command.password.value), now=ctx.now)
    ctx.results.game = game.name
    ctx.results.add(f"You joined {game.name} as {chosen}. Sign on with: "
                    f"SIGNON {chosen} {game.name} <your password>")
    ctx.results.mail.append(Outgoing(
        (game.gm_address,), build_subject(f"{chosen} has a player", game=game.name),
        render("reply/joined-gm.txt.j2", game=game.name, power=chosen, address=ctx.sender,
               others=already, free=[p.name for p in powers_repo.list_powers(ctx.session,
                                                                            game.id)
                                     if not p.addresses], service=ctx.service,
               record=record_for_gm(ctx, ctx.sender)), game.id))


COMMAND = CommandSpec(
    value=Join,
    keywords=("JOIN",),
    rules={"join_any": read_join_any, "join": read_join},
    handle=handle,
    usage={
        "JOIN": (
            "JOIN needs a game and a password, and may name the power you want first: JOIN mygame"
            " secret or JOIN France mygame secret; or give your preferences after PREFER: JOIN"
            " mygame secret PREFER France, Italy, Turkey"
        ),
    },
    without_signon=True,
    holds_password=True,
    help=(
        HelpLines("GAMES", 100, """\
    JOIN <game> <password>             take any free power: JOIN mygame secret
    JOIN <power> <game> <password>     ask for a power, for example:
                                       JOIN France mygame secret
    SIGNON ?<game> <password>          the same as JOIN <game> <password>
                                       (njudge's SIGNON ?<game> <password> <variant>
                                       too: the variant must be the game's);
                                       one power per address, unless the GM
                                       allows more with SET MULTIPLE ON
"""),
    ),
)
