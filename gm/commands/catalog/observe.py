"""OBSERVE <game> [OFF]: get (or stop getting) the observers' report of every phase, once
confirmed from the address (OBSERVE <game> CONFIRM <code>, the code in the reply to OBSERVE), as
SET ADDRESS is: a forged From cannot sign someone else up. njudge's observer sign-on, OBSERVE
<game> <password> or SIGNON O<game> <password> (njudge `data/index`), asks the same way: an
observer here needs no password, so none is kept."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, Line
from gm.play import observing
from gm.secret import Secret
from gm.store import address_changes
from gm.store import games as games_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


@dataclass(frozen=True)
class Observe(Command):
    """`OBSERVE mygame` (get the observers' report of every phase, once confirmed with `OBSERVE
    mygame CONFIRM <code>`) or `OBSERVE mygame OFF`."""

    game: str
    off: bool = False
    code: Secret | None = None
    password: bool = False  # njudge's observer sign-on: a password was written (not kept)


def read_observe(c: list[Token]) -> Draft:
    game, off = game_name(c[0]), len(c) > 1 and c[1].type == "OFF"
    if len(c) > 1 and not off:
        code = Secret(str(c[1]))
        return Draft(lambda line: Observe(line, game, code=code), (c[1],))
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
                        "your line is not kept. OBSERVE "
                        f"{game.name} OFF stops observing.)")
    if command.off:
        done: observing.ObserveOutcome = observing.stop(ctx.session, game, now=ctx.now,
                                                        actor=ctx.sender,
                                                        inbound_id=ctx.inbound_id)
    else:
        done = observing.observe(ctx.session, game,
                                 None if command.code is None else command.code.value,
                                 now=ctx.now, actor=ctx.sender, service=ctx.service,
                                 inbound_id=ctx.inbound_id)
    say(ctx, game, command.line, done)


def say(ctx: Context, game: GameRecord, line: Line, done: observing.ObserveOutcome) -> None:
    """The reply to OBSERVE's outcome (`line`: the command's line, quoted when its code is
    unknown); also SIGNON O<game>'s (gm.commands.catalog.signon)."""
    days = address_changes.CONFIRM_WITHIN.days
    match done:
        case observing.Stopped():
            ctx.results.add(f"You no longer observe {game.name}.")
        case observing.ObserveRefusal.NOT_OBSERVING:
            ctx.results.add(f"OBSERVE {game.name} OFF: {ctx.sender} does not observe "
                            f"{game.name}; nothing to stop.")
        case observing.ObserveRefusal.ALREADY:
            ctx.results.add(f"OBSERVE: you already observe {game.name} (OBSERVE {game.name} "
                            "OFF stops it).")
        case observing.ObserveRefusal.FINISHED:
            ctx.results.add(f"OBSERVE: {game.name} is finished; HISTORY {game.name} shows how "
                            "it went.")
        case observing.ObserveRefusal.CLOSED:
            ctx.results.add(f"OBSERVE: refused, the GM of {game.name} does not allow observers"
                            " to sign up; ask the GM.")
        case observing.ObserveRefusal.FULL:
            ctx.results.add(f"OBSERVE: refused, {game.name} has {observing.MAX_OBSERVERS} "
                            "observers already, the most a game may have.")
        case observing.Asked(code=code):
            ctx.results.add(f"OBSERVE {game.name}: to confirm that {ctx.sender} asked for the "
                            f"report of every phase of {game.name}, send from {ctx.sender} the "
                            f"line\n\n    OBSERVE {game.name} CONFIRM {code}\n\nwithin {days} "
                            "days; nothing is sent until then. If you did not ask, ignore "
                            "this: nothing changes.")
        case observing.ObserveRefusal.NO_SUCH_CODE:
            ctx.results.add(f"{line}: no OBSERVE {game.name} from {ctx.sender} is "
                            f"waiting for that code (a code holds for {days} days; OBSERVE "
                            f"{game.name} asks again).")
        case observing.Observing(started=started, mail=mail):
            since = f" (it has started: HISTORY {game.name} shows the phases so far)" \
                if started else ""
            ctx.results.add(f"You observe {game.name}: you will get the report of every phase"
                            f"{since}. OBSERVE {game.name} OFF stops it.")
            ctx.results.mail.extend(mail)


COMMAND = CommandSpec(
    value=Observe,
    keywords=("OBSERVE", "WATCH"),
    rules={"observe": read_observe, "observe_password": read_observe_password},
    handle=handle,
    usage={
        "OBSERVE": "OBSERVE needs a game, and OFF to stop: OBSERVE mygame or OBSERVE mygame OFF"
                   " (OBSERVE mygame CONFIRM <code> confirms it)",
        "WATCH": "WATCH (OBSERVE) needs a game, and OFF to stop: WATCH mygame or WATCH mygame OFF",
    },
    without_signon=True,
    help=(
        HelpLines("GAMES", 70, """\
    OBSERVE <game>             get the report of every phase (and the start mail)
                               as an observer: OBSERVE mygame
    OBSERVE <game> CONFIRM <code>  confirm it from the same address, with the code
                               the reply to OBSERVE holds
    OBSERVE <game> OFF         stop it: OBSERVE mygame OFF
    WATCH mygame               the same as OBSERVE (the classic judges' word)
    WATCH mygame OFF           the same as OBSERVE mygame OFF
    OBSERVE <game> <password>  njudge's observer sign-on (also SIGNON O<game>
                               <password>): asks as OBSERVE <game> does; no
                               password is kept (none is needed here)
"""),
    ),
)
