"""SET PASSWORD <new>: change the power's password."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_player
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import passwords
from gm.secret import MASK, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetPassword(Command):
    password: Secret


def read_set_password(c: list[Token]) -> Draft:
    (password,) = c
    secret = Secret(str(password))
    return Draft(lambda line: SetPassword(line, secret), (password,))


def handle(ctx: Context, command: SetPassword) -> None:
    signed = as_player(ctx, "SET PASSWORD")
    if signed is None or signed.power is None:
        return
    done = passwords.set_password(ctx.session, signed.game, signed.power,
                                  command.password.value, now=ctx.now, actor=ctx.sender,
                                  inbound_id=ctx.inbound_id)
    ctx.results.add(f"Password of {done.power} in {done.game} changed.")


def _mask(words: Sequence[str]) -> list[str] | None:
    """`SET PASSWORD x`, also misspelt (`SET PASWORD x`, `SET PW x`): all after it masked."""
    second = words[1].upper() if len(words) > 2 else ""
    if not second.startswith(("PA", "PW")) or second == "PARTIAL":
        return None
    return [*words[:2], MASK]


COMMAND = CommandSpec(
    masks=_mask,
    value=SetPassword,
    keywords=("SET",),
    set_words=("PASSWORD",),
    player_setting=True,
    rules={"set_password": read_set_password},
    handle=handle,
    set_usage={
        "PASSWORD": "SET PASSWORD needs the new password, one word: SET PASSWORD newsecret",
    },
    help=(
        HelpLines("SET", 20, """\
    SET PASSWORD <new>         change your password: SET PASSWORD newsecret
"""),
    ),
)
