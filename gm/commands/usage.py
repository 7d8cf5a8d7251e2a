"""What a player is told of the SET lines that no one command owns: SET alone, or SET NO
without DRAW, WAIT or ABSENCE (each command's own usage is in its module in
gm.commands.catalog; gm.commands.catalog.usage looks them up)."""

from __future__ import annotations

# How durations are written, as the usage of SET DEADLINE, SET GRACE and SET REMIND shows it.
DURATIONS = "48h, 2d, 90m, 1d12h or 36 hours"

# Keyword -> what a line starting with it needs, for keywords several commands share.
USAGE: dict[str, str] = {
    "SET": (
        "SET needs one of PASSWORD, DRAW, NO DRAW, WAIT, NO WAIT, ADDRESS, ABSENCE, NO ABSENCE,"
        " CONCEDE (players) or DEADLINE, GRACE, TIMEZONE, PRESS, LATE, EARLY, REMIND, OBSERVERS,"
        " OBSERVE, ABSENCE LIMIT, QUIET, NO QUIET, MANUAL PROCESS, PARTIAL, NO PARTIAL, FAKE,"
        " NO FAKE, ALL PRESS, NORMAL PRESS (gamemaster): SET WAIT"
    ),
}

# Second word of a SET line -> what it needs, for words several SET commands share.
SET_USAGE: dict[str, str] = {
    "NO": ("SET NO needs DRAW, CONCEDE, WAIT or ABSENCE: SET NO DRAW, SET NO CONCEDE, SET NO"
           " WAIT or SET NO ABSENCE (the gamemaster's: SET NO QUIET, SET NO MANUAL PROCESS,"
           " SET NO PARTIAL, SET NO FAKE, SET NO PRESS, SET NO ALL PRESS)"),
}
