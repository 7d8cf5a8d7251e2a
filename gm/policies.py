"""Game policies that GMs set by command and the store keeps: press and late orders."""

from __future__ import annotations

from enum import StrEnum


class PressPolicy(StrEnum):
    """What press a game allows (SET PRESS)."""

    NONE = "none"  # no press at all
    WHITE = "white"  # signed press only
    GREY = "grey"  # anonymous press only
    ALL = "all"  # signed and anonymous press


class LatePolicy(StrEnum):
    """What happens at the deadline to a power without orders (SET LATE)."""

    HOLD = "hold"  # the phase is processed; the late power's units stand (default orders)
    WAIT = "wait"  # the phase waits until every power has ordered (or the GM processes it)
    DISORDER = "disorder"  # as HOLD, and after N missed deadlines in a row: civil disorder
