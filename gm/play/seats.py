"""Seat changes: the GM seats a player (ADD) or gives a power another (REPLACE, REPLACE ...
STANDBY), a player takes over a vacant power (TAKEOVER), and a player leaves (RESIGN,
WITHDRAW) or is removed by the GM (EJECT).

Each use case takes the session, the game, the time and the actor, changes the seat, logs it
in the audit trail (gm.play.seating reads the seats back from it) and gives a typed outcome
with the mail it sends: the new player's password and the game (`seated_notice`), a notice to
each player unseated, and the GM and the other players told of a departure. The words of the
reply are the caller's (gm.commands.catalog.add, replace, resign, eject).
"""

from __future__ import annotations

import dataclasses
import secrets
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from sqlalchemy.orm import Session

from gm.mail.compose import build_subject
from gm.play.absences import absences, with_absences
from gm.play.calendar_event import PhaseDeadline, deadline_event, sequence_of
from gm.play.deadlines import show
from gm.play.everyone import game_addresses
from gm.play.observers import observers
from gm.play.render import render
from gm.play.signon_locks import lift
from gm.play.stand_in import play_bots, with_bot
from gm.store import audit, join_requests
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password
from gm.store.rows import Attachment, GameRecord, PhaseRecord, PowerRecord
from gm.store.statuses import GameStatus, PowerStatus
from gm.variants import get_variant


def new_password() -> str:
    """A fresh random password: ten letters and digits that read unambiguously."""
    alphabet = "abcdefghjkmnpqrstuvwxyz23456789"
    return "".join(secrets.choice(alphabet) for _ in range(10))


@dataclass(frozen=True)
class Seated:
    """`address` now plays `power` (ADD, REPLACE): `made`, the password was made here (not
    the GM's); `before`, the other players it had, each told; `absences`, the absences the
    old player claimed, withdrawn (REPLACE, as SET ABSENCE shows them); `mail`: the new
    player's and the old players' notices."""

    power: str
    address: str
    made: bool
    before: tuple[str, ...]
    absences: tuple[str, ...]
    mail: tuple[Outgoing, ...]


def add_player(session: Session, game: GameRecord, power: str, address: str,
               password: str | None, *, now: datetime, actor: str, service: str,
               inbound_id: int | None = None) -> Seated:
    """ADD: seat the player at `address` on `power` (with `password`, or one made here and
    mailed to them); its other players are told they no longer play it, and the player's
    request to join (JOIN) is dropped: the GM chose."""
    seated = powers_repo.get_power(session, game.id, power)
    before = () if seated is None else tuple(
        a for a in seated.addresses if a.lower() != address.lower())
    powers_repo.set_players(session, game.id, power, [address], now=now)
    secret = password if password is not None else new_password()
    powers_repo.set_power_password(session, game.id, power, hash_password(secret), now=now)
    join_requests.drop(session, game.id, address)
    audit.record_action(session, actor=actor, action="add", now=now, game_id=game.id,
                        details={"power": power, "address": address, "previous": list(before)},
                        inbound_id=inbound_id)
    mail = [seated_notice(session, game, power, address, secret, now=now, service=service),
            *unseated_notices(game, power, before, service=service)]
    return Seated(power, address, password is None, before, (), tuple(mail))


def replace_player(session: Session, game: GameRecord, power: PowerRecord, address: str,
                   password: str | None, *, now: datetime, actor: str, service: str,
                   inbound_id: int | None = None) -> Seated:
    """REPLACE: the player at `address` takes over `power`, which plays again if it was in
    civil disorder or resigned. The old password stops working (the GM's new one, or one made
    here and mailed to the new player alone), the wrong passwords counted for the power are
    forgotten, and a new player's absences are not the old one's."""
    old = power.addresses
    powers_repo.set_players(session, game.id, power.name, [address], now=now)
    secret = password if password is not None else new_password()
    powers_repo.set_power_password(session, game.id, power.name, hash_password(secret),
                                   now=now)
    if power.status is not PowerStatus.PLAYING:
        powers_repo.set_power_status(session, game.id, power.name, PowerStatus.PLAYING,
                                     now=now)
    audit.record_action(session, actor=actor, action="replace", now=now, game_id=game.id,
                        details={"power": power.name, "address": address,
                                 "previous": list(old), "new_password": password is not None},
                        inbound_id=inbound_id)
    lift(session, game.id, power.name, actor=actor, now=now, inbound_id=inbound_id)
    dropped: tuple[str, ...] = ()
    if address.lower() not in {a.lower() for a in old}:
        dropped = _drop_absences(session, game, power.name, now=now)
    before = tuple(a for a in old if a.lower() != address.lower())
    mail = [seated_notice(session, game, power.name, address, secret, now=now, service=service,
                          replaced=True),
            *unseated_notices(game, power.name, before, service=service)]
    return Seated(power.name, address, password is None, before, dropped, tuple(mail))


