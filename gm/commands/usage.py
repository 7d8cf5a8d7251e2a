"""The expected form of each command, as told to a player whose line could not be read."""

from __future__ import annotations

# Keyword (first word of the line, upper case) -> what the command needs, with an example.
USAGE: dict[str, str] = {
    "SIGNON": (
        "SIGNON needs a power, a game and a password: SIGNON France mygame secret"
        " (or, with the power's one-letter code, SIGNON Fmygame secret;"
        " the gamemaster writes SIGNON GM mygame secret)"
    ),
    "JOIN": (
        "JOIN needs a game and a password, and may name the power you want first:"
        " JOIN mygame secret or JOIN France mygame secret; or give your preferences after"
        " PREFER: JOIN mygame secret PREFER France, Italy, Turkey"
    ),
    "SIGNOFF": "SIGNOFF takes nothing after it",
    "PRESS": (
        "PRESS needs its recipients, separated by commas: PRESS TO France, Germany"
        " (GREY PRESS TO France for grey press); the text follows on the next lines,"
        " then a line ENDPRESS"
    ),
    "BROADCAST": (
        "BROADCAST takes nothing after it (GREY BROADCAST for grey press); the text follows"
        " on the next lines, then a line ENDPRESS"
    ),
    "GREY": "GREY goes before PRESS or BROADCAST: GREY PRESS TO France or GREY BROADCAST",
    "ENDPRESS": (
        "ENDPRESS ends a press message, and there is no PRESS TO or BROADCAST line open before it"
    ),
    "SET": (
        "SET needs one of PASSWORD, DRAW, NO DRAW, WAIT, NO WAIT, ADDRESS, ABSENCE, NO ABSENCE"
        " (players) or DEADLINE, GRACE, TIMEZONE, PRESS, LATE, EARLY, REMIND, OBSERVERS,"
        " OBSERVE, ABSENCE LIMIT (gamemaster): SET WAIT"
    ),
    "LIST": "LIST takes at most a game name: LIST or LIST mygame",
    "HISTORY": (
        "HISTORY needs a game and may name a phase: HISTORY mygame, HISTORY mygame S1901M"
        " or HISTORY mygame Spring 1901, Movement"
    ),
    "SUMMARY": "SUMMARY needs a game: SUMMARY mygame",
    "HELP": "HELP may name a topic: HELP or HELP ORDERS",
    "RESIGN": "RESIGN takes nothing after it",
    "CLEAR": "CLEAR takes nothing after it",
    "CREATE": (
        "CREATE needs a game name, a variant and a password: CREATE mygame Standard secret"
        " or CREATE mygame Deluge II secret"
    ),
    "ADD": (
        "ADD needs a power and the player's e-mail address, and may add a password:"
        " ADD France player@example.org or ADD France player@example.org secret"
        " (or ADD OBSERVER watcher@example.org)"
    ),
    "START": "START takes nothing after it",
    "PAUSE": "PAUSE takes nothing after it",
    "RESUME": "RESUME takes nothing after it",
    "PROCESS": "PROCESS takes nothing after it",
    "PREVIEW": "PREVIEW takes nothing after it",
    "TERMINATE": "TERMINATE takes nothing after it",
    "REPLACE": (
        "REPLACE needs a power and the new player's e-mail address, and may add a password:"
        " REPLACE France player@example.org or REPLACE France player@example.org secret"
        " (REPLACE France STANDBY gives the power to the first player standing by)"
    ),
    "EJECT": "EJECT needs a power: EJECT France",
    "ROLLBACK": "ROLLBACK needs a phase: ROLLBACK S1901M or ROLLBACK Spring 1901, Movement",
    "UNLOCK": "UNLOCK needs a power, GM or ALL: UNLOCK France",
    "OBSERVE": "OBSERVE needs a game, and OFF to stop: OBSERVE mygame or OBSERVE mygame OFF",
    "MAP": (
        "MAP needs a game and may name a phase: MAP mygame, MAP mygame S1901M"
        " or MAP mygame Fall 1901, Retreats"
    ),
    "AHEAD": (
        "AHEAD needs the kind of phase (MOVEMENT, RETREAT or ADJUSTMENT) and an order, or CLEAR:"
        " AHEAD RETREAT A Bur-Par, AHEAD ADJUSTMENT Build A Par or AHEAD CLEAR"
    ),
    "STANDBY": (
        "STANDBY may name a game, and OFF withdraws: STANDBY mygame, STANDBY (any game),"
        " STANDBY mygame OFF or STANDBY OFF"
    ),
}
USAGE["GRAY"] = USAGE["GREY"]

