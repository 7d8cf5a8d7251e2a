"""SIGNON <power> <game> <password>: sign on to play a power (also the one-letter form
`SIGNON Fmygame secret`, which may name the GM or JOIN a forming game)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from lark import Token

from gm.commands.reading import Draft, game_name, joined
from gm.commands.spec import CommandSpec
from gm.commands.values import Join, Secret, SignOn, SignOnMaster

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


def read_signon(c: list[Token]) -> Draft:
    *power, game, password = c
    name, secret = game_name(game), Secret(str(password))
    return Draft(lambda line: SignOn(line, joined(power), name, secret), (password,))


def read_signon_by_code(c: list[Token]) -> Draft:
    coded, password = c
    code, name, secret = (
        str(coded)[0],
        game_name(Token("WORD", str(coded)[1:])),
        Secret(str(password)),
    )
    if code in "Mm":  # M is the gamemaster's code (the power codes never use it)
        return Draft(lambda line: SignOnMaster(line, name, secret), (password,))
    if code == "?":  # the classic judges' way to join a forming game: JOIN
        return Draft(lambda line: Join(line, name, secret), (password,))
    return Draft(
        lambda line: SignOn(line, code.upper(), name, secret, by_code=True), (password,)
    )


def handle(ctx: Context, command: SignOn) -> None:
    from gm.commands.handlers.signon import signon_power

    signon_power(ctx, command)


COMMAND = CommandSpec(
    value=SignOn,
    keywords=("SIGNON",),
    rules={"signon": read_signon, "signon_by_code": read_signon_by_code},
    handle=handle,
    usage={
        "SIGNON": (
            "SIGNON needs a power, a game and a password: SIGNON France mygame secret (or, with the"
            " power's one-letter code, SIGNON Fmygame secret; the gamemaster writes SIGNON GM"
            " mygame secret)"
        ),
    },
    without_signon=True,
    holds_password=True,
)
