"""UNLOCK <power> | GM | ALL (GM): forget the wrong passwords counted against sign-ons."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh, variant_of
from gm.commands.handlers.signon_guard import unlock as unlock_signons
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.signon_locks import ALL_KEY, GM_KEY

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Unlock(Command):
    """`UNLOCK France` / `UNLOCK GM` / `UNLOCK ALL`: forget the wrong passwords counted
    against sign-ons to a power, the GM, or all of them."""

    power: str


def read_unlock(c: list[Token]) -> Draft:
    return Draft(lambda line: Unlock(line, joined(c)))


def handle(ctx: Context, command: Unlock) -> None:
    """UNLOCK <power> | GM | ALL: forget the wrong passwords counted against sign-ons."""
    signed = as_master(ctx, "UNLOCK")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    word = command.power.upper()
    if word in ("ALL", "*"):
        key, who = ALL_KEY, "every power and the GM"
    elif word == GM_KEY:
        key, who = GM_KEY, "the GM"
    else:
        variant = variant_of(game)
        power = variant.power(command.power)
        if power is None:
            names = ", ".join(variant.power_names)
            ctx.results.add(f"UNLOCK: {command.power!r} is not a power of {game.name} "
                            f"(UNLOCK <power>, UNLOCK GM or UNLOCK ALL; powers: {names}).")
            return
        key = who = power.name
    unlock_signons(ctx, game, key)
    ctx.results.add(f"Sign-ons to {who} in {game.name} are no longer throttled: the wrong "
                    "passwords so far no longer count.")


COMMAND = CommandSpec(
    value=Unlock,
    keywords=("UNLOCK",),
    rules={"unlock": read_unlock},
    handle=handle,
    usage={
        "UNLOCK": "UNLOCK needs a power, GM or ALL: UNLOCK France",
    },
    help=(
        HelpLines("GM", 150, """\
    UNLOCK <power> | GM | ALL              forget the wrong passwords that throttle
                                           sign-ons to a power (or the GM, or all):
                                           UNLOCK France
"""),
    ),
)
