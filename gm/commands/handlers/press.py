"""PRESS TO ... / BROADCAST ... ENDPRESS: press between powers (and the GM), grey or signed.

Which press a game allows is its press setting (SET PRESS): NONE forbids press between
players, WHITE allows only signed press, GREY only grey (anonymous) press, ALL both. The GM's
own press is always allowed. Each recipient gets a separate message (addresses stay private);
the GM gets a copy of every press, naming the sender even of grey press.
"""

from __future__ import annotations

from gm.commands.handlers.common import open_phase_of, refresh, variant_of
from gm.commands.handlers.context import Context, Notice
from gm.commands.values import Press
from gm.mail.compose import build_subject
from gm.play.render import render
from gm.policies import PressPolicy
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store.statuses import GameStatus

GM_NAME = "GM"


def _refusal(policy: PressPolicy, grey: bool) -> str | None:
    """Why the game's press setting forbids this press, or None if it allows it."""
    if policy is PressPolicy.NONE:
        return "this game allows no press (SET PRESS NONE)"
    if grey and policy is PressPolicy.WHITE:
        return "this game allows only signed press (SET PRESS WHITE); send it as PRESS TO"
    if not grey and policy is PressPolicy.GREY:
        return "this game allows only grey press (SET PRESS GREY); send it as GREY PRESS TO"
    return None


def press(ctx: Context, command: Press) -> None:
    what = str(command.line)
    signed = ctx.signed
    if signed is None:
        ctx.results.add(f"{what}: refused, sign on first (SIGNON <power> <game> <password>); "
                        "the press was not sent.")
        return
    game = refresh(ctx, signed.game)
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished; the press was not sent.")
        return
    sender = signed.power  # None: the GM
    if sender is not None:
        reason = _refusal(game.settings.press, command.grey)
        if reason is not None:
            ctx.results.add(f"{what}: refused, {reason}; the press was not sent.")
            return
    variant = variant_of(game)
    to_gm = command.broadcast
    to_powers: list[str] = []
    if command.broadcast:
        to_powers = [p for p in variant.power_names if p != sender]
    else:
        for name in command.recipients:
            if name.upper() == GM_NAME:
                to_gm = True
                continue
            power = variant.power(name)
            if power is None:
                names = ", ".join(variant.power_names)
                ctx.results.add(f"{what}: refused, {name!r} is not a power of {game.name} "
                                f"(powers: {names}, or GM); the press was not sent.")
                return
            if power.name != sender and power.name not in to_powers:
                to_powers.append(power.name)
        if not to_powers and not (to_gm and sender is not None):
            ctx.results.add(f"{what}: refused, it names no one but yourself; the press was "
                            "not sent.")
            return
    phase = open_phase_of(ctx, game)
    # stored as sent: a power's press that names the GM lists it (reports say "to the GM")
    named = to_powers + ([GM_NAME] if to_gm and sender is not None and not command.broadcast
                         else [])
    press_repo.record_press(
        ctx.session, game.id, from_power=sender, from_address=ctx.sender, body=command.body,
        now=ctx.now, to_powers=named, broadcast=command.broadcast,
        anonymous=command.grey and sender is not None,
        phase_id=None if phase is None else phase.id, inbound_id=ctx.inbound_id)
    grey = command.grey and sender is not None
    sender_name = sender or "the GM"
    listed = (["everyone"] if command.broadcast
              else to_powers + (["the GM"] if to_gm else []))
    to_text = ", ".join(listed)
    subject = build_subject("grey press" if grey else f"press from {sender_name}",
                            game=game.name)
    body = render("press/message.txt.j2", grey=grey, sender=sender_name, sender_for_gm=None,
                  game=game.name, to=to_text, body=command.body, service=ctx.service)
    addresses = {p.name: p.addresses for p in powers_repo.list_powers(ctx.session, game.id)}
    delivered: list[str] = []
    unplayed: list[str] = []
    for name in to_powers:
        if addresses.get(name):
            delivered.append(name)
        else:
            unplayed.append(name)
        for address in addresses.get(name, ()):
            ctx.results.mail.append(Notice((address,), subject, body, game.id))
    if sender is not None:  # the GM's copy: every press, with the sender of grey press
        gm_body = body if not grey else render(
            "press/message.txt.j2", grey=True, sender=sender_name, sender_for_gm=sender,
            game=game.name, to=to_text, body=command.body, service=ctx.service)
        ctx.results.mail.append(Notice((game.gm_address,), subject, gm_body, game.id))
    ctx.results.game = game.name
    kind = "Grey press" if grey else "Press"
    went = delivered + (["the GM"] if sender is not None else [])
    line = f"{kind} sent to {', '.join(went) if went else 'no one'}."
    if unplayed:
        line += f" Not delivered to {', '.join(unplayed)} (no player)."
    ctx.results.add(line)
