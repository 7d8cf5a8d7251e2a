"""PREVIEW (GM): what processing now would give, without doing it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import variant_of
from gm.commands.handlers.gm_control import open_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.engine.game import advance
from gm.engine.phase import PhaseType
from gm.engine.units import NEUTRAL
from gm.play.order_pictures import preview_picture, reply_picture
from gm.play.picture_choice import mode_for
from gm.play.render import render
from gm.store import submissions as orders_repo
from gm.store.rows import StoredResult

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.engine.game import GameStep
    from gm.store.rows import GameRecord, PhaseRecord, StoredResult
    from gm.variants import Variant


@dataclass(frozen=True)
class Preview(Command):
    """`PREVIEW`: show what processing now would give, without doing it."""


def read_preview(c: list[Token]) -> Draft:
    return Draft(Preview)


def handle(ctx: Context, command: Preview) -> None:
    """What processing now would give, in the GM's reply only; nothing is stored."""
    what = command.line.text.split(" ", 1)[0].upper() or "PREVIEW"
    if ctx.signed is not None and ctx.signed.power is not None:
        ctx.results.add(f"{what}: refused, only the game's GM may do this (it shows what"
                        " processing now would give, and every power's orders). Your orders"
                        " are checked as they come: the reply to them says how each was read.")
        return
    found = open_game(ctx, what, "preview")
    if found is None:
        return
    game, phase = found
    variant = variant_of(game)
    step = _adjudicate(ctx, variant, phase)
    missing = _unordered_powers(ctx, phase)
    text = render(
        "reply/preview.txt.j2", game=game.name, phase=variant.format_phase(phase.phase),
        by_power=_by_power(step), events=list(step.events), finished=step.state.finished,
        winners=list(step.state.winners), next_phase=variant.format_phase(step.state.phase),
        missing=missing)
    ctx.results.blank()
    ctx.results.add(*text.rstrip("\n").splitlines())
    ctx.results.blank()
    _picture(ctx, variant, game, phase, step)


def _picture(ctx: Context, variant: Variant, game: GameRecord, phase: PhaseRecord,
             step: GameStep) -> None:
    """Every power's orders as they stand drawn on the board with the outcomes processing now
    would give, in the reply's HTML part as the GM chose (SET PICTURES)."""
    mode = mode_for(game, ctx.sender)
    first = step.reports[0] if step.reports else None
    if mode == "none" or first is None or not first.played:
        return
    picture = preview_picture(variant, phase.state, game.name, first.results)
    ctx.results.show(reply_picture(picture, mode))


def _unordered_powers(ctx: Context, phase: PhaseRecord) -> list[str]:
    """Powers with units to order (movement) or to retreat (retreats) and no orders yet
    (adjustments: none listed; a power that does not build waives its builds)."""
    ordered = set(orders_repo.latest_valid_orders(ctx.session, phase.id))
    state = phase.state
    if phase.phase.type is PhaseType.MOVEMENT:
        owners = {u.power for u in state.units}
    elif phase.phase.type is PhaseType.RETREAT:
        owners = {d.unit.power for d in state.dislodged}
    else:
        owners = set()
    return sorted(p for p in owners if p not in ordered and p != NEUTRAL)  # garrisons: none


def _adjudicate(ctx: Context, variant: Variant, phase: PhaseRecord) -> GameStep:
    """What the phase's current orders give (nothing is stored)."""
    # not at the head: the adjudicator costs an order's `gm ingest` ~0.1 s (bench_ingest_startup)
    from gm.play.adjudicate import submissions

    return advance(variant, phase.state, submissions(ctx.session, variant, phase))


def _by_power(step: GameStep) -> list[tuple[str, list[StoredResult]]]:
    by_power: dict[str, list[StoredResult]] = {}
    for result in step.results:
        by_power.setdefault(result.power, []).append(StoredResult.of(result))
    return sorted(by_power.items())


COMMAND = CommandSpec(
    value=Preview,
    keywords=("PREVIEW", "PREDICT"),
    rules={"preview": read_preview},
    handle=handle,
    usage={
        "PREVIEW": "PREVIEW takes nothing after it",
        "PREDICT": "PREDICT (PREVIEW) takes nothing after it",
    },
    answers_only=True,
    help=(
        HelpLines("GM", 100, """\
    PREVIEW                                show what processing now would give
    PREDICT                                the same (the classic judges' word)
"""),
    ),
)
