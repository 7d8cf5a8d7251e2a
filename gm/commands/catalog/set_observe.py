"""SET OBSERVE ON|OFF (GM): whether anyone may OBSERVE the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.announce import announce
from gm.commands.handlers.common import as_master, refresh
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import game_switches
from gm.play.game_settings import SettingsRefusal

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetObserve(Command):
    """`SET OBSERVE ON|OFF` (GM): whether anyone may OBSERVE the game."""

    allowed: bool


def read_set_observe(c: list[Token]) -> Draft:
    allowed = str(c[0]).lower() == "on"
    return Draft(lambda line: SetObserve(line, allowed))


def handle(ctx: Context, command: SetObserve) -> None:
    signed = as_master(ctx, "SET OBSERVE")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    done = game_switches.set_switch(ctx.session, game, game_switches.Switch.OBSERVE,
                                    command.allowed, now=ctx.now, actor=ctx.sender,
                                    inbound_id=ctx.inbound_id)
    if done is SettingsRefusal.FINISHED:
        ctx.results.add(f"SET OBSERVE: refused, {game.name} is finished.")
        return
    signed.game = done
    announce(ctx, game, command.line.text)  # everyone in a game under way is told
    if command.allowed:
        ctx.results.add(f"Anyone may OBSERVE {game.name} now.")
    else:
        ctx.results.add(f"OBSERVE {game.name} is refused from now on; the observers already "
                        f"listed stay (SET OBSERVERS changes the list).")


COMMAND = CommandSpec(
    value=SetObserve,
    keywords=("SET",),
    set_words=("OBSERVE",),
    rules={"set_observe": read_set_observe},
    handle=handle,
    set_usage={
        "OBSERVE": (
            "SET OBSERVE needs ON or OFF (whether anyone may OBSERVE the game): SET OBSERVE OFF"
        ),
    },
    help=(
        HelpLines("DEADLINES", 110, """\
    SET OBSERVE ON|OFF             whether anyone may OBSERVE the game (ON unless set)
"""),
    ),
)
