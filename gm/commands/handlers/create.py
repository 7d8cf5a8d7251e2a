"""CREATE (a new game), ADD (seat a player) and START (open the first phase)."""

from __future__ import annotations

import difflib

from gm.commands.handlers.common import (
    as_master,
    deadline_for,
    game_rulebook,
    refresh,
    rulebook_refusal,
    shown_deadline,
    variant_label,
    variant_of,
)
from gm.commands.handlers.context import Context, Notice, Signed
from gm.commands.handlers.seats import new_password, seated_notice
from gm.commands.values import Add, Create, Start
from gm.engine.game import orders_needed, start_state
from gm.engine.phase import PhaseType
from gm.engine.rulebook import DEFAULT_RULEBOOK, RULEBOOK_KEY, with_rulebook
from gm.engine.state import GameState
from gm.engine.variant import Variant
from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.play.render import render
from gm.play.reports import board_pictures
from gm.store import audit, join_requests
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.errors import GameNameTaken
from gm.store.passwords import hash_password
from gm.store.rows import GameRecord
from gm.store.settings import GameSettings
from gm.store.statuses import GameStatus
from gm.variants import UnknownVariant, get_variant, names
from gm.variants.registry import canonical_name


def create(ctx: Context, command: Create) -> None:
    if canonical_name(f"{command.variant} {command.password.value}") is not None:
        ctx.results.add(_unknown_variant(command) + ".")  # `CREATE g Deluge II`: no password
        return
    try:
        variant = get_variant(command.variant)
    except UnknownVariant:
        ctx.results.add(_unknown_variant(command) + ".")
        return
    rulebook = command.rulebook or DEFAULT_RULEBOOK
    refusal = rulebook_refusal(variant, rulebook)
    if refusal is not None:
        ctx.results.add(f"CREATE: refused, {refusal}.")
        return
    # The default rulebook is not written down (a game's settings stay what they were).
    settings = None if rulebook == DEFAULT_RULEBOOK else GameSettings(
        extra={RULEBOOK_KEY: rulebook})
    try:
        game = games_repo.create_game(
            ctx.session, name=command.game, variant=variant.name, gm_address=ctx.sender,
            gm_password_hash=hash_password(command.password.value), now=ctx.now,
            settings=settings)
    except GameNameTaken:
        ctx.results.add(f"CREATE: a game called {command.game!r} exists already; "
                        "choose another name.")
        return
    for power in variant.power_names:
        powers_repo.add_power(ctx.session, game.id, power, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="create", now=ctx.now,
                        game_id=game.id, details={"variant": variant.name,
                                                  "rulebook": rulebook},
                        inbound_id=ctx.inbound_id)
    ctx.signed = Signed(game, None)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"Game {game.name} ({variant.title}) created; you are its GM.",
                    f"Rulebook: {rulebook} (SET RULEBOOK 2000|2023 changes it before START; "
                    "HELP RULEBOOK).",
                    f"Powers: {', '.join(variant.power_names)}.",
                    "Players JOIN it, or you ADD them; then START it.")


def _unknown_variant(command: Create) -> str:
    """Why CREATE names no variant: its password is missing (the last word was read as the
    password: `CREATE mygame Deluge II`), or the name is not a variant's (the closest named)."""
    whole = f"{command.variant} {command.password.value}"
    if canonical_name(whole) is not None:  # the variant's name is no secret: shown unmasked
        return (f"line {command.line.number}: CREATE {command.game} {whole}: the password is "
                f"missing; write it after the variant: CREATE {command.game} {whole} secret")
    variants = [get_variant(n) for n in names()]
    spelt = {k.casefold(): v.title for v in variants for k in (v.name, v.title, *v.aliases)}
    close = difflib.get_close_matches(command.variant.casefold(), spelt, n=1, cutoff=0.6)
    hint = f"did you mean {spelt[close[0]]}? " if close else ""
    return (f"{command.line}: there is no variant called {command.variant!r} ({hint}variants: "
            f"{', '.join(variant_label(v) for v in variants)})")


def add(ctx: Context, command: Add) -> None:
    signed = as_master(ctx, "ADD")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    power = variant_of(game).power(command.power)
    if power is None:
        names = ", ".join(variant_of(game).power_names)
        ctx.results.add(f"ADD: {command.power!r} is not a power of {game.name} "
                        f"(powers: {names}).")
        return
    seated = powers_repo.get_power(ctx.session, game.id, power.name)
    before = [] if seated is None else [
        a for a in seated.addresses if a.lower() != command.address.lower()]
    powers_repo.set_players(ctx.session, game.id, power.name, [command.address], now=ctx.now)
    made = None if command.password is not None else new_password()
    secret = command.password.value if command.password is not None else made or ""
    powers_repo.set_power_password(ctx.session, game.id, power.name, hash_password(secret),
                                   now=ctx.now)
    join_requests.drop(ctx.session, game.id, command.address)  # the GM's choice, not theirs
    audit.record_action(ctx.session, actor=ctx.sender, action="add", now=ctx.now,
                        game_id=game.id, details={"power": power.name,
                                                  "address": command.address},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"{command.address} plays {power.name} in {game.name}"
                    + (f" (instead of {', '.join(before)}, who was told)" if before else "")
                    + ("; a password was made and mailed to them." if made is not None
                       else "; they were mailed the game, the power and the password."))
    ctx.results.mail.append(seated_notice(ctx, game, power.name, command.address, secret))
    for address in before:
        ctx.results.mail.append(Notice(
            (address,), build_subject(f"you no longer play {power.name}", game=game.name),
            render("reply/unseated.txt.j2", game=game.name, power=power.name,
                   service=ctx.service), game.id))


def start(ctx: Context, command: Start) -> None:
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

