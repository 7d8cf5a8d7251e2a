"""MAP <game> [<phase>]: the picture of the board, now or at the start of a phase.

Anyone may ask (no sign-on), as for HISTORY: a picture shows only units and centres, which
every report shows too. Without a phase the position now (the open phase's board); with one,
the board that phase was played on. The picture is drawn by gm.pictures, as the phase reports
draw theirs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.common import matches_phase, phase_text
from gm.commands.handlers.records import played_phases
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef
from gm.store.rows import PhaseRecord

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class MapRequest(Command):
    """`MAP mygame` (the position now) or `MAP mygame S1901M` (at the start of that phase)."""

    game: str
    phase: PhaseRef | None = None


def read_map(c: list[Any]) -> Draft:
    game = game_name(c[0])
    phase: PhaseRef | None = c[1] if len(c) > 1 else None
    return Draft(lambda line: MapRequest(line, game, phase))


def handle(ctx: Context, command: MapRequest) -> None:
    # not at the head: the reports and pictures cost an order's `gm ingest` ~0.1 s
    from gm.play.reports import board_pictures

    played = played_phases(ctx, "MAP", command.game, "board")
    if played is None:
        return
    game, variant, records = played
    chosen: PhaseRecord
    if command.phase is None:
        chosen = records[-1]
    else:
        ref = command.phase
        found = [r for r in records if matches_phase(variant, r, ref)]
        if not found:
            ref_text = phase_text(variant, ref)
            names = ", ".join(variant.format_phase(r.phase) for r in records[-6:])
            ctx.results.add(f"MAP: {game.name} has no phase {ref_text!r} (its latest phases: "
                            f"{names}).")
            return
        chosen = found[-1]  # a phase played again after a ROLLBACK: the latest
    shown = variant.format_phase(chosen.phase)
    png, svg = board_pictures(variant, chosen.state, game.name, shown)
    ctx.results.attachments.extend((png, svg))
    when = (f"now ({shown})" if chosen is records[-1] and not chosen.adjudicated
            else f"at the start of {shown}")
    ctx.results.add(f"The map of {game.name} {when} is attached ({png.filename}; {svg.filename} to "
                    "zoom).")


COMMAND = CommandSpec(
    value=MapRequest,
    keywords=("MAP",),
    rules={"map": read_map},
    handle=handle,
    usage={
        "MAP": (
            "MAP needs a game and may name a phase: MAP mygame, MAP mygame S1901M or MAP mygame"
            " Fall 1901, Retreats"
        ),
    },
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 60, """\
    MAP <game> [<phase>]       the picture of the board, now or at the start of a
                               phase, attached to the reply:
                               MAP mygame
                               MAP mygame F1901M
"""),
    ),
)
