"""START (GM): start the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.engine.state import GameState
    from gm.store.rows import GameRecord
    from gm.variants import Variant


@dataclass(frozen=True)
class Start(Command):
    pass


def read_start_game(c: list[Token]) -> Draft:
    return Draft(Start)


def handle(ctx: Context, command: Start) -> None:
    from gm.commands.handlers.common import (
        as_master,
        deadline_for,
        game_rulebook,
        refresh,
        shown_deadline,
        variant_of,
    )
    from gm.engine.game import start_state
    from gm.engine.rulebook import with_rulebook
    from gm.store import audit
    from gm.store import games as games_repo
    from gm.store import phases as phases_repo
    from gm.store import powers as powers_repo
    from gm.store.statuses import GameStatus

    signed = as_master(ctx, "START")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"START: {game.name} is {game.status.value}, not forming.")
        return
    from gm.commands.handlers.join_prefer import seat_by_preference

    if not seat_by_preference(ctx, game):
        return
    missing = [p.name for p in powers_repo.list_powers(ctx.session, game.id) if not p.addresses]
    if missing:
        ctx.results.add(f"START: these powers have no player yet: {', '.join(missing)}.")
        return
    variant = variant_of(game)
    state = with_rulebook(start_state(variant), game_rulebook(game))
    phase = phases_repo.open_phase(ctx.session, game.id, state, now=ctx.now,
                                   deadline_at=deadline_for(game, state.phase.type, ctx.now))
    signed.game = games_repo.set_game_status(ctx.session, game.id, GameStatus.ACTIVE,
                                             now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="start", now=ctx.now,
                        game_id=game.id, inbound_id=ctx.inbound_id)
    deadline = shown_deadline(game, phase.deadline_at)
    ctx.results.add(f"{game.name} has started: {variant.format_phase(phase.phase)}, "
                    f"deadline {deadline}.")
    _tell_start(ctx, game, variant, state, deadline)


def _tell_start(ctx: Context, game: GameRecord, variant: Variant, state: GameState,
                deadline: str) -> None:
    """The game-start notice: one message to each player (their power, its starting position
    or the builds it opens with (Deluge II, Chaos II: Winter 1900), its one-character code)
    and one to the GM."""
    from gm.commands.handlers.context import Notice
    from gm.engine.game import orders_needed
    from gm.engine.phase import PhaseType
    from gm.mail.compose import build_subject
    from gm.play.observers import observers
    from gm.play.render import render
    from gm.play.reports import board_pictures
    from gm.store import games as games_repo
    from gm.store import powers as powers_repo

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
            ctx.results.mail.append(Notice((address,), subject, body, game.id,
                                           attachments=pictures))
    body = render("reply/started.txt.j2", **common, power=None)
    ctx.results.mail.append(Notice((game.gm_address,), subject, body, game.id,
                                   attachments=pictures))
    seen = {a.lower() for p in powers for a in p.addresses} | {game.gm_address.lower()}
    watching = [a for a in observers(games_repo.get_game(ctx.session, game.id))
                if a.lower() not in seen]
    if watching:
        body = render("reply/started.txt.j2", **common, power=None, observer=True)
        for address in watching:
            ctx.results.mail.append(Notice((address,), subject, body, game.id,
                                           attachments=pictures))


COMMAND = CommandSpec(
    value=Start,
    keywords=("START",),
    rules={"start_game": read_start_game},
    handle=handle,
    usage={
        "START": "START takes nothing after it",
    },
    help=(
        HelpLines("GM", 60, """\
    START                                  start the game
"""),
    ),
)
