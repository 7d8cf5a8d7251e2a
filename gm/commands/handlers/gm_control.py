"""The GM's commands on a running game: PROCESS, PAUSE, RESUME, TERMINATE."""

from __future__ import annotations

from gm.commands.handlers.common import as_master, deadline_for, open_phase_of, refresh, variant_of
from gm.commands.handlers.context import Context, Notice
from gm.commands.values import Pause, Process, Resume, Terminate
from gm.engine.errors import OrderError
from gm.engine.game import advance
from gm.engine.results import Submitted
from gm.mail.compose import build_subject
from gm.orders import parse_order
from gm.service.render import render
from gm.store import audit
from gm.store import games as games_repo
from gm.store import orders as orders_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.records import StoredResult
from gm.store.statuses import GameStatus


def process(ctx: Context, command: Process) -> None:
    signed = as_master(ctx, "PROCESS")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED):
        ctx.results.add(f"PROCESS: {game.name} is {game.status.value}; nothing to process.")
        return
    games_repo.lock_game(ctx.session, game.id)
    phase = open_phase_of(ctx, game)
    if phase is None:
        ctx.results.add(f"PROCESS: {game.name} has no open phase.")
        return
    variant = variant_of(game)
    gmap = variant.map_for(phase.state)
    submitted: list[Submitted] = []
    for power, order_set in sorted(orders_repo.latest_valid_orders(ctx.session, phase.id).items()):
        for line in order_set.lines:
            order = parse_order(line.canonical or line.text, gmap, phase.phase.type)
            if isinstance(order, OrderError):
                submitted.append(Submitted(power, line.text, None, order))
            else:
                submitted.append(Submitted(power, line.text, order))
    step = advance(variant, phase.state, submitted)
    phases_repo.record_results(ctx.session, phase.id, step.results, now=ctx.now,
                               events=step.events)
    this_phase = variant.format_phase(phase.phase)
    deadline_text = "none"
    next_phase = variant.format_phase(step.state.phase)
    if step.state.finished:
        games_repo.set_game_status(ctx.session, game.id, GameStatus.FINISHED, now=ctx.now)
    else:
        nxt = phases_repo.open_phase(
            ctx.session, game.id, step.state, now=ctx.now,
            deadline_at=deadline_for(game, step.state.phase.type, ctx.now))
        if nxt.deadline_at is not None:
            deadline_text = f"{nxt.deadline_at:%Y-%m-%d %H:%M} UTC"
    audit.record_action(ctx.session, actor=ctx.sender, action="process", now=ctx.now,
                        game_id=game.id, details={"phase": this_phase},
                        inbound_id=ctx.inbound_id)
    by_power: dict[str, list[StoredResult]] = {}
    for result in step.results:
        by_power.setdefault(result.power, []).append(StoredResult.of(result))
    body = render(
        "report/phase.txt.j2", game=game.name, phase=this_phase,
        by_power=sorted(by_power.items()), events=list(step.events),
        finished=step.state.finished, winners=list(step.state.winners),
        next_phase=next_phase, deadline=deadline_text, service=ctx.service)
    recipients = [a for p in powers_repo.list_powers(ctx.session, game.id) for a in p.addresses]
    recipients.append(game.gm_address)
    subject = build_subject("results", game=game.name, phase=this_phase)
    for address in dict.fromkeys(recipients):  # one message each: addresses stay private
        ctx.results.mail.append(Notice((address,), subject, body, game.id))
    ctx.results.add(f"{this_phase} of {game.name} processed; the report went to every player."
                    + ("" if step.state.finished else f" Now: {next_phase}."))


def _set_status(ctx: Context, what: str, src: tuple[GameStatus, ...], dst: GameStatus) -> None:
    signed = as_master(ctx, what)
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status not in src:
        ctx.results.add(f"{what}: refused, {game.name} is {game.status.value}.")
        return
    signed.game = games_repo.set_game_status(ctx.session, game.id, dst, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action=what.lower(), now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id)
    ctx.results.add(f"{game.name} is now {dst.value}.")


def pause(ctx: Context, command: Pause) -> None:
    _set_status(ctx, "PAUSE", (GameStatus.ACTIVE,), GameStatus.PAUSED)


def resume(ctx: Context, command: Resume) -> None:
    _set_status(ctx, "RESUME", (GameStatus.PAUSED,), GameStatus.ACTIVE)


def terminate(ctx: Context, command: Terminate) -> None:
    _set_status(ctx, "TERMINATE", (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED),
                GameStatus.FINISHED)
