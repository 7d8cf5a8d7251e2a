"""JOIN [<power>] <game> <password>: take a power (any free one, or the one named) in a
forming game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.handlers.reliability import record_refusal
from gm.commands.reading import Draft, game_name, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import joining
from gm.secret import Secret
from gm.store import games as games_repo

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
    done = joining.join(ctx.session, game, command.power, command.password.value, now=ctx.now,
                        actor=ctx.sender, service=ctx.service, variant=command.variant)
    match done:
        case joining.Joined(power=chosen, mail=mail):
            ctx.results.game = game.name
            ctx.results.add(f"You joined {game.name} as {chosen}. Sign on with: "
                            f"SIGNON {chosen} {game.name} <your password>")
            ctx.results.mail.extend(mail)
        case joining.JoinRefusal.STARTED:
            ctx.results.add(f"JOIN: {game.name} has started; ask its GM for a free power.")
        case joining.WrongVariant(title=title):
            ctx.results.add(f"JOIN: {game.name} plays {title}, not {command.variant!r} "
                            f"(njudge's SIGNON ?{game.name} <password> <variant> names the "
                            f"game's own variant; SIGNON ?{game.name} <password> is enough "
                            "here).")
        case joining.RecordShort():
            ctx.results.add(record_refusal(game, done, "JOIN"))
        case joining.NotAPower(names=names):
            ctx.results.add(f"JOIN: {command.power!r} is not a power of {game.name} "
                            f"(powers: {', '.join(names)}).")
        case joining.Taken(power=power, free=free):
            ctx.results.add(f"JOIN: {power} in {game.name} is taken "
                            f"(free: {', '.join(free) or 'none'}).")
        case joining.JoinRefusal.ALL_TAKEN:
            ctx.results.add(f"JOIN: every power in {game.name} is taken.")
        case joining.AlreadyPlaying(seat=seat):
            ctx.results.add(f"{command.line}: refused, you have {seat} in {game.name} "
                            f"already: {joining.ONE_POWER_RULE}.")
        case joining.JoinRefusal.ALL_PROMISED:
            ctx.results.add(f"JOIN: every power in {game.name} is taken or promised to "
                            "players who joined with preferences.")


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
