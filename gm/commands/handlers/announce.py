"""The GM's changes of a running game's settings, told to everyone in the game (njudge
`data/deadlines`: "Any SET command except for SET PASSWORD, SET WAIT and SET NOWAIT will
generate a message that will be sent to all people involved in the game").

A handler that changed a setting calls `announce` before it writes its reply; what the reply
says of it (the lines the command adds) is gathered until the next command starts, and at the
message's end everyone in the game but the sender gets one mail with every change of the
message. Only a game under way is announced (a game forming is told its settings when it
starts); passwords and addresses are never announced (SET TAKEOVER, SET OBSERVERS).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import game_addresses, tell, what_was_said
from gm.commands.values import Command
from gm.store.rows import GameRecord
from gm.store.statuses import GameStatus

_UNDER_WAY = (GameStatus.ACTIVE, GameStatus.PAUSED)


@dataclass
class _Changes:
    game: GameRecord
    entries: list[str] = field(default_factory=list)


class Announcements:
    """The message's changes of games' settings (a gm.commands.handlers.context.Ongoing; it
    ends after the others)."""

    ends_last = True

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.games: dict[int, _Changes] = {}
        # the change being made: its game, its line, where its reply lines begin
        self.pending: tuple[GameRecord, str, int] | None = None

    def note(self, game: GameRecord, line: str) -> None:
        self._finish(len(self.ctx.results.lines))
        self.pending = (game, line, len(self.ctx.results.lines))

    def _finish(self, stop: int) -> None:
        if self.pending is None:
            return
        game, line, start = self.pending
        self.pending = None
        self.games.setdefault(game.id, _Changes(game)).entries.append(
            what_was_said(line, self.ctx.results.lines[start:stop]))

    def command_starts(self, command: Command) -> None:
        self._finish(len(self.ctx.results.lines))

    def message_ends(self) -> None:
        ctx = self.ctx
        self._finish(ctx.commands_done_at)
        sender = ctx.sender.lower()
        for changes in self.games.values():
            game = changes.game
            text = "\n".join([f"The GM of {game.name} changed the game's settings:", "",
                              *(f"  {entry}" for entry in changes.entries)])
            for address in game_addresses(ctx, game):
                if address.lower() != sender:
                    tell(ctx, address, game, "the GM changed the settings", text)
        self.games = {}


def announce(ctx: Context, game: GameRecord, line: str) -> None:
    """Tell everyone in `game` (a game under way) of the change `line` (the command as
    written, passwords masked) makes, with what the reply goes on to say of it."""
    if game.status in _UNDER_WAY:
        ctx.keep(Announcements, Announcements).note(game, line)
