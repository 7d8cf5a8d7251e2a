"""SET EARLY ON|OFF (GM): process as soon as every power has ordered."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetEarly(Command):
    """`SET EARLY ON|OFF`: process as soon as every power has ordered."""

    early: bool


def read_set_early(c: list[Token]) -> Draft:
    early = str(c[0]).lower() == "on"
    return Draft(lambda line: SetEarly(line, early))


def handle(ctx: Context, command: SetEarly) -> None:
    if change(ctx, "SET EARLY", {"early": command.early}, early=command.early) is not None:
        ctx.results.add(f"Early processing in {game_name(ctx)}: "
                        + ("ON (as soon as every power has ordered)." if command.early
                           else "OFF (at the deadline)."))


COMMAND = CommandSpec(
    value=SetEarly,
    keywords=("SET",),
    set_words=("EARLY",),
    rules={"set_early": read_set_early},
    handle=handle,
    set_usage={
        "EARLY": "SET EARLY needs ON or OFF: SET EARLY ON",
    },
    help=(
        HelpLines("DEADLINES", 70, """\
    SET EARLY ON|OFF               process as soon as every power has ordered
                                   (a short delay after the last orders, so a
                                   correction sent just after counts: the
                                   judge's early_delay, 20 seconds by default);
                                   a power whose last message had a refused
                                   order line is not ready until a clean one
"""),
    ),
)
