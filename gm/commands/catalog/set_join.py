"""SET JOIN ONTIME <n>% | SET JOIN ANYONE (GM): the share of phases a player must have ordered
in time over the server's games to JOIN the game (njudge's SET ONTIMERAT; the record is
gm.play.reliability's). A player with no phase to order yet may join."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change_extra, game_name
from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.joining import JOIN_KEY
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

FORMS = "SET JOIN ONTIME 80% (or any share from 1% to 100%) or SET JOIN ANYONE"


@dataclass(frozen=True)
class SetJoin(Command):
    """`SET JOIN ONTIME 80%` (`on_time` 80) or `SET JOIN ANYONE` (None)."""

    on_time: int | None


def read_set_join(c: list[Token]) -> Draft:
    words = [str(t) for t in c]
    if len(words) == 1 and words[0].upper() in ("ANYONE", "ANY", "OFF"):
        return Draft(lambda line: SetJoin(line, None))
    found = re.fullmatch(r"(\d{1,3})%?", words[1]) if len(words) == 2 else None
    if words[0].upper() != "ONTIME" or found is None or not 1 <= int(found.group(1)) <= 100:
        raise Invalid(f"SET JOIN {' '.join(words)!r} is not a minimum to join; give {FORMS}")
    share = int(found.group(1))
    return Draft(lambda line: SetJoin(line, share))


def handle(ctx: Context, command: SetJoin) -> None:
    value = None if command.on_time is None else {"on_time": command.on_time}
    settings = change_extra(ctx, "SET JOIN", JOIN_KEY, value,
                            {"on_time": command.on_time}, told=False)
    if settings is None:
        return
    name = game_name(ctx)
    if command.on_time is None:
        ctx.results.add(f"Anyone may JOIN {name}, whatever their record.")
        return
    ctx.results.add(f"To JOIN {name} a player must have ordered at least {command.on_time}% "
                    "of their phases on this server in time (RECORD shows a player's); a "
                    "player with no phase yet may join.")
    if ctx.signed is not None and ctx.signed.game.status is not GameStatus.FORMING:
        ctx.results.add("(The game has started: it counts for the seats JOIN gives no more; "
                        "REPLACE and TAKEOVER are yours to give.)")


COMMAND = CommandSpec(
    value=SetJoin,
    keywords=("SET",),
    rules={"set_join": read_set_join},
    handle=handle,
    set_usage={"JOIN": f"SET JOIN needs the record a player must have to join: {FORMS}"},
    set_words=("JOIN",),
    help=(
        HelpLines("DEADLINES", 112, """\
    SET JOIN ONTIME <n>%           only players who ordered at least that share of
                                   their phases in time (RECORD), or have no phase
                                   yet, may JOIN: SET JOIN ONTIME 80%
    SET JOIN ANYONE                anyone may JOIN (the default)
"""),
    ),
)
