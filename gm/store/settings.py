"""A game's settings (what the GM's SET commands change), stored as one JSON document.

Keys missing from a stored document take their defaults, so a setting can be added without a
schema migration; keys this version does not know are kept in `extra` and written back. The
policy values are the words of the SET PRESS and SET LATE commands (gm.commands.catalog).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import time, timedelta
from typing import Any

from gm.engine.phase import PhaseType
from gm.policies import LatePolicy as LatePolicy
from gm.policies import PressPolicy as PressPolicy

# The key of the settings document's `extra` that lists the game's observers' addresses
# (gm.play.observers).
OBSERVERS_KEY = "observers"

# The key of the settings document's `extra` that holds every phase for the GM's PROCESS (SET
# MANUAL PROCESS): the tick does not adjudicate a phase in which someone has a choice.
MANUAL_KEY = "manual_process"

# Keys of the settings document's `extra` that hold the players' votes, each with the phase it
# was cast in (gm.play.votes): draw votes (SET DRAW [<powers>], SET NO DRAW) by voter; the
# power each conceding power concedes to (SET CONCEDE <power>), by conceding power; and
# whether the game is NoDIAS (SET NODIAS; DIAS, draws including all survivors, by default).
# (Older versions kept votes without their phase under "draw_sets" and "concessions".)
DRAW_VOTES_KEY = "draw_votes"
CONCESSIONS_KEY = "concession_votes"
NODIAS_KEY = "nodias"

# The key of the settings document's `extra` that holds the hash of the password the GM gave
# out for taking over a power nobody plays (SET TAKEOVER; TAKEOVER); absent: no takeovers.
TAKEOVER_KEY = "takeover_password_hash"

# The key of the settings document's `extra` that holds which pictures each reader's reports
# carry (SET PICTURES; gm.play.picture_choice): {"default": mode, "readers": {address: mode}}.
PICTURES_KEY = "pictures"

# A deadline rule: time allowed from the start of the phase, or the next such time of day in
# the game's timezone.
Deadline = timedelta | time


def _deadline_json(rule: Deadline) -> dict[str, Any]:
    if isinstance(rule, timedelta):
        return {"after_seconds": int(rule.total_seconds())}
    return {"at": rule.strftime("%H:%M")}


def _deadline_from(data: dict[str, Any]) -> Deadline:
    if "at" in data:
        return time.fromisoformat(data["at"])
    return timedelta(seconds=int(data["after_seconds"]))


def _default_deadlines() -> dict[PhaseType, Deadline]:
    return {
        PhaseType.MOVEMENT: timedelta(hours=72),
        PhaseType.RETREAT: timedelta(hours=24),
        PhaseType.ADJUSTMENT: timedelta(hours=24),
    }


_KNOWN = ("deadlines", "grace_seconds", "timezone", "press", "late", "late_after", "early",
          "quiet", "revealed")


@dataclass(frozen=True)
class GameSettings:
    deadlines: dict[PhaseType, Deadline] = field(default_factory=_default_deadlines)
    grace: timedelta = timedelta(0)  # extra time for late powers before the late policy acts
    timezone: str = "UTC"  # tz database name, for deadlines given as a time of day and reports
    press: PressPolicy = PressPolicy.ALL
    late: LatePolicy = LatePolicy.HOLD
    late_after: int = 0  # missed deadlines in a row before civil disorder (DISORDER only)
    early: bool = True  # process as soon as every power has ordered and none waits
    quiet: bool = False  # gunboat: players' addresses are kept from one another (SET QUIET)
    revealed: bool = False  # the GM has revealed who played what (REVEAL)
    extra: dict[str, Any] = field(default_factory=dict)  # settings of a newer gm, kept as is

    def to_json(self) -> dict[str, Any]:
        return {
            **self.extra,
            "deadlines": {t.value: _deadline_json(r) for t, r in self.deadlines.items()},
            "grace_seconds": int(self.grace.total_seconds()),
            "timezone": self.timezone,
            "press": self.press.value,
            "late": self.late.value,
            "late_after": self.late_after,
            "early": self.early,
            "quiet": self.quiet,
            "revealed": self.revealed,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> GameSettings:
        default = GameSettings()
        deadlines = dict(default.deadlines)
        for kind, rule in data.get("deadlines", {}).items():
            deadlines[PhaseType(kind)] = _deadline_from(rule)
        return GameSettings(
            deadlines=deadlines,
            grace=timedelta(seconds=int(data.get("grace_seconds", 0))),
            timezone=str(data.get("timezone", default.timezone)),
            press=PressPolicy(data.get("press", default.press.value)),
            late=LatePolicy(data.get("late", default.late.value)),
            late_after=int(data.get("late_after", default.late_after)),
            early=bool(data.get("early", default.early)),
            quiet=bool(data.get("quiet", default.quiet)),
            revealed=bool(data.get("revealed", default.revealed)),
            extra={k: v for k, v in data.items() if k not in _KNOWN},
        )
