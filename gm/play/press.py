"""Sending press (PRESS / BROADCAST ... ENDPRESS): a message from a power (or the GM) to other
powers, the GM (M) or the observers (O), as the game's press settings allow.

`send_press` takes what the heading asked (`PressAsked`) and gives `PressSent`, with one
message per recipient address (addresses stay private) and what the reply says of it, or
`PressRefused` with a typed reason. The rules (njudge's, as gm.commands.catalog.press's HELP
says): SET PRESS NONE forbids press between players, WHITE allows only signed press, GREY
only grey; SET NO PARTIAL allows only press to everyone (or the GM); SET FAKE allows fake
press (the recipient list faked, never the sender); press to the GM alone is always allowed,
always signed, also while the game is paused; the GM gets broadcasts and press addressed to
the GM, and the players' partial press only under SET ALL PRESS. The words of the reply are
gm.commands.catalog.press's.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.engine.variant import Variant
from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.play.press_settings import all_press, fake_allowed, partial_allowed
from gm.play.render import render
from gm.policies import PressPolicy
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store.outgoing import Outgoing
from gm.store.press import GM_COPY, OBSERVERS
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus
from gm.variants import get_variant

GM_NAME = "GM"


@dataclass(frozen=True)
class PressAsked:
    """What a press heading asks for: to `recipients` (names or letter runs as written; with
    `but`, all but them), or to everyone (`broadcast`); `grey` or `white` (neither: the game's
    default); faked (`fake`) as sent to `fake_to` (empty: everyone; with `fake_but`, all but
    them); and its text."""

    recipients: tuple[str, ...]
    broadcast: bool
    body: str
    but: bool = False
    grey: bool = False
    white: bool = False
    fake: bool = False
    fake_to: tuple[str, ...] = ()
    fake_but: bool = False


class PressRefusal(StrEnum):
    """Why a press is not sent (`name`: the name that is no power)."""

    FINISHED = "the game is finished"
    NOT_A_POWER = "a recipient is no power"  # name
    NO_ONE = "it names no one but the sender"
    PAUSED = "the game is paused"  # only press to the GM alone goes
    NO_PRESS = "no press"  # SET PRESS NONE
    WHITE_ONLY = "signed press only"  # SET PRESS WHITE, and GREY asked
    GREY_ONLY = "grey press only"  # SET PRESS GREY, and WHITE asked
    NO_PARTIAL = "no partial press"  # SET NO PARTIAL
    NO_FAKE = "no fake press"  # FAKE without SET FAKE
    FAKE_NOT_A_POWER = "a name after FAKE is no power"  # name


@dataclass(frozen=True)
class PressRefused:
    """The press was not sent, for `why`; `press_none`: the game allows no press between
    players (press to the GM alone still goes)."""

    why: PressRefusal
    name: str = ""
    press_none: bool = False


class PressKind(StrEnum):
    PRESS = "Press"
    GREY = "Grey press"
    FAKE = "Fake press"


@dataclass(frozen=True)
class PressSent:
    """The press went: of `kind`, to the `delivered` powers (those with a player), the GM
    (`to_gm`), and `watching` observers; `shown_to`, whom a fake press shows itself as sent
    to; `gm_copy`, the GM got a copy (SET ALL PRESS); `unplayed`, powers named that have no
    player; `gm_only`, to the GM alone; `fake_dropped`, a FAKE not applied (press to the GM
    alone); `signed`, GREY asked of press to the GM alone, sent signed; `mail`: each
    recipient's message."""

    kind: PressKind
    delivered: tuple[str, ...]
    to_gm: bool
    watching: int
    shown_to: str
    gm_copy: bool
    unplayed: tuple[str, ...]
    gm_only: bool
    fake_dropped: bool
    signed: bool
    mail: tuple[Outgoing, ...]


@dataclass(frozen=True)
class Addressees:
    """The addressees of a press list: powers, the GM (M, GM), the observers (O)."""

    powers: list[str]
    gm: bool
    observers: bool


def addressees(variant: Variant, names: tuple[str, ...]) -> Addressees | str:
    """The powers, GM and observers `names` stand for, or the first name that is none: a power's
    name, adjective or letter, GM, or a run of letters (`FRG`: France, Russia, Germany; M the
    GM and O the observers in every variant, as on njudge)."""
    powers: list[str] = []
    gm = watchers = False
    for name in names:
        upper = name.upper()
        if upper == GM_NAME or upper == "M":
            gm = True
            continue
        if upper == "O":
            watchers = True
            continue
        power = variant.power(name)
        if power is not None:
            found = [power]
        else:
            if len(name) < 2:
                return name
            found = []
            for letter in upper:
                if letter == "M":
                    gm = True
                elif letter == "O":
                    watchers = True
                elif (p := variant.power(letter)) is not None and len(p.letter) == 1:
                    found.append(p)
                else:
                    return name
        powers += [p.name for p in found if p.name not in powers]
    return Addressees(powers, gm, watchers)


def _policy_refusal(policy: PressPolicy, grey: bool, white: bool) -> PressRefusal | None:
    """Why the game's press setting forbids this press, or None if it allows it."""
    if policy is PressPolicy.NONE:
        return PressRefusal.NO_PRESS
    if grey and policy is PressPolicy.WHITE:
        return PressRefusal.WHITE_ONLY
    if white and policy is PressPolicy.GREY:
        return PressRefusal.GREY_ONLY
    return None


