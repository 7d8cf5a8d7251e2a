"""EJECT <power> (GM): remove a power's player; the power is in civil disorder."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.context import Notice
from gm.commands.handlers.seats import new_password, seat
from gm.commands.handlers.standing_by import offer_line
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.mail.compose import build_subject
from gm.store import audit
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password
from gm.store.statuses import PowerStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Eject(Command):
    power: str


def read_eject(c: list[Token]) -> Draft:
    return Draft(lambda line: Eject(line, joined(c)))


def handle(ctx: Context, command: Eject) -> None:
    found = seat(ctx, "EJECT", command.power)
    if found is None:
        return
    game, power = found
    old = power.addresses
    powers_repo.set_players(ctx.session, game.id, power.name, [], now=ctx.now)
    # nobody knows this password: the ejected player can no longer sign on
    powers_repo.set_power_password(ctx.session, game.id, power.name,
                                   hash_password(new_password()), now=ctx.now)
    powers_repo.set_power_status(ctx.session, game.id, power.name, PowerStatus.CIVIL_DISORDER,
                                 now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="eject", now=ctx.now,
                        game_id=game.id, details={"power": power.name, "previous": list(old)},
                        inbound_id=ctx.inbound_id)
    for address in old:
        ctx.results.mail.append(Notice(
            (address,), build_subject(f"you no longer play {power.name}", game=game.name),
            f"The GM of {game.name} has removed you from {power.name}.\n\n-- \n{ctx.service}\n",
            game.id))
    ctx.results.add(f"{power.name} in {game.name} has no player now and is in civil disorder "
                    "(REPLACE gives it a new player).")
    ctx.results.add(offer_line(ctx.session, game.id, power.name))


COMMAND = CommandSpec(
    value=Eject,
    keywords=("EJECT",),
    rules={"eject": read_eject},
    handle=handle,
    usage={
        "EJECT": "EJECT needs a power: EJECT France",
    },
    help=(
        HelpLines("GM", 130, """\
    EJECT <power>                          remove a power's player (its password stops
                                           working; the power is in civil disorder):
                                           EJECT France
"""),
    ),
)
