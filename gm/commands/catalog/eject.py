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
from gm.play import seats
from gm.play.observers import observers
from gm.play.standing_by import offer_line

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


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
    _word(ctx, game, seats.eject(ctx.session, game, power, power.addresses, now=ctx.now,
                                 actor=ctx.sender, service=ctx.service,
                                 inbound_id=ctx.inbound_id))


def _word(ctx: Context, game: GameRecord, done: seats.Ejected) -> None:
    ctx.results.mail.extend(done.mail)
    if done.keep:
        ctx.results.add(f"{', '.join(done.leaving)} no longer plays {done.power} in "
                        f"{game.name}; {', '.join(done.keep)} still does.")
        return
    ctx.results.add(f"{done.power} in {game.name} has no player now and is in civil disorder "
                    "(REPLACE gives it a new player).")
    ctx.results.add(offer_line(ctx.session, game.id, done.power))


def _eject_address(ctx: Context, command: Eject) -> None:
    """njudge's EJECT <address>: the powers played from it, or an observer."""
    what = f"EJECT {command.power}"
    signed = as_master(ctx, what)
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    done = seats.eject_address(ctx.session, game, command.power, now=ctx.now,
                               actor=ctx.sender, service=ctx.service,
                               inbound_id=ctx.inbound_id)
    if done is seats.EjectRefusal.GM_ADDRESS:
        ctx.results.add(f"{what}: refused, that is the GM's address; a game here keeps its GM "
                        "to its end (njudge's master ejects himself to hand the game over: "
                        "here give the new GM the GM password, which signs on from any "
                        "address, or move your own games with SET ADDRESS).")
        return
    if done is seats.EjectRefusal.NOBODY:
        ctx.results.add(f"{what}: nobody at {command.power} plays a power of {game.name} or "
                        "observes it; EJECT <power> names a power (EJECT France).")
        return
    if done is seats.EjectRefusal.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return
    for ejected in done.ejected:
        _word(ctx, game, ejected)
    if done.observer is not None:
        gone = done.observer.lower()
        if store_observers(ctx, what, [a for a in observers(game) if a.lower() != gone]):
            ctx.results.mail.extend(done.mail)  # told only when it is so


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
