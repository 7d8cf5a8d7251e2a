"""Lines that are not commands in a message without a SIGNON: the first is explained, the
others are listed, and the reply says how to sign on (naming the sender's own seats, when the
address plays a power in a game that is forming or running)."""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.commands.values import NotACommand
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.statuses import GameStatus

_OPEN = (GameStatus.FORMING, GameStatus.ACTIVE, GameStatus.PAUSED)


def not_a_command(ctx: Context, command: NotACommand, earlier: int) -> None:
    """The reply's line for `command`; `earlier`: how many lines before it were not commands
    either (the explanation is given once)."""
    if earlier:
        ctx.results.add(f'line {command.line.number}: "{command.line.text}" is not a command '
                        "either.")
    else:
        ctx.results.add(str(command))


def signon_hint(ctx: Context) -> None:
    """After lines that were not commands, in a message that signed on nowhere: how to."""
    seats = []
    for power in powers_repo.powers_played_by(ctx.session, ctx.sender):
        game = games_repo.get_game(ctx.session, power.game_id)
        if game.status in _OPEN:
            seats.append((power.name, game.name))
    ctx.results.blank()
    if not seats:
        ctx.results.add("Orders need a SIGNON line first: SIGNON <power> <game> <password>, "
                        "then one order a line.")
        return
    for name, game_name in seats:
        ctx.results.add(f"You play {name} in {game_name}: begin your message with the line "
                        f"SIGNON {name} {game_name} <password>, then one order a line.")