def _drop_absences(session: Session, game: GameRecord, power: str, *,
                   now: datetime) -> tuple[str, ...]:
    """The absences the old player of `power` claimed go with them (SET ABSENCE): those
    withdrawn, as shown."""
    stored = absences(game.settings)
    theirs = [a for a in stored if a.power == power]
    if not theirs:
        return ()
    extra = with_absences(game.settings, [a for a in stored if a.power != power])
    games_repo.set_game_settings(session, game.id,
                                 dataclasses.replace(game.settings, extra=extra), now=now)
    return tuple(str(a) for a in theirs)


def seated_notice(session: Session, game: GameRecord, power: str, address: str, password: str,
                  *, now: datetime, service: str, replaced: bool = False) -> Outgoing:
    """The mail to a player given `power` (ADD, REPLACE): the game, the power, the password,
    the current phase and deadline (if the game has started) and how to order, with the open
    phase's calendar event."""
    variant = get_variant(game.variant)
    phase = None
    if game.status is not GameStatus.FORMING:
        current = phases_repo.current_phase(session, game.id)
        phase = None if current is None or current.adjudicated else current
    found = variant.power(power)
    deadline = None if phase is None else (
        "none" if phase.deadline_at is None
        else show(phase.deadline_at, game.settings.timezone, seconds=False))
    body = render("reply/seated.txt.j2", game=game.name, title=variant.title, power=power,
                  password=password, replaced=replaced, letter=found.letter if found else "",
                  phase=None if phase is None else variant.format_phase(phase.phase),
                  deadline=deadline, service=service)
    return Outgoing((address,), build_subject(f"you play {power}", game=game.name), body,
                    game.id, attachments=phase_event(game, phase, address, power, now=now))


def phase_event(game: GameRecord, phase: PhaseRecord | None, address: str, power: str, *,
                now: datetime) -> tuple[Attachment, ...]:
    """The open `phase`'s calendar event for a player just given `power` (ADD or REPLACE in a
    game under way), or nothing when it has no deadline."""
    if phase is None or phase.deadline_at is None:
        return ()
    deadline = PhaseDeadline(phase.index, phase.opened_at, get_variant(game.variant)
                             .format_phase(phase.phase), phase.deadline_at,
                             sequence_of(game.settings, phase.index))
    return (deadline_event(game, deadline, address, power, now=now),)


def unseated_notices(game: GameRecord, power: str, addresses: tuple[str, ...] | list[str], *,
                     service: str) -> list[Outgoing]:
    """To each of `addresses`: they no longer play `power` (ADD, ADD BOT, REPLACE)."""
    return [Outgoing((address,), build_subject(f"you no longer play {power}", game=game.name),
                     render("reply/unseated.txt.j2", game=game.name, power=power,
                            service=service), game.id)
            for address in addresses]


@dataclass(frozen=True)
class BotSeated:
    """ADD <power> BOT: the bot plays `power`; `before`, the addresses that played it (each
    told by `mail`); `ordered`, the phase it has given orders for already, if any."""

    game: GameRecord
    power: str
    before: tuple[str, ...]
    ordered: PhaseRecord | None
    mail: list[Outgoing]


