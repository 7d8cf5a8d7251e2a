"""ADD <power> <address> [<password>] (GM): seat a player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, named_power, refresh
from gm.commands.reading import Draft, bare_address, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import seats
from gm.secret import Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class Add(Command):
    """`ADD France player@example.org [secret]`: seat a player (without a password the
    service makes one); the player is mailed the password either way."""

    power: str
    address: str
    password: Secret | None = None


def read_add(c: list[Token]) -> Draft:
    at = next(i for i, t in enumerate(c) if t.type == "ADDRESS")
    power, address, rest = c[:at], c[at], c[at + 1 :]
    secret = Secret(str(rest[0])) if rest else None
    return Draft(lambda line: Add(line, joined(power), bare_address(address), secret),
                 tuple(rest))


def handle(ctx: Context, command: Add) -> None:
    signed = as_master(ctx, "ADD")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    power = named_power(ctx, game, "ADD", command.power)
    if power is None:
        return
    done = seats.add_player(ctx.session, game, power.name, command.address,
                            None if command.password is None else command.password.value,
                            now=ctx.now, actor=ctx.sender, service=ctx.service,
                            inbound_id=ctx.inbound_id)
    before = done.before
    ctx.results.add(f"{command.address} plays {power.name} in {game.name}"
                    + (f" (instead of {', '.join(before)}, who was told)" if before else "")
                    + ("; a password was made and mailed to them." if done.made
                       else "; they were mailed the game, the power and the password."))
    ctx.results.mail.extend(done.mail)


COMMAND = CommandSpec(
    value=Add,
    keywords=("ADD",),
    rules={"add": read_add},
    handle=handle,
    usage={
        "ADD": (
            "ADD needs a power and the player's e-mail address, and may add a password: ADD France"
            " player@example.org or ADD France player@example.org secret (or ADD OBSERVER"
            " watcher@example.org)"
        ),
    },
    holds_password=True,
    help=(
        HelpLines("GM", 40, """\
    ADD <power> <address> [password]       seat a player, for example:
                                           ADD France ann@example.org secret
                                           (without a password one is made); the
                                           player is mailed the power and password
"""),
    ),
)
