"""ADD <power> <address> [<password>] (GM): seat a player."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import as_master, refresh, variant_of
from gm.commands.handlers.seats import new_password, seated_notice, tell_unseated
from gm.commands.reading import Draft, bare_address, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.secret import Secret
from gm.store import audit, join_requests
from gm.store import powers as powers_repo
from gm.store.passwords import hash_password

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
    power = variant_of(game).power(command.power)
    if power is None:
        names = ", ".join(variant_of(game).power_names)
        ctx.results.add(f"ADD: {command.power!r} is not a power of {game.name} "
                        f"(powers: {names}).")
        return
    seated = powers_repo.get_power(ctx.session, game.id, power.name)
    before = [] if seated is None else [
        a for a in seated.addresses if a.lower() != command.address.lower()]
    powers_repo.set_players(ctx.session, game.id, power.name, [command.address], now=ctx.now)
    made = None if command.password is not None else new_password()
    secret = command.password.value if command.password is not None else made or ""
    powers_repo.set_power_password(ctx.session, game.id, power.name, hash_password(secret),
                                   now=ctx.now)
    join_requests.drop(ctx.session, game.id, command.address)  # the GM's choice, not theirs
    audit.record_action(ctx.session, actor=ctx.sender, action="add", now=ctx.now,
                        game_id=game.id, details={"power": power.name,
                                                  "address": command.address,
                                                  "previous": before},
                        inbound_id=ctx.inbound_id)
    ctx.results.add(f"{command.address} plays {power.name} in {game.name}"
                    + (f" (instead of {', '.join(before)}, who was told)" if before else "")
                    + ("; a password was made and mailed to them." if made is not None
                       else "; they were mailed the game, the power and the password."))
    ctx.results.mail.append(seated_notice(ctx, game, power.name, command.address, secret))
    tell_unseated(ctx, game, power.name, list(before))


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
