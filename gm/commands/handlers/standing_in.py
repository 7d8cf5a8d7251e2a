"""What the GM enters for a power after BECOME <power> (njudge's BECOME), told to its player:
at the message's end each player the GM stood in for gets one mail with every command entered
for the power (each with what the reply said of it) and, when orders were entered, the power's
orders as they then stand."""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell, what_was_said
from gm.commands.values import Clear, Command, NotACommand, OrderLine
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord

# lines that are not the power's commands: order lines and CLEAR (their orders are told as
# they stand), and the lines that change who the message speaks for
_NOT_TOLD = ("SIGNON", "BECOME", "SIGNOFF")


@dataclass
class _StoodIn:
    game: GameRecord
    power: str
    commands: list[str] = field(default_factory=list)
    orders: str | None = None  # the orders as they stand, worded, once orders were entered


class StandingIn:
    """The message's commands and orders entered by the GM for powers (an Ongoing of
    gm.commands.handlers.context; it ends after the others, once the orders are stored)."""

    ends_last = True

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.powers: dict[tuple[int, str], _StoodIn] = {}
        self.pending: tuple[_StoodIn, str, int] | None = None  # a command, its reply's start

    def _entry(self, game: GameRecord, power: str) -> _StoodIn:
        return self.powers.setdefault((game.id, power), _StoodIn(game, power))

    def _finish(self, stop: int) -> None:
        if self.pending is None:
            return
        entry, line, start = self.pending
        self.pending = None
        entry.commands.append(what_was_said(line, self.ctx.results.lines[start:stop]))

    def command_starts(self, command: Command) -> None:
        ctx = self.ctx
        self._finish(len(ctx.results.lines))
        signed = ctx.signed
        if signed is None or not signed.master or signed.power is None:
            return
        if isinstance(command, OrderLine | Clear | NotACommand) \
                or command.line.text.split(" ", 1)[0].upper() in _NOT_TOLD:
            return
        self.pending = (self._entry(signed.game, signed.power), command.line.text,
                        len(ctx.results.lines))

    def orders(self, game: GameRecord, power: str, text: str) -> None:
        """The power's orders as they now stand, worded for its player."""
        self._entry(game, power).orders = text

    def message_ends(self) -> None:
        ctx = self.ctx
        self._finish(ctx.commands_done_at)
        for entry in self.powers.values():
            if not entry.commands and entry.orders is None:
                continue
            found = powers_repo.get_power(ctx.session, entry.game.id, entry.power)
            parts = [] if entry.orders is None else [entry.orders]
            if entry.commands:
                head = (f"The GM of {entry.game.name} also entered for {entry.power}:"
                        if parts else
                        f"The GM of {entry.game.name}, standing in for {entry.power}, entered:")
                parts.append("\n".join([head, *(f"  {c}" for c in entry.commands)]))
            what = (f"the GM entered orders for {entry.power}" if entry.orders is not None
                    else f"the GM acted for {entry.power}")
            for address in () if found is None else found.addresses:
                tell(ctx, address, entry.game, what, "\n\n".join(parts))
        self.powers = {}


def standing_in(ctx: Context) -> StandingIn:
    """The message's record of what the GM enters for powers (begun at BECOME)."""
    return ctx.keep(StandingIn, StandingIn)
