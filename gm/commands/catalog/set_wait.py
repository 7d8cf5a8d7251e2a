"""SET WAIT / SET NO WAIT: wait for the deadline even when every power has ordered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import powers as powers_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetWait(Command):
    """`SET WAIT` (True) or `SET NOWAIT` / `SET NO WAIT` (False): wait for the deadline even
    when every power has ordered."""

    wait: bool


def read_set_wait(c: list[Token]) -> Draft:
    return Draft(lambda line: SetWait(line, True))


def read_set_no_wait(c: list[Token]) -> Draft:
    return Draft(lambda line: SetWait(line, False))


def handle(ctx: Context, command: SetWait) -> None:
    signed = as_player(ctx, "SET WAIT")
    if signed is None or signed.power is None:
        return
    powers_repo.set_power_flags(ctx.session, signed.game.id, signed.power, now=ctx.now,
                                wait=command.wait)
    ctx.results.add(f"{signed.power} " + ("waits for the deadline of this phase." if command.wait
                                          else "does not wait for the deadline."))


COMMAND = CommandSpec(
    value=SetWait,
    keywords=("SET",),
    set_words=("WAIT", "NO WAIT",),
    player_setting=True,
    rules={"set_wait": read_set_wait, "set_no_wait": read_set_no_wait},
    handle=handle,
    set_usage={
        "WAIT": "SET WAIT takes nothing after it (SET NO WAIT undoes it)",
        "NOWAIT": "SET NO WAIT takes nothing after it",
    },
    help=(
        HelpLines("SET", 40, """\
    SET WAIT                   keep the game waiting for the deadline even when every power
                               has ordered (when the game processes early); it holds for
                               the current phase only
    SET NO WAIT                undo SET WAIT (also SET NOWAIT)
"""),
    ),
)
