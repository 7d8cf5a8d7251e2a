"""SET PICTURES INLINE|ALL|NONE (a player or the GM after SIGNON, an observer after OBSERVE
<game>): which pictures the sender's reports of the game carry; SET PICTURES DEFAULT
INLINE|ALL|NONE (GM): the game's default for everyone who has not chosen.

INLINE: the PNGs shown inside the HTML report (the default); ALL: the SVG files attached too,
to zoom; NONE: no picture (MAP still sends them when asked). gm.play.picture_choice keeps the
choices in the game's settings document.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

from lark import Token

from gm.commands.handlers.common import refresh
from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.game_settings import SettingsRefusal, change_settings
from gm.play.observers import observers
from gm.play.picture_choice import with_choice
from gm.store import games as games_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.play.picture_choice import Mode
    from gm.store.rows import GameRecord

WHAT = {
    "inline": "the pictures inside the HTML report (PNG)",
    "all": "the pictures inside the HTML report (PNG) and as SVG files to zoom",
    "none": "no pictures (MAP <game> sends them when you ask)",
}


@dataclass(frozen=True)
class SetPictures(Command):
    """`SET PICTURES NONE` (`mode` "none"; `default` False) or `SET PICTURES DEFAULT ALL`."""

    mode: str
    default: bool = False


def read_set_pictures(c: list[Token]) -> Draft:
    mode = str(c[0]).lower()
    return Draft(lambda line: SetPictures(line, mode))


def read_set_pictures_default(c: list[Token]) -> Draft:
    mode = str(c[0]).lower()
    return Draft(lambda line: SetPictures(line, mode, default=True))


def handle(ctx: Context, command: SetPictures) -> None:
    mode = cast("Mode", command.mode)
    what = f"SET PICTURES {'DEFAULT ' if command.default else ''}{mode.upper()}"
    if command.default:
        game = None if ctx.signed is None else refresh(ctx, ctx.signed.game)
        extra = {} if game is None else with_choice(game, None, mode)
        if change(ctx, what, {"default": mode}, extra=extra) is not None:
            ctx.results.add(f"The reports of {game_name(ctx)} carry {WHAT[mode]} for everyone "
                            "who has not chosen (SET PICTURES INLINE, ALL or NONE).")
        return
    game = _reader_game(ctx, what)
    if game is not None:
        _store(ctx, game, mode, what)


def _reader_game(ctx: Context, what: str) -> GameRecord | None:
    """The game whose reports the sender chooses for: the signed-on one, or the one an
    OBSERVE line before named if the sender observes it; None after saying why not."""
    game: GameRecord | None
    if ctx.signed is not None:
        game = refresh(ctx, ctx.signed.game)
    else:
        game = None if ctx.results.game is None else games_repo.find_game(
            ctx.session, ctx.results.game)
        if game is None or ctx.sender.lower() not in (a.lower() for a in observers(game)):
            ctx.results.add(f"{what}: refused, it is for a game's players and GM after "
                            "SIGNON, and its observers after OBSERVE <game> (on the line "
                            "before): which game's reports do you mean?")
            return None
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return None
    return game


def _store(ctx: Context, game: GameRecord, mode: Mode, what: str) -> None:
    stored = change_settings(ctx.session, game, what, {"address": ctx.sender}, now=ctx.now,
                             actor=ctx.sender, inbound_id=ctx.inbound_id,
                             extra=with_choice(game, ctx.sender, mode))
    assert not isinstance(stored, SettingsRefusal)  # a finished game was refused above
    if ctx.signed is not None:
        ctx.signed.game = stored
    ctx.results.add(f"Your reports of {game.name} (to {ctx.sender}) carry {WHAT[mode]} from "
                    "now on.")


COMMAND = CommandSpec(
    value=SetPictures,
    keywords=("SET",),
    set_words=("PICTURES",),
    player_setting=True,
    rules={"set_pictures": read_set_pictures,
           "set_pictures_default": read_set_pictures_default},
    handle=handle,
    without_signon=True,  # an observer's, after OBSERVE <game>
    set_usage={
        "PICTURES": (
            "SET PICTURES needs INLINE, ALL or NONE (which pictures your reports carry): SET "
            "PICTURES NONE; the GM's SET PICTURES DEFAULT NONE sets the game's default"
        ),
    },
    help=(
        HelpLines("GAMES", 75, """\
    SET PICTURES INLINE        your reports of the game show the pictures inside
                               the HTML report (the default); after SIGNON, or
                               after OBSERVE <game> for an observer
    SET PICTURES ALL           the same, and the pictures as SVG files to zoom
    SET PICTURES NONE          no pictures in your reports (MAP sends them)
                               The reply to your orders draws them on the map
                               by the same choice.
"""),
        HelpLines("DEADLINES", 115, """\
    SET PICTURES DEFAULT INLINE|ALL|NONE
                                   which pictures the reports carry for everyone
                                   who has not chosen (INLINE unless set)
"""),
    ),
)
