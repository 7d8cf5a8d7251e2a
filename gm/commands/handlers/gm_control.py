"""The GM's commands on a running game: PROCESS, PREVIEW, ROLLBACK, PAUSE, RESUME, TERMINATE.

PREVIEW adjudicates the current orders without storing anything and answers the GM alone;
ROLLBACK reopens an earlier phase (gm.store.phases.rollback_to keeps what it removes in the
audit log) and tells every player and the GM.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from gm.commands.handlers.common import (
    as_master,
    deadline_for,
    matches_phase,
    open_phase_of,
    phase_text,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.context import Context, Notice
from gm.commands.handlers.notices import tell_game
from gm.commands.values import (
    Pause,
    Preview,
    Process,
    Resume,
    Rollback,
    Terminate,
)
from gm.engine.game import GameStep, advance
from gm.engine.phase import PhaseType
from gm.play.adjudicate import adjudicate_phase, record_adjudication, submissions
from gm.play.compose_reports import compose_reports
from gm.play.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.store.rows import GameRecord, PhaseRecord, StoredResult
from gm.store.statuses import GameStatus
from gm.variants import Variant


def _open_game(ctx: Context, what: str, verb: str,
               lock: bool = False) -> tuple[GameRecord, PhaseRecord] | None:
    """The GM's running game and its open phase (locked first with `lock`), or None after
    writing why `what` cannot be done."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        ctx.results.add(f"{what}: {game.name} is {game.status.value}; nothing to {verb}.")
        return None
    if lock:
        games_repo.lock_game(ctx.session, game.id)
    phase = open_phase_of(ctx, game)
    if phase is None:
        ctx.results.add(f"{what}: {game.name} has no open phase.")
        return None
    return game, phase


def process(ctx: Context, command: Process) -> None:
    found = _open_game(ctx, "PROCESS", "process", lock=True)
    if found is None:
        return
    game, phase = found
    variant = variant_of(game)
    done = adjudicate_phase(game, phase, powers_repo.list_powers(ctx.session, game.id),
                            submissions(ctx.session, variant, phase), now=ctx.now)
    record_adjudication(ctx.session, done)
    reports = compose_reports(done, press_repo.list_press(ctx.session, game.id),
                              service=ctx.service)
    this_phase, step = done.name, done.step
    next_phase = variant.format_phase(step.state.phase)
    audit.record_action(ctx.session, actor=ctx.sender, action="process", now=ctx.now,
                        game_id=game.id, details={"phase": this_phase},
                        inbound_id=ctx.inbound_id)
    for report in reports:  # one message each: addresses stay private
        ctx.results.mail.append(Notice(report.recipients, report.subject, report.text, game.id,
                                       html=report.html, attachments=report.attachments))
    if done.next_phase is not None:  # orders sent ahead for the phase opened now
        from gm.play.orders_ahead import apply_opened

        for sent in apply_opened(ctx.session, [game.id], now=ctx.now, service=ctx.service):
            ctx.results.mail.append(Notice(sent.recipients, sent.subject, sent.body, game.id))
    ctx.results.add(f"{this_phase} of {game.name} processed; the report went to every player."
                    + ("" if step.state.finished else f" Now: {next_phase}."))


def _adjudicate(ctx: Context, variant: Variant, phase: PhaseRecord) -> GameStep:
    """What the phase's current orders give (nothing is stored)."""
    return advance(variant, phase.state, submissions(ctx.session, variant, phase))


def _by_power(step: GameStep) -> list[tuple[str, list[StoredResult]]]:
    by_power: dict[str, list[StoredResult]] = {}
    for result in step.results:
        by_power.setdefault(result.power, []).append(StoredResult.of(result))
    return sorted(by_power.items())


def preview(ctx: Context, command: Preview) -> None:
    """What processing now would give, in the GM's reply only; nothing is stored."""
    found = _open_game(ctx, "PREVIEW", "preview")
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
    return sorted(p for p in owners if p not in ordered)


