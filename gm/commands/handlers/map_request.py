"""MAP <game> [phase]: the picture of a game's position, attached to the reply.

Anyone may ask (no sign-on), as for HISTORY: a picture shows only units and centres, which
every report shows too. Without a phase the position now (the open phase's board); with one,
the board that phase was played on. The picture is drawn by gm.pictures, as the phase reports
draw theirs.
"""

from __future__ import annotations

from gm.commands.handlers.common import no_game, variant_of
from gm.commands.handlers.context import Context
from gm.commands.handlers.records import _matches
from gm.commands.values import MapRequest, PhaseCode
from gm.pictures import render_map_svg
from gm.service.reports import picture_name
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.records import Attachment, PhaseRecord


def map_request(ctx: Context, command: MapRequest) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"MAP: {no_game(ctx, command.game)}")
        return
    variant = variant_of(game)
    ctx.results.game = game.name
    records = phases_repo.history(ctx.session, game.id)
    if not records:
        ctx.results.add(f"MAP: {game.name} has not started; it has no board yet.")
        return
    chosen: PhaseRecord
    if command.phase is None:
        chosen = records[-1]
    else:
        ref = command.phase
        found = [r for r in records if _matches(variant, r, ref)]
        if not found:
            ref_text = str(ref) if isinstance(ref, PhaseCode) else variant.format_phase(ref)
            names = ", ".join(variant.format_phase(r.phase) for r in records[-6:])
            ctx.results.add(f"MAP: {game.name} has no phase {ref_text!r} (its latest phases: "
                            f"{names}).")
            return
        chosen = found[-1]  # a phase played again after a ROLLBACK: the latest
    shown = variant.format_phase(chosen.phase)
    svg = render_map_svg(variant, chosen.state, f"{game.name}: {shown}")
    name = picture_name(game.name, shown)
    ctx.results.attachments.append(Attachment(name, "image/svg+xml", svg.encode("utf-8")))
    when = (f"now ({shown})" if chosen is records[-1] and not chosen.adjudicated
            else f"at the start of {shown}")
    ctx.results.add(f"The map of {game.name} {when} is attached ({name}).")
