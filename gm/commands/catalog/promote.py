"""PROMOTE <address> (GM): njudge's co-master ("promote the observer with the specified email
address to also be a moderator", njudge `data/index`). A game here has one GM address, so
nobody is promoted: the reply says what gm offers instead (the GM password signs on from any
address; SET ADDRESS moves the GM's mail; ADD OBSERVER for the reports)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Promote(Command):
    """`PROMOTE observer@example.org` (`address` as written, "" if none)."""

    address: str


def read_promote(c: list[Token]) -> Draft:
    address = joined(c).removeprefix("<").removesuffix(">")
    return Draft(lambda line: Promote(line, address))


def handle(ctx: Context, command: Promote) -> None:
    signed = as_master(ctx, "PROMOTE")
    if signed is None:
        return
    who = command.address or "someone"
    ctx.results.add(
        f"{command.line}: nothing was done; a game here has one GM, so {who} cannot be made a "
        f"second one (njudge's PROMOTE). What gm offers: whoever has the GM password signs on "
        f"as the GM of {signed.game.name} from any address (SIGNON GM {signed.game.name} "
        "<password>), so a co-GM or stand-in needs only the password; the game's notices go to "
        f"the GM's address ({signed.game.gm_address}), which SET ADDRESS moves; ADD OBSERVER "
        "<address> sends someone the reports.")


COMMAND = CommandSpec(
    value=Promote,
    keywords=("PROMOTE",),
    rules={"promote": read_promote},
    handle=handle,
    help=(
        HelpLines("GM", 135, """\
    PROMOTE <address>                      njudge's co-master: a game here has one GM, so
                                           it is answered with what gm offers: the GM
                                           password signs on from any address, and the
                                           GM's SET ADDRESS moves the GM's mail:
                                           PROMOTE co@example.org
"""),
    ),
)
