"""HISTORY <game> FILE | HTML | ANIMATION: the whole game as one file, attached to the reply.

FILE is the game's record as a MILA saved game (the JSON the `diplomacy` package and the tools
built on it read; docs/game-record.md), HTML the one-file history (every phase's board with its
orders and results, the supply centres by year, the press), ANIMATION the movement phases as an
animated image. Anyone may ask, as for HISTORY; the press in the file is what the asker may
see: the GM all of it (grey press with its sender), a player what was sent to everyone and
their own private press (grey press unsigned), an observer what was sent to everyone, anyone
else none. Addresses only to the GM, and to the players of a game that is not QUIET.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.records import played_phases, standing
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.observers import observers
from gm.store import powers as powers_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.play.mila import Reader
    from gm.store.rows import GameRecord

_KINDS = {"FILE": "record", "HTML": "html", "ANIMATION": "animation"}
_WHAT = {"record": "the game's record (MILA saved-game JSON)",
         "html": "the game's history in one HTML file (opens in any browser, offline)",
         "animation": "an animation of the game's movement phases"}


@dataclass(frozen=True)
class HistoryFile(Command):
    """`HISTORY mygame FILE` (the record), `HISTORY mygame HTML`, `HISTORY mygame ANIMATION`."""

    game: str
    kind: str  # one of gm.play.game_files.KINDS


def read_history_file(c: list[Any]) -> Draft:
    game = game_name(c[0])
    kind = _KINDS[str(c[1]).upper()]
    return Draft(lambda line: HistoryFile(line, game, kind))


def reader_of(ctx: Context, game: GameRecord) -> Reader:
    """Whose copy the sender gets: the GM's, a player's (the power signed on to, else the
    power their address plays), an observer's, or an outsider's (no press)."""
    from gm.play.mila import Reader

    who = standing(ctx, game)
    if who == "gm":
        return Reader("gm")
    if who == "player":
        signed = ctx.signed
        if signed is not None and signed.game.id == game.id and signed.power is not None:
            return Reader("player", signed.power)
        sender = ctx.sender.lower()
        for power in powers_repo.list_powers(ctx.session, game.id):
            if any(a.lower() == sender for a in power.addresses):
                return Reader("player", power.name)
    if ctx.sender.lower() in {a.lower() for a in observers(game)}:
        return Reader("observer")
    return Reader("outsider")


def handle(ctx: Context, command: HistoryFile) -> None:
    # not at the head: the files load the adjudicator and the pictures
    from gm.play.game_files import game_file
    from gm.play.played_game import played_game

    found = played_phases(ctx, "HISTORY", command.game, "history")
    if found is None:
        return
    game = found[0]
    reader = reader_of(ctx, game)
    attachment = game_file(played_game(ctx.session, game.id, now=ctx.now), reader,
                           command.kind)
    ctx.results.attachments.append(attachment)
    ctx.results.add(f"HISTORY {game.name}: {_WHAT[command.kind]} is attached "
                    f"({attachment.filename}, {max(1, len(attachment.data) // 1024)} kB).")


COMMAND = CommandSpec(
    value=HistoryFile,
    keywords=("HISTORY",),
    rules={"history_file": read_history_file},
    handle=handle,
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 31, """\
    HISTORY <game> FILE        the whole game as one file, attached: its record
                               as a MILA saved game (JSON, which the `diplomacy`
                               package and tools built on it read), with gm's
                               block (outcome, deadlines, who played each power
                               when, missed orders); the end-of-game mail
                               carries it for everyone
    HISTORY <game> HTML        the whole game in one HTML file: every phase's
                               board with its orders and results, the supply
                               centres by year, the press; opens offline in
                               any browser, also on a phone
    HISTORY <game> ANIMATION   the movement phases as an animated image (WebP)
                               The press in each file is what you may see:
                               yours and what was sent to everyone (grey press
                               unsigned); addresses only to the GM, and to the
                               players of a game that is not QUIET.
"""),
    ),
)
