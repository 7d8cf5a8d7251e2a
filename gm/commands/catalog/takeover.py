"""TAKEOVER <power> <game> <takeover password> <your password>: take over a power in civil
disorder or without a player, in a game whose GM allows it (SET TAKEOVER) and gave out the
takeover password (DPjudge's TAKEOVER; njudge's SIGNON to a vacant power). The power gets
the taker's own password; the GM is told; the reply carries the open phase's deadline as a
calendar event (deadline.ics, as the mail of ADD and REPLACE). Wrong takeover passwords
count as wrong sign-ons (gm.commands.handlers.signon_guard)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game
from gm.commands.handlers.context import Signed
from gm.commands.handlers.signon import refuse
from gm.commands.handlers.signon_guard import throttle_words
from gm.commands.reading import Draft, game_name, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import takeovers
from gm.secret import MASK, Secret
from gm.store import games as games_repo

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

@dataclass(frozen=True)
class Takeover(Command):
    """`TAKEOVER France mygame opensesame mysecret`: the power as written."""

    power: str
    game: str
    takeover: Secret
    password: Secret


def read_takeover(c: list[Token]) -> Draft:
    *power, game, takeover, password = c
    name, key, secret = game_name(game), Secret(str(takeover)), Secret(str(password))
    return Draft(lambda line: Takeover(line, joined(power), name, key, secret),
                 (takeover, password))


def handle(ctx: Context, command: Takeover) -> None:
    game = games_repo.find_game(ctx.session, command.game)
    if game is None:
        refuse(ctx, f"TAKEOVER: {no_game(ctx, command.game)}")
        return
    done = takeovers.take_over(ctx.session, game, command.power, command.takeover.value,
                               command.password.value, now=ctx.now, actor=ctx.sender,
                               service=ctx.service, inbound_id=ctx.inbound_id)
    match done:
        case takeovers.Closed(allowed=allowed, status=status):
            refuse(ctx, f"TAKEOVER: {game.name} takes no takeovers "
                        + ("(its GM has not allowed them; ask the GM)." if not allowed
                           else f"(it is {status.value})."))
        case takeovers.Throttled(why=throttled):
            refuse(ctx, throttle_words(ctx, game, takeovers.GUARD_KEY, throttled))
        case takeovers.WrongPassword(mail=mail):
            ctx.results.mail.extend(mail)
            refuse(ctx, f"TAKEOVER: wrong takeover password for {game.name} (the GM gives it "
                        "out).")
        case takeovers.NotVacant(power=power, free=free):
            why = (f"{game.name} has no power called {command.power!r}" if power is None
                   else f"{power} has a player")
            refuse(ctx, f"TAKEOVER: {why}; powers to take over: {', '.join(free) or 'none'}.")
        case takeovers.TookOver(power=power, game=after, attachments=attachments, mail=mail):
            ctx.signed = Signed(after, power)
            ctx.refused_signon = False
            ctx.results.game = game.name
            ctx.results.add(f"You took over {power} in {game.name}; the lines that follow "
                            f"are its orders. From now on sign on with: SIGNON {power} "
                            f"{game.name} <your password>.")
            # the open phase's deadline in the new player's calendar, as ADD and REPLACE give it
            ctx.results.attachments.extend(attachments)
            ctx.results.mail.extend(mail)


def _mask(words: Sequence[str]) -> list[str] | None:
    """`TAKEOVER <power> <game> <takeover password> <your password>`: the two passwords."""
    if len(words) < 4:
        return None
    return [*words[:3], *[MASK] * (len(words) - 3)]


COMMAND = CommandSpec(
    masks=_mask,
    value=Takeover,
    keywords=("TAKEOVER",),
    rules={"takeover": read_takeover},
    handle=handle,
    usage={
        "TAKEOVER": ("TAKEOVER needs the power, the game, the takeover password the GM gave you"
                     " and your own password: TAKEOVER France mygame <takeover password>"
                     " <your password>"),
    },
    without_signon=True,
    holds_password=True,
    help=(
        HelpLines("GAMES", 105, """\
    TAKEOVER <power> <game> <takeover password> <your password>
                                       take over a power in civil disorder or
                                       without a player, when its GM allows it and
                                       gave you the takeover password; orders may
                                       follow: TAKEOVER France mygame opensesame mine
                                       (njudge takes over an abandoned power by a
                                       sign-on to it; here that sign-on is answered
                                       with the TAKEOVER line to send, so that only
                                       whom the GM gave the password can take one);
                                       the reply carries the open phase's deadline
                                       as a calendar event (deadline.ics)
"""),
    ),
)