def seat_bot(session: Session, game: GameRecord, power: str, *, now: datetime, actor: str,
             service: str, inbound_id: int | None) -> BotSeated:
    """Seat the bot in `power` (gm.play.stand_in): its players leave it (told), its password
    stops working, a power in civil disorder plays again, and in an open phase the bot gives
    its orders at once, as a player would."""
    seated = powers_repo.get_power(session, game.id, power)
    before = () if seated is None else tuple(seated.addresses)
    powers_repo.set_players(session, game.id, power, [], now=now)
    powers_repo.set_power_password(session, game.id, power, None, now=now)
    if seated is not None and seated.status is PowerStatus.CIVIL_DISORDER:
        powers_repo.set_power_status(session, game.id, power, PowerStatus.PLAYING, now=now)
    settings = dataclasses.replace(game.settings, extra=with_bot(game.settings, power, True))
    game = games_repo.set_game_settings(session, game.id, settings, now=now)
    audit.record_action(session, actor=actor, action="add", now=now, game_id=game.id,
                        details={"power": power, "bot": True, "previous": list(before)},
                        inbound_id=inbound_id)
    ordered = None
    if game.status is GameStatus.ACTIVE:
        phase = phases_repo.current_phase(session, game.id)
        if (phase is not None and not phase.adjudicated
                and play_bots(session, game, phase, [power], now=now)):
            ordered = phase
    return BotSeated(game, power, before, ordered,
                     unseated_notices(game, power, before, service=service))


def take_over(session: Session, game: GameRecord, power: PowerRecord, password: str, *,
              now: datetime, actor: str, inbound_id: int | None = None) -> None:
    """TAKEOVER, once the takeover password is right and `power` is vacant: the taker `actor`
    plays it, with their own `password`, and it plays again (no longer in civil disorder)."""
    powers_repo.set_players(session, game.id, power.name, [actor], now=now)
    powers_repo.set_power_password(session, game.id, power.name, hash_password(password),
                                   now=now)
    powers_repo.set_power_status(session, game.id, power.name, PowerStatus.PLAYING, now=now)
    audit.record_action(session, actor=actor, action="takeover", now=now, game_id=game.id,
                        details={"power": power.name, "previous": list(power.addresses)},
                        inbound_id=inbound_id)


class Departure(StrEnum):
    """How a player left (the audit entry's action)."""

    WITHDREW = "withdraw"  # a game not started: the power is free again (JOIN takes it)
    RESIGNED = "resign"  # a game under way: the GM finds a replacement


@dataclass(frozen=True)
class Left:
    """The player of `power` left `game` (`how`); `mail`: the GM and the other players
    told."""

    how: Departure
    power: str
    mail: tuple[Outgoing, ...]


def resign(session: Session, game: GameRecord, power: str, *, now: datetime, actor: str,
           service: str, inbound_id: int | None = None) -> Left:
    """RESIGN (WITHDRAW): the player of `power` leaves for good. In a game not started the seat
    is free again, as on the judges (its players and password go); in a game under way the
    power is resigned (no vote, not waited for) until the GM replaces its player."""
    if game.status is GameStatus.FORMING:
        powers_repo.set_players(session, game.id, power, [], now=now)
        powers_repo.set_power_password(session, game.id, power, None, now=now)
        how, said = Departure.WITHDREW, (
            f"{power} withdrew from {game.name}, which has not started; the power is free "
            "again (JOIN takes it).")
    else:
        powers_repo.set_power_status(session, game.id, power, PowerStatus.RESIGNED, now=now)
        how, said = Departure.RESIGNED, (
            f"{power} has resigned from {game.name}; the GM will find a replacement.")
    audit.record_action(session, actor=actor, action=how.value, now=now, game_id=game.id,
                        details={"power": power}, inbound_id=inbound_id)
    what = f"{power} {'withdrew' if how is Departure.WITHDREW else 'resigned'}"
    return Left(how, power, tuple(_to_others(session, game, power, actor, what, said,
                                             service=service)))


