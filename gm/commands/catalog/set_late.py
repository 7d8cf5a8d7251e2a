"""SET LATE HOLD | WAIT | DISORDER [AFTER n] (GM): what happens to late powers. njudge's SET
NMR (SET CD) and SET NONMR (SET NO NMR, SET NO CD) set the same: "Allows/prevents processing of
orders if all powers have not yet submitted complete ones" (njudge `data/index`), that is
HOLD and WAIT."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.gm_settings import change, game_name
from gm.commands.reading import Draft, Invalid
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.policies import LatePolicy

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class SetLate(Command):
    """`SET LATE HOLD`, `SET LATE WAIT`, `SET LATE DISORDER [AFTER n]` (n missed deadlines in
    a row, default 1; `after` is 0 unless the policy is DISORDER)."""

    policy: LatePolicy
    after: int = 0
    nmr: bool = False  # written njudge's way, SET [NO] NMR or SET [NO] CD


def read_set_late_hold(c: list[Token]) -> Draft:
    return Draft(lambda line: SetLate(line, LatePolicy.HOLD))


def read_set_late_wait(c: list[Token]) -> Draft:
    return Draft(lambda line: SetLate(line, LatePolicy.WAIT))


def read_set_late_disorder(c: list[Token]) -> Draft:
    after = int(c[0]) if c else 1
    if after < 1:
        raise Invalid("DISORDER AFTER needs a number of missed deadlines from 1 up")
    return Draft(lambda line: SetLate(line, LatePolicy.DISORDER, after))


def read_set_nmr(c: list[Token]) -> Draft:
    return Draft(lambda line: SetLate(line, LatePolicy.HOLD, nmr=True))


def read_set_nonmr(c: list[Token]) -> Draft:
    return Draft(lambda line: SetLate(line, LatePolicy.WAIT, nmr=True))


def handle(ctx: Context, command: SetLate) -> None:
    after = command.after if command.policy is LatePolicy.DISORDER else 0
    if change(ctx, "SET LATE", {"late": command.policy.value, "after": after},
               late=command.policy, late_after=after) is None:
        return
    text = {
        LatePolicy.HOLD: "HOLD (late powers' units hold)",
        LatePolicy.WAIT: "WAIT (the phase waits for every power's orders)",
        LatePolicy.DISORDER: f"DISORDER (units hold; civil disorder after {after} missed "
                             f"deadline{'s' if after != 1 else ''} in a row)",
    }[command.policy]
    ctx.results.add(f"Late orders in {game_name(ctx)}: {text}.")
    if command.nmr:
        ctx.results.add("(njudge's SET NMR is SET LATE HOLD here, SET NONMR is SET LATE WAIT; "
                        "a new game is HOLD, njudge's NMR.)")


COMMAND = CommandSpec(
    value=SetLate,
    keywords=("SET",),
    set_words=("LATE",),
    rules={
        "set_late_hold": read_set_late_hold,
        "set_late_wait": read_set_late_wait,
        "set_late_disorder": read_set_late_disorder,
        "set_nmr": read_set_nmr,
        "set_nonmr": read_set_nonmr,
    },
    handle=handle,
    set_usage={
        "LATE": (
            "SET LATE needs HOLD, WAIT, or DISORDER with an optional count of missed deadlines: SET"
            " LATE HOLD, SET LATE WAIT or SET LATE DISORDER AFTER 2"
        ),
        "NMR": "SET NMR takes nothing after it (njudge's word for SET LATE HOLD)",
        "NONMR": "SET NONMR takes nothing after it (njudge's word for SET LATE WAIT)",
        "CD": "SET CD takes nothing after it (njudge's SET NMR: SET LATE HOLD)",
        "NOCD": "SET NOCD takes nothing after it (njudge's SET NONMR: SET LATE WAIT)",
    },
    help=(
        HelpLines("DEADLINES", 60, """\
    SET LATE HOLD                  at the deadline late powers' units hold
    SET LATE WAIT                  the game waits until every power has ordered
    SET LATE DISORDER [AFTER n]    as HOLD, and a power that misses n deadlines in a row
                                   (1 if not given) is put in civil disorder
    SET NMR                        njudge's word for SET LATE HOLD (also SET CD)
    SET NONMR                      njudge's word for SET LATE WAIT (also SET NO
                                   NMR, SET NO CD; njudge's games are NONMR unless
                                   set, gm's HOLD)
"""),
    ),
)
