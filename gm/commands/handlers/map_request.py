"""MAP <game> [phase]: the picture of a game's position, attached to the reply as a PNG (which
every mail client shows) and an SVG (to zoom).

Anyone may ask (no sign-on), as for HISTORY: a picture shows only units and centres, which
every report shows too. Without a phase the position now (the open phase's board); with one,
the board that phase was played on. The picture is drawn by gm.pictures, as the phase reports
draw theirs.
"""

from __future__ import annotations

from gm.commands.handlers.common import matches_phase, phase_text
from gm.commands.handlers.context import Context
from gm.commands.handlers.records import played_phases
from gm.commands.values import MapRequest
from gm.play.reports import board_pictures
from gm.store.rows import PhaseRecord


def map_request(ctx: Context, command: MapRequest) -> None:
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
