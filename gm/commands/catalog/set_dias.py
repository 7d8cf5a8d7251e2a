"""SET DIAS / SET NODIAS (GM, before or after the start; njudge's SET [NO] DIAS): whether a
draw must include every survivor (DIAS, the default) or may be of some powers only, voted by
SET DRAW <powers> under njudge's subset rule (gm.play.votes)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change_extra, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store.settings import NODIAS_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetDias(Command):
    """`SET DIAS` (`dias` True) or `SET NODIAS` / `SET NO DIAS`."""

    dias: bool


def read_set_dias(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDias(line, True))


def read_set_nodias(c: list[Token]) -> Draft:
    return Draft(lambda line: SetDias(line, False))


def handle(ctx: Context, command: SetDias) -> None:
    what = "SET DIAS" if command.dias else "SET NODIAS"
    if change_extra(ctx, what, NODIAS_KEY, None if command.dias else True,
                    {"dias": command.dias}) is None:
        return
    if command.dias:
        ctx.results.add(f"{game_name(ctx)} is DIAS: a draw includes every surviving power "
                        "(SET DRAW alone; votes naming fewer powers no longer count).")
    else:
        ctx.results.add(f"{game_name(ctx)} is NoDIAS: a draw may be of some powers only "
                        "(SET DRAW <powers>; the largest draw every survivor approves passes).")


COMMAND = CommandSpec(
    value=SetDias,
    keywords=("SET",),
    set_words=("DIAS", "NODIAS",),
    rules={"set_dias": read_set_dias, "set_nodias": read_set_nodias},
    handle=handle,
    set_usage={
        "DIAS": "SET DIAS takes nothing after it (SET NODIAS allows draws of some powers)",
        "NODIAS": "SET NODIAS takes nothing after it (SET DIAS: draws include all survivors)",
    },
    help=(
        HelpLines("DEADLINES", 58, """\
    SET DIAS                       a draw includes all survivors (the default):
                                   players vote SET DRAW
    SET NODIAS                     a draw may be of some powers only: players vote
                                   SET DRAW <powers> (HELP SET), the largest draw
                                   every survivor approves passes; also SET NO DIAS;
                                   before or after START
"""),
    ),
)
