"""SET PREFERENCE <list>: njudge's power preferences for a game still forming (njudge
`data/index`: "SET PREFERENCE ATRIFEG", "E[FGR][TAI]", "*"), as gm's JOIN <game> <password>
PREFER <powers> keeps them: at START the players who joined with preferences are seated in
random order, each getting the first of their preferences still free.

It follows the sign-on of a player of the forming game (njudge: "immediately after an initial
SIGNON entering a forming game"), or a SIGNON ?<game> / JOIN on a line before: the power that
JOIN gave is given back, and the player keeps their password. Powers are written by their
letters (a run: FGR) or names (France, Italy); a group in brackets, equal on njudge, is taken
in the order written (gm ranks every preference); `*` asks for any power at random. A power
the GM gave with ADD is the GM's choice and stays.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import variant_of
from gm.commands.reading import Draft, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import preferences as preference_use
from gm.store import games as games_repo
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord
    from gm.variants import Variant

_LETTERS = re.compile(r"[A-Za-z0-9\[\]]+")


@dataclass(frozen=True)
class SetPreference(Command):
    """`SET PREFERENCE E[FGR][TAI]`, `SET PREFERENCE *`, `SET PREFERENCE France, Italy`: the
    list as written (read against the game's powers when it runs)."""

    written: str


def read_set_preference(c: list[Token]) -> Draft:
    written = joined(c)
    return Draft(lambda line: SetPreference(line, written))


def preferences(variant: Variant, written: str) -> list[str] | str:
    """The powers `written` names, most wanted first (none for `*`), or why it cannot be
    read."""
    text = written.strip()
    if text == "*":
        return []
    squeezed = text.replace(" ", "")
    if _LETTERS.fullmatch(squeezed) and squeezed.count("[") == squeezed.count("]"):
        found = [variant.power(ch) for ch in squeezed if ch not in "[]"]
        letters = {p.letter.upper() for p in variant.powers}
        if all(ch.upper() in letters for ch in squeezed if ch not in "[]") and all(found):
            return list(dict.fromkeys(p.name for p in found if p is not None))
    names: list[str] = []
    for part in re.split(r",|\band\b", text):
        words = part.split()
        while words:
            for size in (2, 1):  # two-word names first (St Petersburg)
                power = variant.power(" ".join(words[:size])) if len(words) >= size else None
                if power is not None:
                    names.append(power.name)
                    words = words[size:]
                    break
            else:
                return (f"{words[0]!r} is not a power of the game; write the powers' letters "
                        f"({', '.join(f'{p.letter} {p.name}' for p in variant.powers)}) or "
                        "names, most wanted first: SET PREFERENCE "
                        + "".join(p.letter for p in variant.powers[:3]))
    return list(dict.fromkeys(names))


def _game(ctx: Context) -> GameRecord | None:
    """The forming game the preferences are for: the signed-on one, or the one JOINed on a
    line before (SIGNON ?<game>)."""
    if ctx.signed is not None:
        return games_repo.get_game(ctx.session, ctx.signed.game.id)
    if ctx.results.game is None:
        return None
    return games_repo.find_game(ctx.session, ctx.results.game)


def handle(ctx: Context, command: SetPreference) -> None:
    what = f"SET PREFERENCE {command.written}"
    game = _game(ctx)
    if ctx.signed is not None and ctx.signed.power is None:
        ctx.results.add(f"{what}: refused, preferences are a player's; the GM seats players "
                        "with ADD <power> <address>.")
        return
    if game is None:
        ctx.results.add(f"{what}: refused, it follows your sign-on to a game that is forming "
                        "(SIGNON ?<game> <password>, as on njudge), or write JOIN <game> "
                        "<password> PREFER <powers>.")
        return
    wanted = preferences(variant_of(game), command.written)
    if isinstance(wanted, str) and game.status is GameStatus.FORMING:
        ctx.results.add(f"{what}: {wanted}")
        return
    done = preference_use.prefer(ctx.session, game, [] if isinstance(wanted, str) else wanted,
                                 now=ctx.now, actor=ctx.sender, service=ctx.service)
    match done:
        case preference_use.PreferenceRefusal.STARTED:
            ctx.results.add(f"{what}: refused, {game.name} has started and its powers are "
                            "given; preferences are for a game still forming.")
        case preference_use.GivenByGm(power=power):
            ctx.results.add(f"{what}: refused, the GM gave you {power} (ADD); ask the GM "
                            "to change it.")
        case preference_use.PreferenceRefusal.NOT_JOINED:
            ctx.results.add(f"{what}: refused, you have not joined {game.name}: SIGNON "
                            f"?{game.name} <password> (or JOIN) first, on the line before.")
        case preference_use.PreferenceRefusal.ALL_PROMISED:
            ctx.results.add(f"{what}: every power in {game.name} is taken or promised.")
        case preference_use.Preferred(wanted=kept, gave_back=gave_back, mail=mail):
            if gave_back is not None:
                ctx.signed = None  # the power is no longer theirs
                ctx.results.add(f"You gave back {gave_back} in {game.name}: you get a power at "
                                "START by your preferences instead (same password).")
            shown = ", ".join(kept) if kept else "any power, at random"
            brackets = ("; powers in brackets are taken in the order written (here every "
                        "preference has its rank)" if "[" in command.written else "")
            ctx.results.add(f"Your preferences in {game.name}: {shown}. At START the players "
                            "who gave preferences are taken in random order, each getting "
                            "their first preference still free (else a free power at "
                            f"random){brackets}.")
            ctx.results.mail.extend(mail)


COMMAND = CommandSpec(
    value=SetPreference,
    keywords=("SET",),
    set_words=("PREFERENCE",),
    player_setting=True,
    rules={"set_preference": read_set_preference},
    handle=handle,
    without_signon=True,  # after a SIGNON ?<game>, which is a JOIN, not a sign-on
    set_usage={
        "PREFERENCE": ("SET PREFERENCE needs the powers you want, most wanted first, by letter "
                       "or name: SET PREFERENCE FGR, SET PREFERENCE France, Italy or SET "
                       "PREFERENCE * (any)"),
    },
    help=(
        HelpLines("GAMES", 115, """\
    SET PREFERENCE <powers>            njudge's form, after SIGNON ?<game> <password>
                                       (or your SIGNON to a forming game you joined):
                                       the power JOIN gave is given back, and you get
                                       one when the game starts by these preferences,
                                       as with JOIN ... PREFER; letters or names, most
                                       wanted first, for example:
                                       SET PREFERENCE FGR
                                       SET PREFERENCE E[FGR][TAI]
                                       SET PREFERENCE *
                                       (brackets are taken in the order written; *
                                       asks for any power at random)
"""),
    ),
)
