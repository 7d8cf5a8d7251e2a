"""SET ADDRESS CONFIRM <code>: the move to a new address, confirmed from it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import addresses
from gm.secret import MASK, Secret

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
    done = addresses.confirm(ctx.session, command.code.value, now=ctx.now, actor=ctx.sender,
                             service=ctx.service, inbound_id=ctx.inbound_id)
    if not isinstance(done, addresses.Confirmed):
        ctx.results.add(f"{command.line}: no address change to {ctx.sender} is waiting for "
                        "that code (a code holds for "
                        f"{addresses.CONFIRM_DAYS} days; SET ADDRESS, after "
                        "your SIGNON from the old address, asks again).")
        return
    listed = addresses.seats_line(done.seats, done.mastered) or "nothing yet"
    ctx.results.add(f"Confirmed: what {done.old} had here ({listed}) is "
                    f"{done.new}'s now; your passwords are unchanged.")
    ctx.results.mail.extend(done.mail)


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
