"""HISTORY <game> [<phase>]: the results of a game's past phases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command, PhaseRef

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import PhaseRecord, StoredResult
    from gm.variants import Variant

@dataclass(frozen=True)
class _PhaseView:
    name: str
    open: bool
    results_by_power: list[tuple[str, list[StoredResult]]]
    events: tuple[str, ...]



@dataclass(frozen=True)
class History(Command):
    """`HISTORY mygame` or `HISTORY mygame S1901M` / `HISTORY mygame Spring 1901, Movement`."""

    game: str
    phase: PhaseRef | None = None


def read_history(c: list[Any]) -> Draft:
    game = game_name(c[0])
    phase: PhaseRef | None = c[1] if len(c) > 1 else None
    return Draft(lambda line: History(line, game, phase))


def handle(ctx: Context, command: History) -> None:
    from gm.commands.handlers.common import matches_phase, phase_text
    from gm.commands.handlers.records import add_rendered, played_phases
    from gm.play.render import render

    found = played_phases(ctx, "HISTORY", command.game, "history")
    if found is None:
        return
    game, variant, records = found
    if command.phase is not None:
        ref = command.phase
        records = [r for r in records if matches_phase(variant, r, ref)]
        if not records:
            ref_text = phase_text(variant, ref)
            ctx.results.add(f"HISTORY: {game.name} has no phase {ref_text!r} (HISTORY "
                            f"{game.name} alone lists every phase).")
            return
    add_rendered(ctx, render("reply/history.txt.j2", game=game.name, title=variant.title,
                              phases=[_view(variant, r) for r in records]))


def _view(variant: Variant, record: PhaseRecord) -> _PhaseView:

    by_power: dict[str, list[StoredResult]] = {}
    for result in record.results or ():
        by_power.setdefault(result.power, []).append(result)
    return _PhaseView(variant.format_phase(record.phase), not record.adjudicated,
                      sorted(by_power.items()), record.events or ())


COMMAND = CommandSpec(
    value=History,
    keywords=("HISTORY",),
    rules={"history": read_history},
    handle=handle,
    usage={
        "HISTORY": (
            "HISTORY needs a game and may name a phase: HISTORY mygame, HISTORY mygame S1901M or"
            " HISTORY mygame Spring 1901, Movement"
        ),
    },
    without_signon=True,
    help=(
        HelpLines("GAMES", 30, """\
    HISTORY <game>             the results of a game's past phases
    HISTORY <game> <phase>     one phase, for example:
                               HISTORY mygame S1901M
                               HISTORY mygame Spring 1901, Movement
"""),
    ),
)
