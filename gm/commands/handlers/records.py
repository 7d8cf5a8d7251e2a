"""HISTORY and SUMMARY: a game's stored phases, rendered through the reply templates.

Anyone may ask (no sign-on): orders show only once their phase is adjudicated.
"""

from __future__ import annotations

from dataclasses import dataclass

from gm.commands.handlers.common import (
    matches_phase,
    no_game,
    phase_text,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.context import Context
from gm.commands.values import History, Summary
from gm.play.render import render
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord, PhaseRecord, StoredResult
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import Variant


@dataclass(frozen=True)
class _PhaseView:
    name: str
    open: bool
    results_by_power: list[tuple[str, list[StoredResult]]]
    events: tuple[str, ...]


@dataclass(frozen=True)
class _PowerView:
    name: str
    centres: int
    units: str
    status: str


def played_phases(ctx: Context, keyword: str, name: str,
                  none_yet: str) -> tuple[GameRecord, Variant, list[PhaseRecord]] | None:
    """The game called `name`, its variant and its phases so far, for a command that shows
    them; None, with the refusal said, when there is no such game or it has not started
    (`none_yet`: what it therefore has none of)."""
    game = games_repo.find_game(ctx.session, name)
    if game is None:
        ctx.results.add(f"{keyword}: {no_game(ctx, name)}")
        return None
    variant = variant_of(game)
    ctx.results.game = game.name
    records = phases_repo.history(ctx.session, game.id)
    if not records:
        ctx.results.add(f"{keyword}: {game.name} has not started; it has no {none_yet} yet.")
        return None
    return game, variant, records


def _view(variant: Variant, record: PhaseRecord) -> _PhaseView:
    by_power: dict[str, list[StoredResult]] = {}
    for result in record.results or ():
        by_power.setdefault(result.power, []).append(result)
    return _PhaseView(variant.format_phase(record.phase), not record.adjudicated,
                      sorted(by_power.items()), record.events or ())


def _add_rendered(ctx: Context, text: str) -> None:
    ctx.results.blank()
    ctx.results.add(*text.rstrip("\n").splitlines())
    ctx.results.blank()


def history(ctx: Context, command: History) -> None:
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
    _add_rendered(ctx, render("reply/history.txt.j2", game=game.name, title=variant.title,
                              phases=[_view(variant, r) for r in records]))


def summary(ctx: Context, command: Summary) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"SUMMARY: {no_game(ctx, command.game)}")
        return
    variant = variant_of(game)
    ctx.results.game = game.name
    phase = phases_repo.current_phase(ctx.session, game.id)
    powers: list[_PowerView] = []
    deadline = None
    if phase is not None:
        state = phase.state
        statuses = {p.name: p.status for p in powers_repo.list_powers(ctx.session, game.id)}
        for name in variant.power_names:
            status = statuses.get(name, PowerStatus.PLAYING)
            powers.append(_PowerView(
                name, len(state.centres_of(name)),
                ", ".join(str(u) for u in sorted(state.units_of(name))),
                status.value.replace("_", " ")))
        if phase.deadline_at is not None and not phase.adjudicated:
            if game.status is GameStatus.ACTIVE:
                deadline = shown_deadline(game, phase.deadline_at)
            elif game.status is GameStatus.PAUSED:
                deadline = "none while the game is paused"
    settings = game.settings
    late = settings.late.value.upper() + (f" after {settings.late_after}"
                                          if settings.late_after else "")
    _add_rendered(ctx, render(
        "reply/summary.txt.j2", game=game.name, title=variant.title, status=game.status.value,
        phase=None if phase is None else variant.format_phase(phase.phase), deadline=deadline,
        press=settings.press.value.upper(), late=late, powers=powers))
