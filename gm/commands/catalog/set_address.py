"""SET ADDRESS <address>: move to a new address in every game, once confirmed from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import addresses

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetAddress(Command):
    """`SET ADDRESS new@example.org`: move to a new address in every game, once confirmed."""

    address: str


def read_set_address(c: list[Token]) -> Draft:
    address = bare_address(c[0])
    return Draft(lambda line: SetAddress(line, address))


def handle(ctx: Context, command: SetAddress) -> None:
    signed = ctx.signed
    if signed is None:
        ctx.results.add("SET ADDRESS: refused, sign on first (SIGNON <power> <game> <password>,"
                        " or SIGNON GM <game> <password>).")
        return
    done = addresses.ask(ctx.session, signed.game, signed.power, command.address, now=ctx.now,
                         actor=ctx.sender, service=ctx.service, inbound_id=ctx.inbound_id)
    match done:
        case addresses.AddressRefusal.NOT_REGISTERED:
            role = (f"the GM of {signed.game.name}" if signed.power is None
                    else signed.power)
            ctx.results.add(f"SET ADDRESS: refused, send it from the address you are {role} "
                            f"with; {ctx.sender} is not registered for it.")
        case addresses.AddressRefusal.SAME:
            ctx.results.add(f"SET ADDRESS: {command.address} is the address you play with "
                            "already; nothing to change.")
        case addresses.Asked(old=old, seats=seats, mail=mail):
            ctx.results.add(f"SET ADDRESS: a confirmation code went to {command.address}. "
                            f"Nothing changes until it is sent back from there, within "
                            f"{addresses.CONFIRM_DAYS} days; then "
                            f"{addresses.seats_line(seats)} and anything else of {old} here "
                            "(games you master, observe or stand by for) move to "
                            f"{command.address}, with the same passwords.")
            ctx.results.mail.extend(mail)


COMMAND = CommandSpec(
    value=SetAddress,
    keywords=("SET",),
    set_words=("ADDRESS",),
    player_setting=True,
    rules={"set_address": read_set_address},
    handle=handle,
    set_usage={
        "ADDRESS": (
            "SET ADDRESS needs your new e-mail address: SET ADDRESS new@example.org; from the new"
            " address, SET ADDRESS CONFIRM and the code mailed to it"
        ),
    },
    help=(
        HelpLines("SET", 70, """\
    SET ADDRESS <new>          move to a new address in every game you play, master,
                               observe or stand by for, keeping your passwords:
                               SET ADDRESS new@example.org
                               (send it from your old address; a code goes to the
                               new one, and nothing changes until the new address
                               sends it back within 7 days)
                               (njudge's SET ADDRESS moves your reports at once,
                               and alone takes the address your mail came from;
                               here the new address confirms first, so nobody
                               can send your games to an address not theirs)
"""),
    ),
)
