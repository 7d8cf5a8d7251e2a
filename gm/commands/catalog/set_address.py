"""SET ADDRESS <address>: move to a new address in every game, once confirmed from it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.address import seats_of
from gm.commands.reading import Draft, bare_address
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.mail.compose import build_subject
from gm.play.seats import new_password
from gm.store import address_changes, audit
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.outgoing import Outgoing
from gm.store.powers import address_key

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
    if signed.power is None:  # the GM
        registered: tuple[str, ...] = (games_repo.get_game(ctx.session, signed.game.id)
                                       .gm_address,)
        role = f"the GM of {signed.game.name}"
    else:
        record = powers_repo.get_power(ctx.session, signed.game.id, signed.power)
        registered = record.addresses if record else ()
        role = signed.power
    old = next((a for a in registered if address_key(a) == address_key(ctx.sender)), None)
    if old is None:
        ctx.results.add(f"SET ADDRESS: refused, send it from the address you are {role} with; "
                        f"{ctx.sender} is not registered for it.")
        return
    if address_key(command.address) == address_key(old):
        ctx.results.add(f"SET ADDRESS: {command.address} is the address you play with "
                        "already; nothing to change.")
        return
    code = new_password()
    address_changes.ask(ctx.session, old, command.address, code, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="set address", now=ctx.now,
                        game_id=signed.game.id, details={"new": command.address},
                        inbound_id=ctx.inbound_id)
    seats = seats_of(ctx, old)
    listed = ", ".join(f"{power} in {game}" for game, power, _ in seats)
    ctx.results.add(f"SET ADDRESS: a confirmation code went to {command.address}. Nothing "
                    f"changes until it is sent back from there, within "
                    f"{address_changes.CONFIRM_WITHIN.days} days; then {listed} and anything "
                    f"else of {old} here (games you master, observe or stand by for) move to "
                    f"{command.address}, with the same passwords.")
    body = (f"{old} asked to move to this address for everything it does at this judge: "
            f"{listed}.\n\nTo confirm, send from this address a message with the line\n\n"
            f"    SET ADDRESS CONFIRM {code}\n\nwithin {address_changes.CONFIRM_WITHIN.days} "
            "days. If you did not expect this, ignore it: nothing changes.\n\n"
            f"-- \n{ctx.service}\n")
    ctx.results.mail.append(Outgoing((command.address,), build_subject(
        "confirm your new address"), body, signed.game.id))


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
