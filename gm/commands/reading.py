"""What the command modules (gm.commands.catalog) share to turn a grammar rule's parse tree
into a command value: the `Draft` a rule gives, the `Invalid` a rule raises for values the
grammar accepts but that are wrong, and readers of the common words (game names, addresses,
phase types, dates, times, time zones, rulebooks)."""

from __future__ import annotations

import functools
import re
import zoneinfo
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import time
from typing import Any

from lark import Token

from gm.commands.values import Command, Line
from gm.engine.phase import PhaseType
from gm.engine.rulebook import RULEBOOKS

_GAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,39}", re.IGNORECASE)


class Invalid(Exception):
    """A line the grammar accepts but whose values are wrong; the message says why."""


@dataclass(frozen=True)
class Draft:
    """What the grammar read: a constructor awaiting the (masked) line, and the secret tokens.

    The constructor gives a command value, or (PRESS TO, BROADCAST) an open press message
    whose text the following lines hold.
    """

    make: Callable[[Line], Command | Any]
    secrets: tuple[Token, ...] = ()


# A grammar rule's reader: the rule's children (tokens and the values of its sub-rules) -> the
# command's Draft, or for a sub-rule of one command (CREATE's RULEBOOK) the value it stands for.
Reader = Callable[[list[Any]], Any]


def quote(text: str, limit: int = 80) -> str:
    """`text` in double quotes for an error message: shortened, unprintable characters shown as
    U+FFFD."""
    short = text if len(text) <= limit else text[: limit - 1] + "…"
    return '"' + "".join(ch if ch.isprintable() else "\ufffd" for ch in short) + '"'


def game_name(token: Token) -> str:
    name = str(token)
    if not _GAME.fullmatch(name):
        raise Invalid(
            f"{quote(name, 40)} is not a game name; game names are letters, digits,"
            " - and _ (at most 40)"
        )
    return name.lower()


def joined(tokens: Sequence[Token]) -> str:
    return " ".join(str(t) for t in tokens)


def bare_address(token: Token) -> str:
    return str(token).removeprefix("<").removesuffix(">")


_PHASE_TYPES = {"m": PhaseType.MOVEMENT, "r": PhaseType.RETREAT, "a": PhaseType.ADJUSTMENT,
                "b": PhaseType.ADJUSTMENT}  # fmt: skip


def kind_of_phase(word: str) -> PhaseType:
    return _PHASE_TYPES[word[0].lower()]


def rulebook_year(word: str) -> str:
    """The year after RULEBOOK, checked against gm.engine.rulebook."""
    if word in RULEBOOKS:
        return word
    raise Invalid(f"there is no {word!r} rulebook: RULEBOOK {' or '.join(RULEBOOKS)} "
                  "(2000 if not given; HELP RULEBOOK)")


@functools.cache
def _zones() -> dict[str, str]:
    """tz database names by lower-case name (empty where the system has no tz database)."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def zone_name(name: str) -> str:
    zones = _zones()
    if name.lower() in zones:
        return zones[name.lower()]
    if not zones:  # no tz database to list: ask zoneinfo itself
        try:
            zoneinfo.ZoneInfo(name)
        except (zoneinfo.ZoneInfoNotFoundError, ValueError, OSError):
            pass
        else:
            return name
    raise Invalid(
        f"{quote(name, 40)} is not a time zone; give a tz database name such as Europe/Paris,"
        " America/New_York or UTC"
    )


def time_of_day(token: Token) -> time:
    hours, minutes = str(token).split(":")
    return time(int(hours), int(minutes))