def _to_others(session: Session, game: GameRecord, power: str, actor: str, what: str,
               text: str, *, service: str) -> list[Outgoing]:
    """`text` to the GM and the other players (not the observers): not to `power`'s players
    nor to `actor`."""
    leaving = {a.lower() for p in powers_repo.list_powers(session, game.id)
               if p.name == power for a in p.addresses}
    leaving.add(actor.lower())
    subject = build_subject(what, game=game.name)
    return [Outgoing((address,), subject, f"{text}\n\n-- \n{service}\n", game.id)
            for address in game_addresses(session, game, observers_too=False)
            if address.lower() not in leaving]


@dataclass(frozen=True)
class Ejected:
    """EJECT: `leaving` no longer play `power` (each told: `mail`); `keep`, its players still
    there. With none left the power has no player and is in civil disorder."""

    power: str
    leaving: tuple[str, ...]
    keep: tuple[str, ...]
    mail: tuple[Outgoing, ...]


def eject(session: Session, game: GameRecord, power: PowerRecord, leaving: tuple[str, ...], *,
          now: datetime, actor: str, service: str, inbound_id: int | None = None) -> Ejected:
    """EJECT (the GM `actor`): remove the addresses `leaving` from `power`; with none left, its
    password is one nobody knows (the ejected player can no longer sign on) and it is in civil
    disorder."""
    old = power.addresses
    keep = [a for a in old if a.lower() not in {x.lower() for x in leaving}]
    powers_repo.set_players(session, game.id, power.name, keep, now=now)
    if not keep:
        powers_repo.set_power_password(session, game.id, power.name,
                                       hash_password(new_password()), now=now)
        powers_repo.set_power_status(session, game.id, power.name, PowerStatus.CIVIL_DISORDER,
                                     now=now)
    audit.record_action(session, actor=actor, action="eject", now=now, game_id=game.id,
                        details={"power": power.name, "previous": list(old)},
                        inbound_id=inbound_id)
    mail = tuple(Outgoing(
        (address,), build_subject(f"you no longer play {power.name}", game=game.name),
        f"The GM of {game.name} has removed you from {power.name}.\n\n-- \n{service}\n",
        game.id) for address in leaving)
    return Ejected(power.name, leaving, tuple(keep), mail)


class EjectRefusal(StrEnum):
    """Why njudge's EJECT <address> changed nothing."""

    GM_ADDRESS = "the GM's address"  # a game keeps its GM to its end
    NOBODY = "nobody"  # the address plays no power of the game and does not observe it
    FINISHED = "finished"  # the game is over: its players and observers stay


@dataclass(frozen=True)
class EjectedAddress:
    """njudge's EJECT <address>: `ejected`, each power the address played; `observer`, the
    address as the game's observers list has it, when it observes the game (the list is the
    caller's to change, as SET OBSERVERS does; `mail` tells the observer)."""

    ejected: tuple[Ejected, ...]
    observer: str | None
    mail: tuple[Outgoing, ...]


def eject_address(session: Session, game: GameRecord, address: str, *, now: datetime,
                  actor: str, service: str,
                  inbound_id: int | None = None) -> EjectedAddress | EjectRefusal:
    """njudge's EJECT <address> (njudge `data/index`), by the GM `actor`: the address leaves
    every power it plays in `game` (`eject`), and its observers (the GM's address never)."""
    wanted = address.lower()
    if wanted == game.gm_address.lower():
        return EjectRefusal.GM_ADDRESS
    powers = [p for p in powers_repo.list_powers(session, game.id)
              if wanted in (a.lower() for a in p.addresses)]
    watching = [a for a in observers(game) if a.lower() == wanted]
    if not powers and not watching:
        return EjectRefusal.NOBODY
    if game.status is GameStatus.FINISHED:
        return EjectRefusal.FINISHED  # its players and its observers stay
    ejected = tuple(eject(session, game, power,
                          tuple(a for a in power.addresses if a.lower() == wanted), now=now,
                          actor=actor, service=service, inbound_id=inbound_id)
                    for power in powers)
    if not watching:
        return EjectedAddress(ejected, None, ())
    notice = Outgoing(
        (watching[0],), build_subject("you no longer observe the game", game=game.name),
        f"The GM of {game.name} has removed you from its observers.\n\n-- \n{service}\n",
        game.id)
    return EjectedAddress(ejected, watching[0], (notice,))
