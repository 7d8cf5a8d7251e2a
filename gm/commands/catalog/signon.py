"""SIGNON <power> <game> <password>: sign on to play a power (also the one-letter form
`SIGNON Fmygame secret`, which may name the GM or JOIN a forming game; njudge's observer
sign-on `SIGNON Omygame secret` observes the game, as OBSERVE does)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.catalog.join import Join
from gm.commands.catalog.observe import say
from gm.commands.catalog.signon_master import SignOnMaster
from gm.commands.handlers.common import did_you_mean, no_game, variant_of
from gm.commands.handlers.context import Signed
from gm.commands.handlers.signon import refuse
from gm.commands.handlers.signon_guard import refusal, refused, wrong_password
from gm.commands.handlers.takeovers import takeover_hint
from gm.commands.reading import Draft, Invalid, game_name, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import observing, signon
from gm.secret import Secret
from gm.store import games as games_repo
from gm.store import powers as powers_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


@dataclass(frozen=True)
class SignOn(Command):
    """`SIGNON France mygame secret`, or the one-letter form `SIGNON Fmygame secret`.

    `power` is as written (one or two words, e.g. "St Petersburg"); with `by_code` it is the
    one-character power code (F, or for Chaos II A..Z and 0..9).
    """

    power: str
    game: str
    password: Secret
    by_code: bool = False


def read_signon(c: list[Token]) -> Draft:
    if str(c[0]).startswith("?") and len(str(c[0])) > 1:
        # njudge's `SIGNON ?mygame secret standard`: a forming game, its variant named
        name, secret = game_name(Token("WORD", str(c[0])[1:])), Secret(str(c[1]))
        variant = joined(c[2:])
        return Draft(lambda line: Join(line, name, secret, variant=variant), (c[1],))
    *power, game, password = c
    name, secret = game_name(game), Secret(str(password))
    if [str(w) for w in power] == ["?"]:  # `SIGNON ? mygame secret`: JOIN, spaced
        return Draft(lambda line: Join(line, name, secret), (password,))
    return Draft(lambda line: SignOn(line, joined(power), name, secret), (password,))


def read_signon_by_code(c: list[Token]) -> Draft:
    coded, password = c
    if str(coded) == "?":  # `SIGNON ? secret`: which game?
        raise Invalid(
            "SIGNON ? joins a forming game and needs its name, with or without a space: SIGNON"
            " ?mygame secret, SIGNON ? mygame secret (or JOIN mygame secret; LIST shows the"
            " games that are forming)")
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
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        refuse(ctx, "T" + no_game(ctx, command.game)[1:])
        return
    variant = variant_of(game)
    power = variant.power(command.power)
    if power is None and command.by_code and command.power == "O":
        _observer(ctx, game, command)
        return
    if power is None:
        names = ", ".join(variant.power_names)
        refuse(ctx, f"{command.power!r} is not a power of {game.name}"
                     f"{did_you_mean(command.power, variant.power_names)} (powers: {names}).")
        return
    record = powers_repo.get_power(ctx.session, game.id, power.name)
    why = refusal(ctx, game, power.name, () if record is None else record.addresses)
    if why is not None:
        refused(ctx, why)
        return
    done = signon.sign_on(ctx.session, game, power.name, record, command.password.value,
                          now=ctx.now, actor=ctx.sender, service=ctx.service)
    if done is signon.SignOnRefusal.WRONG_PASSWORD:
        hint = takeover_hint(game, record, command.password.value)
        if hint is not None:  # njudge's SIGNON to a vacant power with the game's password
            refuse(ctx, hint)
            return
        wrong_password(ctx, game, power.name, () if record is None else record.addresses,
                       f"Wrong password for {power.name} in {game.name}.")
        return
    if done is signon.SignOnRefusal.RESIGNED:
        refuse(ctx, f"{power.name} in {game.name} has resigned.")
        return
    ctx.signed = Signed(game, power.name, fresh=True)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"Signed on as {power.name} in {game.name}.")
    if done.back:
        ctx.results.add(f"{power.name} was in civil disorder; it is played again from now on, "
                        "and its orders count.")
        ctx.results.mail.extend(done.mail)
    if done.copies:
        # a sign-on from elsewhere: the power's own address sees what was done in its name
        ctx.results.add(f"(You wrote from an address {power.name} is not registered with; "
                        "its registered address gets a copy of this reply.)")
        ctx.results.copies.extend(a for a in done.copies if a not in ctx.results.copies)


def _observer(ctx: Context, game: GameRecord, command: SignOn) -> None:
    """njudge's `SIGNON O<game> <password>` (njudge `data/index`: OBSERVE): observe the game;
    its lines after it are an observer's (SET PICTURES, LIST, SUMMARY, HISTORY). An address
    that observes it already is signed on as its observer; any other asks to observe it
    (gm.play.observing.observe), as OBSERVE does."""
    ctx.refused_signon = False
    ctx.signed = None  # an observer speaks for no power and is not the GM
    ctx.results.game = game.name
    done = observing.observe(ctx.session, game, None, now=ctx.now, actor=ctx.sender,
                             service=ctx.service, inbound_id=ctx.inbound_id)
    if done is observing.ObserveRefusal.ALREADY:
        ctx.results.add(f"Signed on as an observer of {game.name} (no password is needed "
                        "here: mail from this address observes).")
        return
    ctx.results.add(f"(An observer of {game.name} needs no password here: the one on "
                    "your line is not kept. OBSERVE "
                    f"{game.name} OFF stops observing.)")
    say(ctx, game, command.line, done)


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
    help=(
        HelpLines("SIGNON", 20, """\
    SIGNON <power> <game> <password>      SIGNON France mygame secret
    SIGNON <letter><game> <password>      SIGNON Fmygame secret
    SIGNON ?<game> <password>             join a forming game, as JOIN does
                                          (SIGNON ? mygame secret too)
    SIGNON O<game> <password>             njudge's observer sign-on: observe the game,
                                          as OBSERVE <game> does (no password is kept)

The second form uses the power's one-letter code: A E F G I R T for Austria, England, France,
Germany, Italy, Russia, Turkey (in Chaos II each power has its own code, shown in the
variant's help). A power name of two words is written as it is: SIGNON St Petersburg mygame
secret.

Everything after a SIGNON line is for that power: orders, one per line, and commands, until
the next SIGNON line or the end of the message. A message may hold several SIGNON lines (for
example a gamemaster who also plays a power).

"""),
    ),
)
