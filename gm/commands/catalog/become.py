"""BECOME <power> (GM): after SIGNON GM, the lines that follow are that power's (njudge's
BECOME): its orders and commands are taken as if its player had sent them, and the player is
told of every one (gm.commands.handlers.standing_in). BECOME GM (or MASTER) goes back to the
GM's own commands.

njudge's BECOME MASTER (njudge `data/master`: the sole player of a forming game becomes its
master) has nothing to do here: CREATE makes its sender the game's GM at once. It is answered
with that: to the GM, that they are the GM already; to a player, who the GM is not shown, with
what gm offers instead."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import did_you_mean, refresh
from gm.commands.handlers.context import Signed
from gm.commands.handlers.standing_in import standing_in
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import powers as powers_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

_MASTER = ("gm", "master")


@dataclass(frozen=True)
class Become(Command):
    """`BECOME <power>` or `BECOME GM`; the power's name as written."""

    power: str


def read_become(c: list[Token]) -> Draft:
    name = joined(c)
    return Draft(lambda line: Become(line, name))


def handle(ctx: Context, command: Become) -> None:
    signed = ctx.signed
    if command.power.lower() == "master" and (signed is None or signed.power is None):
        _master(ctx, command)
        return
    if command.power.lower() == "master" and signed is not None and not signed.master:
        ctx.results.add(f"{command.line}: refused, {signed.game.name} has its GM already: "
                        "here whoever CREATEs a game is its GM from the start (njudge's "
                        "BECOME MASTER is for the player who created the game). To run a game "
                        "of your own, CREATE one; the game's GM can hand you its GM password, "
                        "which signs on from any address (SIGNON GM <game> <password>).")
        return
    if signed is None or (signed.power is not None and not signed.master):
        ctx.results.add(f"{command.line}: refused, only the game's GM may do this (SIGNON GM "
                        "<game> <password> first).")
        return
    game = refresh(ctx, signed.game)
    if command.power.lower() in _MASTER:
        ctx.signed = Signed(game, None)
        ctx.results.add(f"Back to the GM of {game.name}: the lines that follow are yours.")
        return
    powers = powers_repo.list_powers(ctx.session, game.id)
    found = next((p for p in powers if p.name.casefold() == command.power.casefold()), None)
    if found is None:
        ctx.results.add(f"{command.line}: refused, {game.name} has no power called "
                        f"{command.power!r}{did_you_mean(command.power, [p.name for p in powers])}"
                        f" (its powers: {', '.join(p.name for p in powers)}).")
        return
    ctx.signed = Signed(game, found.name, master=True)
    standing_in(ctx)  # what follows for the power is told to its player
    ctx.results.add(f"You stand in for {found.name} in {game.name}: the lines that follow are "
                    f"its orders and commands; its player is told of everything you enter. "
                    "BECOME GM goes back to your own commands.")


def _master(ctx: Context, command: Become) -> None:
    """BECOME MASTER by the GM (after CREATE or SIGNON GM), or by nobody signed on."""
    signed = ctx.signed
    if signed is None:
        ctx.results.add(f"{command.line}: refused, sign on first. Here CREATE makes you the "
                        "game's GM at once (njudge's CREATE ?<game> <password> then BECOME "
                        "MASTER): later, SIGNON GM <game> <password>.")
        return
    ctx.results.add(f"{command.line}: you are the GM of {signed.game.name} already (here "
                    "CREATE makes its sender the GM; nothing more is needed).")


COMMAND = CommandSpec(
    value=Become,
    keywords=("BECOME",),
    rules={"become": read_become},
    handle=handle,
    usage={
        "BECOME": "BECOME needs a power of your game, after SIGNON GM: BECOME France "
                  "(BECOME GM goes back)",
    },
    help=(
        HelpLines("GM", 84, """\
    BECOME <power>                         after SIGNON GM: the lines that follow are that
                                           power's orders and commands (orders also after
                                           the deadline); its player is told of every
                                           one. BECOME GM goes back to your commands:
                                               SIGNON GM mygame secret
                                               BECOME France
                                               A Par-Bur
    BECOME MASTER                          njudge's way to become a game's master: here
                                           the GM is whoever CREATEs the game, so it
                                           only says so (BECOME MASTER after BECOME
                                           <power> goes back, as BECOME GM does)
"""),
    ),
)
