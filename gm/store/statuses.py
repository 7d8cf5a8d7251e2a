"""The status vocabularies of stored rows (their values are what the database holds)."""

from __future__ import annotations

from enum import StrEnum


class GameStatus(StrEnum):
    FORMING = "forming"  # players are signing on
    ACTIVE = "active"  # deadlines run, phases are adjudicated
    PAUSED = "paused"  # the GM stopped the clock
    FINISHED = "finished"


class PowerStatus(StrEnum):
    PLAYING = "playing"
    CIVIL_DISORDER = "civil_disorder"  # no player: units hold, builds are waived
    ELIMINATED = "eliminated"
    RESIGNED = "resigned"


class InboundStatus(StrEnum):
    NEW = "new"  # stored, not yet processed
    PROCESSED = "processed"  # its effects are committed
    SHUNTED = "shunted"  # processing failed; kept with the error for a replay
    HELD = "held"  # over its sender's rate limit: kept, not processed, until replayed


class OutboundStatus(StrEnum):
    QUEUED = "queued"  # to be sent at next_attempt_at
    SENT = "sent"  # the SMTP server accepted it
    FAILED = "failed"  # given up after repeated errors
