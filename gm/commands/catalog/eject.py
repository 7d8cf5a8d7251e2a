"""EJECT <power> | <address> (GM): remove a power's player (the power is in civil disorder),
or, by address (njudge's `EJECT email`, njudge `data/index`), the player at that address from
the powers they play, or an observer from the game's observers."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.gm_settings import store_observers
from gm.commands.handlers.seats import seat
from gm.commands.reading import Draft, bare_address, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.mail.compose import build_subject
from gm.play.observers import observers
from gm.play.seats import new_password
from gm.play.standing_by import offer_line
from gm.store import audit
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.passwords import hash_password
from gm.store.statuses import GameStatus, PowerStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord, PowerRecord


@dataclass(frozen=True)
class Eject(Command):
    """`EJECT France`, or `EJECT player@example.org` (`by_address`: `power` is the address)."""

    power: str
    by_address: bool = False


def read_eject(c: list[Token]) -> Draft:
    return Draft(lambda line: Eject(line, joined(c)))


def read_eject_address(c: list[Token]) -> Draft:
    address = bare_address(c[0])
    return Draft(lambda line: Eject(line, address, by_address=True))


def handle(ctx: Context, command: Eject) -> None:
    if command.by_address:
        _eject_address(ctx, command)
        return
    found = seat(ctx, "EJECT", command.power)
    if found is None:
        return
    game, power = found
    _eject(ctx, game, power, power.addresses)


def _eject(ctx: Context, game: GameRecord, power: PowerRecord, leaving: tuple[str, ...]) -> None:
    """Remove the addresses `leaving` from `power`; with none left, it has no player and is in
    civil disorder."""
    old = power.addresses
    keep = [a for a in old if a.lower() not in {x.lower() for x in leaving}]
    powers_repo.set_players(ctx.session, game.id, power.name, keep, now=ctx.now)
    if not keep:
        # nobody knows this password: the ejected player can no longer sign on
        powers_repo.set_power_password(ctx.session, game.id, power.name,
                                       hash_password(new_password()), now=ctx.now)
        powers_repo.set_power_status(ctx.session, game.id, power.name,
                                     PowerStatus.CIVIL_DISORDER, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="eject", now=ctx.now,
                        game_id=game.id, details={"power": power.name, "previous": list(old)},
                        inbound_id=ctx.inbound_id)
    for address in leaving:
        ctx.results.mail.append(Outgoing(
            (address,), build_subject(f"you no longer play {power.name}", game=game.name),
            f"The GM of {game.name} has removed you from {power.name}.\n\n-- \n{ctx.service}\n",
            game.id))
    if keep:
        ctx.results.add(f"{', '.join(leaving)} no longer plays {power.name} in {game.name}; "
                        f"{', '.join(keep)} still does.")
        return
    ctx.results.add(f"{power.name} in {game.name} has no player now and is in civil disorder "
                    "(REPLACE gives it a new player).")
    ctx.results.add(offer_line(ctx.session, game.id, power.name))


def _eject_address(ctx: Context, command: Eject) -> None:
    """njudge's EJECT <address>: the powers played from it, or an observer."""
    what = f"EJECT {command.power}"
    signed = as_master(ctx, what)
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    address = command.power.lower()
    if address == game.gm_address.lower():
        ctx.results.add(f"{what}: refused, that is the GM's address; a game here keeps its GM "
                        "to its end (njudge's master ejects himself to hand the game over: "
                        "here give the new GM the GM password, which signs on from any "
                        "address, or move your own games with SET ADDRESS).")
        return
    powers = [p for p in powers_repo.list_powers(ctx.session, game.id)
              if address in (a.lower() for a in p.addresses)]
    watching = [a for a in observers(game) if a.lower() == address]
    if not powers and not watching:
        ctx.results.add(f"{what}: nobody at {command.power} plays a power of {game.name} or "
                        "observes it; EJECT <power> names a power (EJECT France).")
        return
    if powers and game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return
    for power in powers:
        _eject(ctx, game, power, tuple(a for a in power.addresses if a.lower() == address))
    if watching:
        store_observers(ctx, what, [a for a in observers(game) if a.lower() != address])
        ctx.results.mail.append(Outgoing(
            (watching[0],), build_subject("you no longer observe the game", game=game.name),
            f"The GM of {game.name} has removed you from its observers.\n\n-- \n{ctx.service}\n",
            game.id))


COMMAND = CommandSpec(
    value=Eject,
    keywords=("EJECT",),
    rules={"eject": read_eject, "eject_address": read_eject_address},
    handle=handle,
    usage={
        "EJECT": "EJECT needs a power, or an address: EJECT France or EJECT player@example.org",
    },
    help=(
        HelpLines("GM", 130, """\
    EJECT <power>                          remove a power's player (its password stops
                                           working; the power is in civil disorder):
                                           EJECT France
    EJECT <address>                        njudge's form: the player at that address
                                           (from every power they play in the game), or
                                           an observer: EJECT player@example.org
"""),
    ),
)
