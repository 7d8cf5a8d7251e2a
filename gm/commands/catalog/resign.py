"""RESIGN (WITHDRAW): leave the game for good; in a forming game, give the power back. The GM
and the other players are told."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player
from gm.commands.handlers.notices import game_addresses, tell
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.store import audit
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus, PowerStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Resign(Command):
    pass


def read_resign(c: list[Token]) -> Draft:
    return Draft(Resign)


def handle(ctx: Context, command: Resign) -> None:
    what = command.line.text.split(" ", 1)[0].upper() or "RESIGN"
    signed = as_player(ctx, what)
    if signed is None or signed.power is None:
        return
    if signed.game.status is GameStatus.FORMING:  # the seat is free again, as on the judges
        powers_repo.set_players(ctx.session, signed.game.id, signed.power, [], now=ctx.now)
        powers_repo.set_power_password(ctx.session, signed.game.id, signed.power, None,
                                       now=ctx.now)
        audit.record_action(ctx.session, actor=ctx.sender, action="withdraw", now=ctx.now,
                            game_id=signed.game.id, details={"power": signed.power},
                            inbound_id=ctx.inbound_id)
        ctx.results.add(f"You withdrew from {signed.game.name}, which has not started:"
                        f" {signed.power} is free again (JOIN takes it). The GM and the other "
                        "players are told.")
        _tell_others(ctx, signed.game, signed.power, "withdrew",
                     f"{signed.power} withdrew from {signed.game.name}, which has not started; "
                     "the power is free again (JOIN takes it).")
        ctx.signed = None
        return
    powers_repo.set_power_status(ctx.session, signed.game.id, signed.power,
                                 PowerStatus.RESIGNED, now=ctx.now)
    audit.record_action(ctx.session, actor=ctx.sender, action="resign", now=ctx.now,
                        game_id=signed.game.id, details={"power": signed.power},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"You resigned {signed.power} in {signed.game.name}; the GM will find a "
                    "replacement. The GM and the other players are told.")
    _tell_others(ctx, signed.game, signed.power, "resigned",
                 f"{signed.power} has resigned from {signed.game.name}; the GM will find a "
                 "replacement.")
    ctx.signed = None


def _tell_others(ctx: Context, game: GameRecord, power: str, what: str, text: str) -> None:
    """Tell the GM and the other players (not the observers) that `power` left."""
    leaving = {a.lower() for p in powers_repo.list_powers(ctx.session, game.id)
               if p.name == power for a in p.addresses}
    leaving.add(ctx.sender.lower())
    for address in game_addresses(ctx, game, observers_too=False):
        if address.lower() not in leaving:
            tell(ctx, address, game, f"{power} {what}", text)


COMMAND = CommandSpec(
    value=Resign,
    keywords=("RESIGN", "WITHDRAW"),
    rules={"resign": read_resign},
    handle=handle,
    usage={
        "RESIGN": "RESIGN takes nothing after it",
        "WITHDRAW": "WITHDRAW (RESIGN) takes nothing after it",
    },
    help=(
        HelpLines("SIGNON", 40, """\
    RESIGN       leave the game for good; in a game that has not started, give
                 your power back (JOIN takes it again); the GM and the other
                 players are told
    WITHDRAW     the same (the classic judges' word); STANDBY <game> OFF
                 withdraws an offer to stand by
"""),
    ),
)
