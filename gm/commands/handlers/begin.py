"""What START and FORCE BEGIN share: the game's first phase opened, the powers nobody plays
put in civil disorder (FORCE BEGIN), and the game-start notice to every player and the GM."""

from __future__ import annotations

from gm.commands.handlers.calendar_notices import with_events
from gm.commands.handlers.common import (
    as_master,
    deadline_for,
    game_rulebook,
    refresh,
    shown_deadline,
    variant_of,
)
from gm.commands.handlers.context import Context
from gm.commands.handlers.join_prefer import seat_by_preference
from gm.engine.game import orders_needed, start_state
from gm.engine.phase import PhaseType
from gm.engine.rulebook import with_rulebook
from gm.engine.state import GameState
from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.play.render import render
from gm.play.stand_in import bots, play_bots, seated_bots
from gm.store import audit
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import Variant


def begin(ctx: Context, what: str, *, force: bool) -> None:
    """START, or with `force` FORCE BEGIN: the powers nobody plays start in civil disorder."""
    signed = as_master(ctx, what)
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"{what}: {game.name} is {game.status.value}, not forming.")
        return

    if not seat_by_preference(ctx, game, force=force):
        return
    powers = powers_repo.list_powers(ctx.session, game.id)
    missing = [p.name for p in powers if not p.addresses
               and p.name not in bots(game.settings)]  # ADD <power> BOT
    if missing and not force:
        ctx.results.add(f"START: these powers have no player yet: {', '.join(missing)} "
                        "(FORCE BEGIN starts without them, in civil disorder).")
        return
    if force and len(missing) == len(powers):
        ctx.results.add(f"{what}: refused, {game.name} has no player yet (ADD or JOIN first).")
        return
    for name in missing:  # FORCE BEGIN: nobody plays them; STANDBY or TAKEOVER may
        powers_repo.set_power_status(ctx.session, game.id, name, PowerStatus.CIVIL_DISORDER,
                                     now=ctx.now)
    variant = variant_of(game)
    state = with_rulebook(start_state(variant), game_rulebook(game))
    phase = phases_repo.open_phase(ctx.session, game.id, state, now=ctx.now,
                                   deadline_at=deadline_for(game, state.phase.type, ctx.now))
    signed.game = games_repo.set_game_status(ctx.session, game.id, GameStatus.ACTIVE,
                                             now=ctx.now)
    play_bots(ctx.session, game, phase, seated_bots(game.settings, powers), now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="start", now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id,
                        details={"disorder": missing} if missing else None)
    deadline = shown_deadline(game, phase.deadline_at)
    ctx.results.add(f"{game.name} has started: {variant.format_phase(phase.phase)}, "
                    f"deadline {deadline}."
                    + (f" In civil disorder (no player): {', '.join(missing)}." if missing
                       else ""))
    mark = len(ctx.results.mail)
    _tell_start(ctx, game, variant, state, deadline)
    with_events(ctx, game, phase, mark)  # the deadline's calendar event


def _tell_start(ctx: Context, game: GameRecord, variant: Variant, state: GameState,
                deadline: str) -> None:
    """The game-start notice: one message to each player (their power, its starting position
    or the builds it opens with (Deluge II, Chaos II: Winter 1900), its one-character code)
    and one to the GM."""
    # not at the head: the reports and pictures cost an order's `gm ingest` ~0.1 s
    from gm.play.reports import board_pictures

    phase = variant.format_phase(state.phase)
    subject = build_subject("the game has started", game=game.name, phase=phase)
    powers = powers_repo.list_powers(ctx.session, game.id)
    names = [p.name for p in powers]
    needed = orders_needed(variant, state) if state.phase.type is PhaseType.ADJUSTMENT else {}
    pictures = board_pictures(variant, state, game.name, phase)  # the starting board
    common = {"game": game.name, "title": variant.title, "phase": phase, "deadline": deadline,
              "powers": names, "service": ctx.service, "pictures": pictures}
    for power in powers:
        found = variant.power(power.name)
        want = needed.get(power.name)
        body = render("reply/started.txt.j2", **common, power=power.name,
                      letter=found.letter if found else "",
                      units=[str(u) for u in state.units_of(power.name)],
                      centres=list(state.centres_of(power.name)),
                      builds=want.builds if want else 0,
                      sites=list(want.build_sites) if want else [])
        for address in power.addresses:
            ctx.results.mail.append(Outgoing((address,), subject, body, game.id,
                                           attachments=pictures))
    body = render("reply/started.txt.j2", **common, power=None)
    ctx.results.mail.append(Outgoing((game.gm_address,), subject, body, game.id,
                                   attachments=pictures))
    seen = {a.lower() for p in powers for a in p.addresses} | {game.gm_address.lower()}
    watching = [a for a in observers(games_repo.get_game(ctx.session, game.id))
                if a.lower() not in seen]
    if watching:
        body = render("reply/started.txt.j2", **common, power=None, observer=True)
        for address in watching:
            ctx.results.mail.append(Outgoing((address,), subject, body, game.id,
                                           attachments=pictures))
