"""SIGNON (a power, or the GM) and JOIN."""

from __future__ import annotations

from gm.commands.handlers.common import did_you_mean, no_game, variant_of
from gm.commands.handlers.context import Context, Notice, Signed
from gm.commands.handlers.signon_guard import GM_KEY, record_failure, refusal
from gm.commands.values import Join, SignOn, SignOnMaster
from gm.mail.compose import build_subject
from gm.play.render import render
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password, verify_password
from gm.store.statuses import GameStatus, PowerStatus

REFUSED = "the commands after it in this message are ignored."


def _refuse(ctx: Context, text: str) -> None:
    ctx.signed = None
    ctx.refused_signon = True
    ctx.results.add(f"{text} Signon refused; {REFUSED}")


def signon_power(ctx: Context, command: SignOn) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        _refuse(ctx, "T" + no_game(ctx, command.game)[1:])
        return
    variant = variant_of(game)
    power = variant.power(command.power)
    if power is None:
        names = ", ".join(variant.power_names)
        _refuse(ctx, f"{command.power!r} is not a power of {game.name}"
                     f"{did_you_mean(command.power, variant.power_names)} (powers: {names}).")
        return
    record = powers_repo.get_power(ctx.session, game.id, power.name)
    why = refusal(ctx, game, power.name, () if record is None else record.addresses)
    if why is not None:
        _refuse(ctx, why)
        return
    if record is None or not verify_password(command.password.value, record.password_hash):
        record_failure(ctx, game, power.name, () if record is None else record.addresses)
        _refuse(ctx, f"Wrong password for {power.name} in {game.name}.")
        return
    if record.status is PowerStatus.RESIGNED:
        _refuse(ctx, f"{power.name} in {game.name} has resigned.")
        return
    ctx.signed = Signed(game, power.name, fresh=True)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"Signed on as {power.name} in {game.name}.")
    if record.status is PowerStatus.CIVIL_DISORDER and record.addresses:
        # fell into civil disorder by missing deadlines (SET LATE DISORDER): its player is back
        powers_repo.set_power_status(ctx.session, game.id, power.name, PowerStatus.PLAYING,
                                     now=ctx.now)
        ctx.results.add(f"{power.name} was in civil disorder; it is played again from now on, "
                        "and its orders count.")
        ctx.results.mail.append(Notice(
            (game.gm_address,), build_subject(f"{power.name} is back", game=game.name),
            render("reply/back-from-disorder.txt.j2", game=game.name, power=power.name,
                   service=ctx.service), game.id))
    known = {a.lower() for a in record.addresses}
    if known and ctx.sender.lower() not in known:
        # a sign-on from elsewhere: the power's own address sees what was done in its name
        ctx.results.add(f"(You wrote from an address {power.name} is not registered with; "
                        "its registered address gets a copy of this reply.)")
        ctx.results.copies.extend(a for a in record.addresses if a not in ctx.results.copies)


def signon_master(ctx: Context, command: SignOnMaster) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        _refuse(ctx, "T" + no_game(ctx, command.game)[1:])
        return
    why = refusal(ctx, game, GM_KEY, (game.gm_address,))
    if why is not None:
        _refuse(ctx, why)
        return
    if not verify_password(command.password.value, game.gm_password_hash):
        record_failure(ctx, game, GM_KEY, ())
        _refuse(ctx, f"Wrong GM password for {game.name}.")
        return
    ctx.signed = Signed(game, None)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"Signed on as the GM of {game.name}.")


def join(ctx: Context, command: Join) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        ctx.results.add(f"JOIN: {no_game(ctx, command.game)}")
        return
    if game.status is not GameStatus.FORMING:
        ctx.results.add(f"JOIN: {game.name} has started; ask its GM for a free power.")
        return
    variant = variant_of(game)
    free = [p for p in powers_repo.list_powers(ctx.session, game.id) if not p.addresses]
    if command.power is not None:
        wanted = variant.power(command.power)
        if wanted is None:
            names = ", ".join(variant.power_names)
            ctx.results.add(f"JOIN: {command.power!r} is not a power of {game.name} "
                            f"(powers: {names}).")
            return
        others = ", ".join(p.name for p in free) or "none"
        free = [p for p in free if p.name == wanted.name]
        if not free:
            ctx.results.add(f"JOIN: {wanted.name} in {game.name} is taken (free: {others}).")
            return
    if not free:
        ctx.results.add(f"JOIN: every power in {game.name} is taken.")
        return
    from gm.commands.handlers.join_prefer import open_seats

    if open_seats(ctx, game) <= 0:  # the free powers are promised (JOIN ... PREFER)
        ctx.results.add(f"JOIN: every power in {game.name} is taken or promised to players "
                        "who joined with preferences.")
        return
    chosen = free[0].name
    powers_repo.set_players(ctx.session, game.id, chosen, [ctx.sender], now=ctx.now)
    powers_repo.set_power_password(ctx.session, game.id, chosen,
                                   hash_password(command.password.value), now=ctx.now)
    ctx.results.game = game.name
    ctx.results.add(f"You joined {game.name} as {chosen}. Sign on with: "
                    f"SIGNON {chosen} {game.name} <your password>")
    ctx.results.mail.append(Notice(
        (game.gm_address,), build_subject(f"{chosen} has a player", game=game.name),
        render("reply/joined-gm.txt.j2", game=game.name, power=chosen, address=ctx.sender,
               free=[p.name for p in powers_repo.list_powers(ctx.session, game.id)
                     if not p.addresses], service=ctx.service), game.id))