def _shown_to(variant: Variant, asked: PressAsked) -> str | PressRefused | None:
    """Whom a faked press is shown as sent to (None: not faked), or why its FAKE cannot be."""
    if not asked.fake:
        return None
    if not asked.fake_to:
        return "everyone"
    named = addressees(variant, asked.fake_to)
    if isinstance(named, str):
        return PressRefused(PressRefusal.FAKE_NOT_A_POWER, named)
    shown = (named.powers + (["the GM"] if named.gm else [])
             + (["the observers"] if named.observers else []))
    if not shown:
        return "everyone"
    return ("all but " if asked.fake_but else "") + ", ".join(shown)


def send_press(session: Session, game: GameRecord, sender: str | None, actor: str,
               asked: PressAsked, *, now: datetime, service: str,
               inbound_id: int | None = None) -> PressSent | PressRefused:
    """`sender` (a power, or None: the GM), writing from `actor`, sends the press `asked`
    in `game`: stored, and a message to each recipient."""
    if game.status is GameStatus.FINISHED:
        return PressRefused(PressRefusal.FINISHED)
    variant = get_variant(game.variant)
    named = addressees(variant, asked.recipients)
    if isinstance(named, str):
        return PressRefused(PressRefusal.NOT_A_POWER, named)
    everyone = asked.broadcast
    if everyone:
        to_powers = [p for p in variant.power_names if p != sender]
        to_gm = to_observers = True
    elif asked.but:
        to_powers = [p for p in variant.power_names if p != sender and p not in named.powers]
        to_gm, to_observers = not named.gm, not named.observers
    else:
        to_powers = [p for p in named.powers if p != sender]
        to_gm, to_observers = named.gm, named.observers
    to_gm = to_gm and sender is not None
    gm_only = to_gm and not to_powers and not to_observers and not everyone
    if not to_powers and not to_gm and not to_observers:
        return PressRefused(PressRefusal.NO_ONE)
    settings = game.settings
    fake = asked.fake
    fake_dropped = sender is not None and gm_only and fake
    if fake_dropped:
        fake = False
    signed = sender is not None and gm_only and asked.grey
    if sender is not None and not gm_only:
        if game.status is GameStatus.PAUSED:
            return PressRefused(PressRefusal.PAUSED)
        reason = _policy_refusal(settings.press, asked.grey, asked.white)
        if reason is None and not everyone and not partial_allowed(settings):
            reason = PressRefusal.NO_PARTIAL
        if reason is None and fake and not fake_allowed(settings):
            reason = PressRefusal.NO_FAKE
        if reason is not None:
            return PressRefused(reason, press_none=settings.press is PressPolicy.NONE)
    shown = _shown_to(variant, asked) if fake else None
    if isinstance(shown, PressRefused):
        return shown
    # grey: asked for, or the game's only kind; press to the GM alone is always white (njudge)
    grey = sender is not None and not gm_only and (
        asked.grey or (not asked.white and settings.press is PressPolicy.GREY))
    # the GM reads partial press between players only where SET ALL PRESS says so (njudge)
    gm_copy = sender is not None and not to_gm and all_press(settings)
    phase = phases_repo.current_phase(session, game.id)
    open_phase = None if phase is None or phase.adjudicated else phase
    stored_to = list(to_powers) if not everyone else []
    if not everyone:
        stored_to += ([GM_NAME] if to_gm else []) + ([OBSERVERS] if to_observers else [])
        stored_to += [GM_COPY] if gm_copy else []
    press_repo.record_press(
        session, game.id, from_power=sender, from_address=actor, body=asked.body,
        now=now, to_powers=stored_to, broadcast=everyone, anonymous=(grey or fake),
        phase_id=None if open_phase is None else open_phase.id, inbound_id=inbound_id)
    sender_name = sender or "the GM"
    listed = (["everyone"] if everyone
              else to_powers + (["the GM"] if to_gm else [])
              + (["the observers"] if to_observers else []))
    to_text = ", ".join(listed)
    shown_text = to_text if shown is None else shown
    subject = build_subject("grey press" if grey else f"press from {sender_name}",
                            game=game.name)
    body = render("press/message.txt.j2", grey=grey, sender=sender_name, sender_for_gm=None,
                  game=game.name, to=shown_text, body=asked.body, service=service,
                  truth=None)
    addresses = {p.name: p.addresses for p in powers_repo.list_powers(session, game.id)}
    mail: list[Outgoing] = []
    delivered: list[str] = []
    unplayed: list[str] = []
    for name in to_powers:
        (delivered if addresses.get(name) else unplayed).append(name)
        for address in addresses.get(name, ()):
            mail.append(Outgoing((address,), subject, body, game.id))
    watching = observers(game) if to_observers else []
    for address in watching:
        mail.append(Outgoing((address,), subject, body, game.id))
    if to_gm or gm_copy:  # the GM's copy names the sender of grey press, the truth of fake
        truth = f"Fake press: sent by {sender} to {to_text}." if fake else None
        if gm_copy and truth is None:
            truth = f"Your copy (SET ALL PRESS): sent by {sender} to {to_text}."
        gm_body = body if not (grey or truth) else render(
            "press/message.txt.j2", grey=grey, sender=sender_name,
            sender_for_gm=sender if grey else None, game=game.name, to=shown_text,
            body=asked.body, service=service, truth=truth)
        mail.append(Outgoing((game.gm_address,), subject, gm_body, game.id))
    kind = PressKind.FAKE if fake else PressKind.GREY if grey else PressKind.PRESS
    return PressSent(kind, tuple(delivered), to_gm, len(watching), shown_text, gm_copy,
                     tuple(unplayed), gm_only, fake_dropped, signed, tuple(mail))
