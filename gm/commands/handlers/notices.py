"""Notices to everyone in a game: the players, the GM and (for public news) the observers,
one message per address so that addresses stay private."""

from __future__ import annotations

import re

from gm.commands.handlers.context import Context
from gm.mail.compose import build_subject
from gm.play import everyone
from gm.store.outgoing import Outgoing
from gm.store.rows import GameRecord


def game_addresses(ctx: Context, game: GameRecord, *, observers_too: bool = True) -> list[str]:
    """Every player's address, the GM's and, with `observers_too`, the observers', once each."""
    return everyone.game_addresses(ctx.session, game, observers_too=observers_too)


def tell(ctx: Context, address: str, game: GameRecord, what: str, text: str) -> None:
    """Queue `text` (signed by the service) to one address, under a subject naming the game
    and `what`."""
    ctx.results.mail.append(Outgoing((address,), build_subject(what, game=game.name),
                                   f"{text}\n\n-- \n{ctx.service}\n", game.id))


def tell_game(ctx: Context, game: GameRecord, what: str, body: str, *, phase: str | None = None,
              observers_too: bool = True) -> None:
    """Queue `body` to everyone in `game`, under a subject naming the game and `what`."""
    ctx.results.mail.extend(everyone.notices_to_game(ctx.session, game, what, body, phase=phase,
                                                     observers_too=observers_too))


def what_was_said(line: str, said: list[str]) -> str:
    """A command's line and what the reply said of it, on one line for a notice to others:
    `SET PRESS WHITE  ->  Press in g: ...` (the reply's own quoting of the line left out)."""
    text = " ".join(x.strip() for x in said if x.strip())
    text = re.sub(r"^line \d+: ", "", text)
    if text.startswith(line):
        text = text[len(line):].lstrip(": ")
    return f"{line}  ->  {text}" if text else line
