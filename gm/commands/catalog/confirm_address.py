"""SET ADDRESS CONFIRM <code>: the move to a new address, confirmed from it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.address import seats_of
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.mail.compose import build_subject
from gm.secret import MASK, Secret
from gm.store import address_changes, audit
from gm.store import games as games_repo
from gm.store.outgoing import Outgoing
from gm.store.powers import address_key

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class ConfirmAddress(Command):
    """`SET ADDRESS CONFIRM <code>`, sent from the new address."""

    code: Secret


def read_confirm_address(c: list[Token]) -> Draft:
    (code,) = c
    secret = Secret(str(code))
    return Draft(lambda line: ConfirmAddress(line, secret), (code,))


def handle(ctx: Context, command: ConfirmAddress) -> None:
    waiting = address_changes.pending_to(ctx.session, ctx.sender, now=ctx.now)
    change = next((c for c in waiting if c.code == command.code.value), None)
    if change is None:
        ctx.results.add(f"{command.line}: no address change to {ctx.sender} is waiting for "
                        "that code (a code holds for "
                        f"{address_changes.CONFIRM_WITHIN.days} days; SET ADDRESS, after "
                        "your SIGNON from the old address, asks again).")
        return
    seats = seats_of(ctx, change.old_address)
    mastered = [g.name for g in games_repo.list_games(ctx.session)
                if address_key(g.gm_address) == address_key(change.old_address)]
    address_changes.apply(ctx.session, change)
    audit.record_action(ctx.session, actor=ctx.sender, action="address moved", now=ctx.now,
                        details={"old": change.old_address, "new": change.new_address},
                        inbound_id=ctx.inbound_id)
    listed = ", ".join([*(f"{power} in {game}" for game, power, _ in seats),
                        *(f"the GM of {game}" for game in mastered)]) or "nothing yet"
    ctx.results.add(f"Confirmed: what {change.old_address} had here ({listed}) is "
                    f"{change.new_address}'s now; your passwords are unchanged.")
    ctx.results.mail.append(Outgoing(
        (change.old_address,), build_subject("your address has moved"),
        f"As asked, and confirmed from {change.new_address}, everything {change.old_address} "
        f"had at this judge ({listed}) now goes to {change.new_address}.\n\n"
        f"-- \n{ctx.service}\n"))
    for game, power, master in seats:
        if address_key(master) not in (address_key(change.old_address),
                                       address_key(change.new_address)):
            ctx.results.mail.append(Outgoing(
                (master,), build_subject(f"{power} has a new address", game=game),
                f"The player of {power} in {game} moved from {change.old_address} to "
                f"{change.new_address} (SET ADDRESS, confirmed from the new address).\n\n"
                f"-- \n{ctx.service}\n"))


def _mask(words: Sequence[str]) -> list[str] | None:
    """`SET ADDRESS CONFIRM <game> <code>`: the code."""
    if len(words) < 4 or [w.upper() for w in words[1:3]] != ["ADDRESS", "CONFIRM"]:
        return None
    return [*words[:3], MASK]


COMMAND = CommandSpec(
    masks=_mask,
    value=ConfirmAddress,
    keywords=("SET",),
    set_words=("ADDRESS CONFIRM",),
    player_setting=True,
    rules={"confirm_address": read_confirm_address},
    handle=handle,
    without_signon=True,
    help=(
        HelpLines("SET", 80, """\
    SET ADDRESS CONFIRM <code>  from the new address: make the move
"""),
    ),
)
