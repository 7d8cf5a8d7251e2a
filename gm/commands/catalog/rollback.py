"""ROLLBACK <phase> (GM): return the game to that phase."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec
from gm.commands.values import PhaseRef, Rollback

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_rollback(c: list[PhaseRef]) -> Draft:
    (phase,) = c
    return Draft(lambda line: Rollback(line, phase))


def handle(ctx: Context, command: Rollback) -> None:
    from gm.commands.handlers.gm_control import rollback

    rollback(ctx, command)


COMMAND = CommandSpec(
    value=Rollback,
    keywords=("ROLLBACK",),
    rules={"rollback": read_rollback},
    handle=handle,
    usage={
        "ROLLBACK": "ROLLBACK needs a phase: ROLLBACK S1901M or ROLLBACK Spring 1901, Movement",
    },
)
