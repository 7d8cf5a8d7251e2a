"""OBSERVE <game> [OFF]: get (or stop getting) the observers' report of every phase. njudge's
observer sign-on, OBSERVE <game> <password> or SIGNON O<game> <password> (njudge `data/index`),
observes the same way: an observer here needs no password, so none is kept."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.handlers.gm_settings import MAX_OBSERVERS
from gm.commands.handlers.notices import tell
from gm.commands.handlers.observing import OPEN_KEY
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.observers import observers
from gm.store import audit
from gm.store import games as games_repo
from gm.store.settings import OBSERVERS_KEY
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


@dataclass(frozen=True)
class Observe(Command):
    """`OBSERVE mygame` (get the observers' report of every phase) or `OBSERVE mygame OFF`."""

    game: str
    off: bool = False
    password: bool = False  # njudge's observer sign-on: a password was written (not kept)


def read_observe(c: list[Token]) -> Draft:
    game, off = game_name(c[0]), len(c) > 1
    return Draft(lambda line: Observe(line, game, off))


def read_observe_password(c: list[Token]) -> Draft:
    game, password = game_name(c[0]), c[1]
    return Draft(lambda line: Observe(line, game, password=True), (password,))


def handle(ctx: Context, command: Observe) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"OBSERVE: {no_game(ctx, command.game)}")
        return
    ctx.results.game = game.name
    if command.password:
        ctx.results.add(f"(An observer of {game.name} needs no password here: the one on "
                        "your line is not kept; mail from this address observes. OBSERVE "
                        f"{game.name} OFF stops it.)")
    current = observers(game)
    mine = [a for a in current if a.lower() == ctx.sender.lower()]
    if command.off:
        if not mine:
            ctx.results.add(f"OBSERVE {game.name} OFF: {ctx.sender} does not observe "
                            f"{game.name}; nothing to stop.")
            return
        _store(ctx, game, [a for a in current if a not in mine], "unobserve")
        ctx.results.add(f"You no longer observe {game.name}.")
        return
    if mine:
        ctx.results.add(f"OBSERVE: you already observe {game.name} (OBSERVE {game.name} OFF "
                        "stops it).")
        return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"OBSERVE: {game.name} is finished; HISTORY {game.name} shows how it "
                        "went.")
        return
    if not observing_allowed(game):
        ctx.results.add(f"OBSERVE: refused, the GM of {game.name} does not allow observers "
                        "to sign up; ask the GM.")
        return
    if len(current) >= MAX_OBSERVERS:
        ctx.results.add(f"OBSERVE: refused, {game.name} has {MAX_OBSERVERS} observers "
                        "already, the most a game may have.")
        return
    _store(ctx, game, [*current, ctx.sender], "observe")
    started = "" if game.status is GameStatus.FORMING else " (it has started: HISTORY " \
        f"{game.name} shows the phases so far)"
    ctx.results.add(f"You observe {game.name}: you will get the report of every phase"
                    f"{started}. OBSERVE {game.name} OFF stops it.")
    tell(ctx, game.gm_address, game, "a new observer",
         f"{ctx.sender} observes {game.name} now (OBSERVE). SET OBSERVERS changes the list; "
         "SET OBSERVE OFF stops anyone else signing up.")


def _store(ctx: Context, game: GameRecord, addresses: list[str], action: str) -> None:
    settings = game.settings
    extra = {**settings.extra, OBSERVERS_KEY: addresses}
    games_repo.set_game_settings(ctx.session, game.id, dataclasses.replace(settings, extra=extra),
                                 now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=action, now=ctx.now,
                        game_id=game.id, details={"address": ctx.sender},
                        inbound_id=ctx.inbound_id)


def observing_allowed(game: GameRecord) -> bool:
    """Whether anyone may OBSERVE the game (SET OBSERVE; allowed unless the GM forbade it)."""
    return game.settings.extra.get(OPEN_KEY, True) is not False


COMMAND = CommandSpec(
    value=Observe,
    keywords=("OBSERVE", "WATCH"),
    rules={"observe": read_observe, "observe_password": read_observe_password},
    handle=handle,
    usage={
        "OBSERVE": "OBSERVE needs a game, and OFF to stop: OBSERVE mygame or OBSERVE mygame OFF",
        "WATCH": "WATCH (OBSERVE) needs a game, and OFF to stop: WATCH mygame or WATCH mygame OFF",
    },
    without_signon=True,
    help=(
        HelpLines("GAMES", 70, """\
    OBSERVE <game>             get the report of every phase (and the start mail)
                               as an observer: OBSERVE mygame
    OBSERVE <game> OFF         stop it: OBSERVE mygame OFF
    WATCH mygame               the same as OBSERVE (the classic judges' word)
    WATCH mygame OFF           the same as OBSERVE mygame OFF
    OBSERVE <game> <password>  njudge's observer sign-on (also SIGNON O<game>
                               <password>): observes as OBSERVE <game> does; no
                               password is kept (none is needed here)
"""),
    ),
)