DURATIONS = "48h, 2d, 90m, 1d12h or 36 hours"

# Second word of a SET line -> what that setting needs.
SET_USAGE: dict[str, str] = {
    "PASSWORD": "SET PASSWORD needs the new password, one word: SET PASSWORD newsecret",
    "DRAW": "SET DRAW takes nothing after it (SET NO DRAW takes your vote back)",
    "NODRAW": "SET NO DRAW takes nothing after it",
    "WAIT": "SET WAIT takes nothing after it (SET NO WAIT undoes it)",
    "NOWAIT": "SET NO WAIT takes nothing after it",
    "NOABSENCE": "SET NO ABSENCE takes nothing after it",
    "NO": "SET NO needs DRAW, WAIT or ABSENCE: SET NO DRAW, SET NO WAIT or SET NO ABSENCE",
    "DEADLINE": (
        "SET DEADLINE needs a time, after the phase type if it is for one type only:"
        f" SET DEADLINE 48h, SET DEADLINE MOVEMENT 2d, SET DEADLINE RETREAT 24h or"
        f" SET DEADLINE ALL 20:00 (phase types MOVEMENT, RETREAT, ADJUSTMENT, ALL; times"
        f" {DURATIONS} after the phase begins, or a time of day such as 20:00)"
    ),
    "GRACE": f"SET GRACE needs a duration: SET GRACE 12h (or {DURATIONS})",
    "TIMEZONE": (
        "SET TIMEZONE needs a time zone name: SET TIMEZONE Europe/Paris"
        " (or America/New_York, UTC, ...)"
    ),
    "PRESS": (
        "SET PRESS needs NONE, WHITE (signed press only), GREY (anonymous press only)"
        " or ALL (both): SET PRESS WHITE"
    ),
    "LATE": (
        "SET LATE needs HOLD, WAIT, or DISORDER with an optional count of missed deadlines:"
        " SET LATE HOLD, SET LATE WAIT or SET LATE DISORDER AFTER 2"
    ),
    "EARLY": "SET EARLY needs ON or OFF: SET EARLY ON",
    "REMIND": (
        f"SET REMIND needs how long before the deadline, or ON or OFF: SET REMIND 6h"
        f" (or {DURATIONS}; ON is 12 hours, OFF sends no reminders)"
    ),
    "OBSERVERS": (
        "SET OBSERVERS needs e-mail addresses, or NONE:"
        " SET OBSERVERS watcher@example.org other@example.org"
    ),
    "OBSERVE": "SET OBSERVE needs ON or OFF (whether anyone may OBSERVE the game): SET OBSERVE OFF",
    "ADDRESS": (
        "SET ADDRESS needs your new e-mail address: SET ADDRESS new@example.org; from the new"
        " address, SET ADDRESS CONFIRM and the code mailed to it"
    ),
    "ABSENCE": (
        "SET ABSENCE needs your first and last day away, as year-month-day:"
        " SET ABSENCE 2026-03-05 TO 2026-03-08 (SET NO ABSENCE withdraws it; the GM sets"
        " the days allowed with SET ABSENCE LIMIT 14 or SET ABSENCE LIMIT OFF)"
    ),
}
SET_USAGE["TZ"] = SET_USAGE["TIMEZONE"]

# Commands whose line holds a password: the last word of such a line is masked whenever the
# line is quoted back without having been read (SET PASSWORD masks all after PASSWORD).
PASSWORD_KEYWORDS = frozenset({"SIGNON", "JOIN", "CREATE", "ADD", "REPLACE"})


def usage(keyword: str, second: str = "") -> str:
    """What `keyword` (and for SET, the setting `second`) needs, with an example."""
    if keyword == "SET" and second in SET_USAGE:
        return SET_USAGE[second]
    return USAGE.get(keyword, "send HELP for the list of commands")
