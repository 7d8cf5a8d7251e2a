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

from gm.commands.handlers.calendar_notices import phase_event
from gm.commands.handlers.common import no_game, open_phase_of
from gm.commands.handlers.context import Signed
from gm.commands.handlers.notices import tell
from gm.commands.handlers.signon import refuse
from gm.commands.handlers.signon_guard import record_failure, refusal
from gm.commands.handlers.takeovers import vacant
from gm.commands.reading import Draft, game_name, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import seats
from gm.secret import MASK, Secret
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.passwords import verify_password
from gm.store.settings import TAKEOVER_KEY
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

# The key wrong takeover passwords are counted under (gm.commands.handlers.signon_guard).
GUARD_KEY = "TAKEOVER"


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
    stored = game.settings.extra.get(TAKEOVER_KEY)
    if game.status not in (GameStatus.ACTIVE, GameStatus.PAUSED) or not stored:
        refuse(ctx, f"TAKEOVER: {game.name} takes no takeovers "
                    + ("(its GM has not allowed them; ask the GM)." if stored is None
                       else f"(it is {game.status.value})."))
        return
    guarded = refusal(ctx, game, GUARD_KEY, ())
    if guarded is not None:
        refuse(ctx, guarded)
        return
    if not verify_password(command.takeover.value, str(stored)):
        record_failure(ctx, game, GUARD_KEY, ())
        refuse(ctx, f"TAKEOVER: wrong takeover password for {game.name} (the GM gives it "
                    "out).")
        return
    powers = powers_repo.list_powers(ctx.session, game.id)
    found = next((p for p in powers if p.name.casefold() == command.power.casefold()), None)
    free = [p.name for p in powers if vacant(p)]
    if found is None or found.name not in free:
        why = (f"{game.name} has no power called {command.power!r}" if found is None
               else f"{found.name} has a player")
        refuse(ctx, f"TAKEOVER: {why}; powers to take over: {', '.join(free) or 'none'}.")
        return
    seats.take_over(ctx.session, game, found, command.password.value, now=ctx.now,
                    actor=ctx.sender, inbound_id=ctx.inbound_id)
    ctx.signed = Signed(games_repo.get_game(ctx.session, game.id), found.name)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"You took over {found.name} in {game.name}; the lines that follow are "
                    f"its orders. From now on sign on with: SIGNON {found.name} {game.name} "
                    "<your password>.")
    # the open phase's deadline in the new player's calendar, as ADD and REPLACE give it
    ctx.results.attachments.extend(phase_event(ctx, game, open_phase_of(ctx, game), ctx.sender,
                                               found.name))
    tell(ctx, game.gm_address, game, f"{found.name} was taken over",
         f"{ctx.sender} took over {found.name} in {game.name} with the takeover password "
         "(SET NO TAKEOVER stops further takeovers; REPLACE gives a power another player).")


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
