"""What SET ABSENCE <from> TO <to>, SET NO ABSENCE (players) and SET ABSENCE LIMIT (the GM)
share: the wording of a number of days and the storing of the absences document.

A power claims days away; the game's deadlines that fall inside any absence move past it (the
rule and the limit of days are in gm.play.absences). When the open phase's deadline moves,
everyone in the game is told the new one.
"""

from __future__ import annotations

import dataclasses

from gm.commands.handlers.context import Context
from gm.store import games as games_repo
from gm.store.rows import GameRecord


def days(count: int) -> str:
    return f"{count} day{'s' if count != 1 else ''}"


def save(ctx: Context, game: GameRecord, extra: dict[str, object]) -> GameRecord:
    return games_repo.set_game_settings(
        ctx.session, game.id, dataclasses.replace(game.settings, extra=extra), now=ctx.now)


