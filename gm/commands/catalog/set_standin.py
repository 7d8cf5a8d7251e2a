"""SET STANDIN [<power>] HOLD | DEFEND | REPEAT | BOT | DEFAULT: who gives the orders of a
power that has none at the deadline (gm.play.stand_in). The GM sets the game's stand-in, or one
power's; a player sets their own power's (for the days away, or any deadline missed)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.bot.policies import StandIn
from gm.commands.handlers.common import as_master, as_player, named_power, refresh, variant_of
from gm.commands.handlers.gm_settings import change
from gm.commands.reading import Draft, Invalid, joined
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play.game_settings import SettingsRefusal, change_settings
from gm.play.stand_in import policy_for, with_choice
from gm.store.statuses import GameStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

POLICIES = "HOLD, DEFEND, REPEAT, BOT or DEFAULT"
SAID = {
    StandIn.HOLD: "HOLD (its units hold; no retreat, no build)",
    StandIn.DEFEND: "DEFEND (its units keep its centres: holds and supports)",
    StandIn.REPEAT: "REPEAT (its last movement orders where still legal)",
    StandIn.BOT: "BOT (the bot plays it)",
}


@dataclass(frozen=True)
class SetStandIn(Command):
    """`SET STANDIN DEFEND` (the game's, or a player's own power's), `SET STANDIN France BOT`
    (one power's); `policy` None: DEFAULT (the choice removed)."""

    power: str | None
    policy: StandIn | None


def read_set_standin(c: list[Token]) -> Draft:
    words = [str(t) for t in c]
    last = words[-1].upper()
    if last == "DEFAULT":
        policy = None
    else:
        try:
            policy = StandIn(last)
        except ValueError:
            raise Invalid(f"SET STANDIN needs {POLICIES} at its end, not {words[-1]!r}: "
                          "SET STANDIN DEFEND or SET STANDIN France BOT") from None
    power = joined(c[:-1]) if len(c) > 1 else None
    return Draft(lambda line: SetStandIn(line, power, policy))


def handle(ctx: Context, command: SetStandIn) -> None:
    signed = ctx.signed
    if signed is not None and signed.power is not None and not signed.master:
        _player(ctx, command)
        return
    signed = as_master(ctx, "SET STANDIN")
    if signed is None:
        return
    game = refresh(ctx, signed.game)
    key = ""
    if command.power is not None:
        power = named_power(ctx, game, "SET STANDIN", command.power)
        if power is None:
            return
        key = power.name
    extra = with_choice(game.settings, key, command.policy)
    settings = change(ctx, "SET STANDIN", {"power": key or None,
                                           "standin": _word(command.policy)}, extra=extra)
    if settings is None:
        return
    if key:
        ctx.results.add(f"Stand-in for {key} in {game.name}: "
                        f"{SAID[policy_for(settings, key)]}"
                        + (" (the game's)." if command.policy is None else "."))
    else:
        ctx.results.add(f"Stand-in in {game.name} for a power without orders at the deadline: "
                        f"{SAID[command.policy or StandIn.HOLD]}.")


def _player(ctx: Context, command: SetStandIn) -> None:
    """A player's choice for their own power (not told to the others: a QUIET game's players
    learn nothing of who plays)."""
    signed = as_player(ctx, "SET STANDIN")
    if signed is None or signed.power is None:
        return
    game = refresh(ctx, signed.game)
    if command.power is not None:
        named = variant_of(game).power(command.power)
        if named is None or named.name != signed.power:
            ctx.results.add(f"SET STANDIN {command.power}: refused, you play {signed.power}; "
                            f"write SET STANDIN {_word(command.policy)} for your power.")
            return
    if game.status is GameStatus.FINISHED:
        ctx.results.add(f"SET STANDIN: refused, {game.name} is finished.")
        return
    stored = change_settings(
        ctx.session, game, "SET STANDIN",
        {"power": signed.power, "standin": _word(command.policy)}, now=ctx.now,
        actor=ctx.sender, inbound_id=ctx.inbound_id,
        extra=with_choice(game.settings, f"!{signed.power}", command.policy))
    assert not isinstance(stored, SettingsRefusal)  # a finished game was refused above
    signed.game = stored
    settings = stored.settings
    ctx.results.add(f"Stand-in for {signed.power} in {game.name} when you send no orders "
                    f"(while away, or late): {SAID[policy_for(settings, signed.power)]}"
                    + (" (the GM's choice)." if command.policy is None else "."))


def _word(policy: StandIn | None) -> str:
    return "DEFAULT" if policy is None else policy.value


COMMAND = CommandSpec(
    value=SetStandIn,
    keywords=("SET",),
    rules={"set_standin": read_set_standin},
    handle=handle,
    set_words=("STANDIN",),
    set_usage={
        "STANDIN": (f"SET STANDIN needs {POLICIES}, after a power's name for one power: "
                    "SET STANDIN DEFEND or SET STANDIN France BOT"),
    },
    help=(
        HelpLines("SET", 45, """\
    SET STANDIN HOLD|DEFEND|REPEAT|BOT
                               who orders for your power when you send no orders (while
                               away, or late); SET STANDIN DEFAULT: the GM's choice
"""),
        HelpLines("DEADLINES", 62, """\
    SET STANDIN HOLD|DEFEND|REPEAT|BOT
                                   who orders for a power without orders at the deadline
                                   (late, in civil disorder or away): HOLD its units hold
                                   (the default), DEFEND they keep its centres (holds and
                                   supports), REPEAT its last movement orders where still
                                   legal, BOT the bot plays it; every stand-in but HOLD
                                   retreats and builds where it can; the report says whose
                                   orders a stand-in gave
    SET STANDIN <power> HOLD|DEFEND|REPEAT|BOT|DEFAULT
                                   the same for one power (DEFAULT: the game's)
"""),
    ),
)
