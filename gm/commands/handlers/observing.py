"""What OBSERVE (anyone asks for the observers' report of a game, or stops it) and the GM's
SET OBSERVE ON|OFF (whether anyone may) share: where the setting is kept. Observers are the
game's list that SET OBSERVERS and ADD OBSERVER also keep; they get the start mail and every
phase's observer report."""

from __future__ import annotations

OPEN_KEY = "observe_open"  # settings document key: False when the GM forbids OBSERVE


