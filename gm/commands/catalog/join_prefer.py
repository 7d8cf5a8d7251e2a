"""JOIN <game> <password> PREFER <powers>: join a forming game; a power is given at START by
the preferences."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.common import no_game, variant_of
from gm.commands.handlers.notices import tell
from gm.commands.handlers.reliability import join_refused, record_for_gm
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.joining import ONE_POWER_RULE, AlreadyPlaying, JoinRefusal
from gm.play.preferences import JoinedPreferring, join_preferring
from gm.secret import MASK, Secret
from gm.store import games as games_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class JoinPrefer(Command):
    """`JOIN mygame secret PREFER France, Italy, Turkey`: join a forming game; a power is
    given at START by these preferences (names as written)."""

    game: str
    password: Secret
    preferences: tuple[str, ...]


def read_join_prefer(c: list[Any]) -> Draft:
    game, password, names = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: JoinPrefer(line, name, secret, names), (password,))


def handle(ctx: Context, command: JoinPrefer) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"JOIN: {no_game(ctx, command.game)}")
        return
    ctx.results.game = game.name
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"JOIN: {game.name} has started; ask its GM for a free power "
                        "(or STANDBY to take over one that loses its player).")
        return
    if join_refused(ctx, game, "JOIN"):  # the GM's minimum record (SET JOIN)
        return
    variant = variant_of(game)
    wanted: list[str] = []
    for written in command.preferences:
        power = variant.power(written)
        if power is None:
            ctx.results.add(f"{command.line}: {written!r} is not a power of {game.name} "
                            f"(powers: {', '.join(variant.power_names)}); nothing was done.")
            return
        if power.name not in wanted:
            wanted.append(power.name)
    joined = join_preferring(ctx.session, game, wanted, command.password.value, now=ctx.now,
                             actor=ctx.sender)
    if isinstance(joined, AlreadyPlaying):
        ctx.results.add(f"JOIN: you play {joined.seat} in {game.name} already: "
                        f"{ONE_POWER_RULE}.")
        return
    if joined is JoinRefusal.ALL_PROMISED:
        ctx.results.add(f"JOIN: every power in {game.name} is taken or promised to a player "
                        "who joined before you.")
        return
    assert isinstance(joined, JoinedPreferring)
    ctx.results.add(f"You joined {game.name}; at START you get a power by your preferences: "
                    f"{', '.join(wanted)}. (The players who joined with preferences are taken "
                    "in random order, each getting their first preference still free, or a "
                    "free power at random.) The start mail names your power; sign on with it "
                    "and your password.")
    if joined.replaced:
        ctx.results.add("(Your earlier preferences and password for this game are replaced.)")
    tell(ctx, game.gm_address, game, "a player joined with preferences",
         f"{ctx.sender} joined {game.name}, preferring {', '.join(wanted)}; START seats them "
         "by preference (ADD seats them by your choice instead).\n"
         + record_for_gm(ctx, ctx.sender))


def _mask(words: Sequence[str]) -> list[str] | None:
    """`JOIN <game> <password> PREFER ...`: the word before PREFER."""
    upper = [w.upper() for w in words]
    if "PREFER" not in upper[1:]:
        return None
    at = upper.index("PREFER")
    return [*words[: at - 1], MASK, *words[at:]] if at > 1 else list(words)


COMMAND = CommandSpec(
    masks=_mask,
    value=JoinPrefer,
    keywords=("JOIN",),
    rules={"join_prefer": read_join_prefer},
    handle=handle,
    without_signon=True,
    holds_password=True,
    help=(
        HelpLines("GAMES", 110, """\
    JOIN <game> <password> PREFER <powers>
                                       get a power at START by your preferences:
                                       JOIN mygame secret PREFER France, Italy
"""),
    ),
)
