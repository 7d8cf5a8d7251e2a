"""SET TAKEOVER <password> / SET NO TAKEOVER (GM): let anyone with this password take over a
power in civil disorder or without a player (TAKEOVER), or no longer. Only the password's
hash is kept, in the game's settings document."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh
from gm.commands.handlers.gm_settings import game_name
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import takeovers
from gm.play.game_settings import SettingsRefusal
from gm.secret import MASK, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetTakeover(Command):
    """`SET TAKEOVER <password>`, or `SET NO TAKEOVER` (None)."""

    password: Secret | None


def read_set_takeover(c: list[Token]) -> Draft:
    (password,) = c
    secret = Secret(str(password))
    return Draft(lambda line: SetTakeover(line, secret), (password,))


def read_set_no_takeover(c: list[Token]) -> Draft:
    return Draft(lambda line: SetTakeover(line, None))


def handle(ctx: Context, command: SetTakeover) -> None:
    what = "SET TAKEOVER" if command.password is not None else "SET NO TAKEOVER"
    signed = as_master(ctx, what)
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    password = None if command.password is None else command.password.value
    done = takeovers.allow_takeovers(ctx.session, game, password, now=ctx.now,
                                     actor=ctx.sender, inbound_id=ctx.inbound_id)
    # a password: not announced (njudge announces every SET but PASSWORD and WAIT)
    if done is SettingsRefusal.FINISHED:
        ctx.results.add(f"{what}: refused, {game.name} is finished.")
        return
    signed.game = done
    name = game_name(ctx)
    ctx.results.add(
        f"Takeovers in {name}: ON. Whoever you give the password may take over a power in "
        f"civil disorder or without a player: TAKEOVER <power> {name} <that password> <their "
        "own password>. You are told of each." if command.password is not None else
        f"Takeovers in {name}: OFF.")


def _mask(words: Sequence[str]) -> list[str] | None:
    """`SET TAKEOVER <password>`: every word after TAKEOVER masked."""
    if len(words) < 3 or words[1].upper() != "TAKEOVER":
        return None
    return [*words[:2], *[MASK] * (len(words) - 2)]


COMMAND = CommandSpec(
    masks=_mask,
    value=SetTakeover,
    keywords=("SET",),
    set_words=("TAKEOVER", "NO TAKEOVER",),
    rules={"set_takeover": read_set_takeover, "set_no_takeover": read_set_no_takeover},
    handle=handle,
    set_usage={
        "TAKEOVER": ("SET TAKEOVER needs the password you give to who may take over an abandoned"
                     " power, one word: SET TAKEOVER opensesame (SET NO TAKEOVER: none may)"),
    },
    help=(
        HelpLines("GM", 86, """\
    SET TAKEOVER <password>                let whoever you give this password take over a
                                           power in civil disorder or without a player
                                           (TAKEOVER, HELP GAMES); SET NO TAKEOVER: no more
"""),
    ),
)