def rollback(ctx: Context, command: Rollback) -> None:
    """Reopen an earlier phase: later phases and their orders go (kept in the audit log); the
    phase's own orders stand; every player and the GM are told."""
    signed = as_master(ctx, "ROLLBACK")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FORMING:
        ctx.results.add(f"ROLLBACK: {game.name} has not started; there is nothing to roll back.")
        return
    games_repo.lock_game(ctx.session, game.id)
    variant = variant_of(game)
    ref = command.phase
    wanted = phase_text(variant, ref)
    target = next((r for r in phases_repo.history(ctx.session, game.id)
                   if matches_phase(variant, r, ref)), None)
    if target is None:
        played = ", ".join(variant.format_phase(p.phase)
                           for p in phases_repo.history(ctx.session, game.id))
        ctx.results.add(f"ROLLBACK: {game.name} has no phase {wanted!r} (its phases: {played}).")
        return
    current = phases_repo.current_phase(ctx.session, game.id)
    name = variant.format_phase(target.phase)
    if current is not None and current.index == target.index and not current.adjudicated:
        ctx.results.add(f"ROLLBACK: {name} is the current phase of {game.name} already.")
        return
    reopened = phases_repo.rollback_to(
        ctx.session, game.id, target.index, actor=ctx.sender, now=ctx.now,
        deadline_at=deadline_for(game, target.phase.type, ctx.now), inbound_id=ctx.inbound_id)
    if game.status is GameStatus.FINISHED:
        signed.game = games_repo.set_game_status(ctx.session, game.id, GameStatus.ACTIVE,
                                                 now=ctx.now)
    deadline = shown_deadline(game, reopened.deadline_at)
    early = game.settings.early
    body = render("reply/rollback.txt.j2", game=game.name, phase=name, deadline=deadline,
                  early=early, service=ctx.service)
    tell_game(ctx, game, f"rolled back to {name}", body)  # observers had the withdrawn report
    waits = ("its deadline, new orders from every power, or PROCESS" if early
             else "its deadline or PROCESS")
    ctx.results.add(f"{game.name} is back at the start of {name} (deadline {deadline}); "
                    "the orders of later phases are discarded and every player was told. "
                    f"The orders given for it stand; it waits for {waits}.")


def _set_status(ctx: Context, what: str, src: tuple[GameStatus, ...],
                dst: GameStatus) -> GameRecord | None:
    """Move the GM's game from one of `src` to `dst`; the game as it was, or None if refused."""
    signed = as_master(ctx, what)
    if signed is None:
        return None
    game = refresh(ctx, signed.game)
    if game.status not in src:
        ctx.results.add(f"{what}: refused, {game.name} is {game.status.value}.")
        return None
    signed.game = games_repo.set_game_status(ctx.session, game.id, dst, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=what.lower(), now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id)
    return game


def pause(ctx: Context, command: Pause) -> None:
    game = _set_status(ctx, "PAUSE", (GameStatus.ACTIVE,), GameStatus.PAUSED)
    if game is None:
        return
    ctx.results.add(f"{game.name} is now paused: no deadline runs and nothing is processed "
                    "until RESUME. Every player was told.")
    tell_game(ctx, game, "the game is paused", render(
        "reply/paused.txt.j2", game=game.name, service=ctx.service))


def resume(ctx: Context, command: Resume) -> None:
    game = _set_status(ctx, "RESUME", (GameStatus.PAUSED,), GameStatus.ACTIVE)
    if game is None:
        return
    phase = open_phase_of(ctx, game)
    deadline = None if phase is None else _deadline_after_pause(ctx, game, phase)
    shown = shown_deadline(game, deadline)
    ctx.results.add(f"{game.name} is active again; deadline {shown}. Every player was told.")
    tell_game(ctx, game, "the game goes on", render(
        "reply/resumed.txt.j2", game=game.name, deadline=shown,
        phase=None if phase is None else variant_of(game).format_phase(phase.phase),
        service=ctx.service))


def _deadline_after_pause(ctx: Context, game: GameRecord, phase: PhaseRecord) -> datetime | None:
    """The open phase's deadline moved on by the time the game was paused (the time left at
    PAUSE is given back), and stored."""
    if phase.deadline_at is None:
        return None
    paused = audit.audit_log(ctx.session, game_id=game.id, action="pause")
    since = paused[-1].at if paused else ctx.now
    moved = phase.deadline_at + max(ctx.now - since, timedelta(0))
    if moved != phase.deadline_at:
        phases_repo.set_deadline(ctx.session, phase.id, moved)
    return moved


def terminate(ctx: Context, command: Terminate) -> None:
    game = _set_status(ctx, "TERMINATE",
                       (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED),
                       GameStatus.FINISHED)
    if game is None:
        return
    ctx.results.add(f"{game.name} is terminated: the game is over. Every player was told.")
    tell_game(ctx, game, "the game is over", render(
        "reply/terminated.txt.j2", game=game.name, service=ctx.service))
