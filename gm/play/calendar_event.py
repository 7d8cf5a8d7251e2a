"""A phase's deadline as a calendar event (iCalendar, RFC 5545, sent by iTIP, RFC 5546), and the
deadline in a reader's own time zone (SET TIMEZONE by a player).

Each mail that tells a player or the GM a phase's deadline (the start mail, the phase report,
the mail that moves it) carries one event for that phase and reader (observers order nothing
and get none): the same UID every time (from the
game, the phase's place in its history and the reader's address), a SEQUENCE that grows by one
each time the deadline moves (SET DEADLINE <date>, PAUSE, RESUME; kept in the game's settings
document under `CALENDAR_KEY`), and an alarm before the deadline (the game's reminder lead, SET
REMIND). So a calendar updates the one event rather than adding a second. A phase that ends
before its deadline (everyone ordered, the GM's PROCESS), a paused game's deadline and a phase
withdrawn by ROLLBACK are cancelled (METHOD:CANCEL, STATUS:CANCELLED); a phase reopened by
ROLLBACK is a new event. An absence never moves the open phase's deadline (njudge `absence`):
the later deadlines it moves are the ones the reports carry. A player given a power in a game
under way gets the open phase's event with the seating mail.

Why METHOD:REQUEST (an invitation) rather than PUBLISH: Gmail, Outlook, Apple Mail and
Thunderbird all update an invitation in place from a later one with the same UID and a higher
SEQUENCE, and remove it on a CANCEL; a PUBLISH is only offered for import (Gmail, Outlook) and
has no cancel. The organizer is the game's GM, so a reply a calendar sends anyway goes to a
person, never to the service; each reader is the one attendee, with RSVP=FALSE (no answer is
asked for).
"""

from __future__ import annotations

import hashlib
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from gm.play.deadlines import show
from gm.play.reminders import remind_before
from gm.play.zones import zone
from gm.store.rows import Attachment, GameRecord
from gm.store.settings import GameSettings

CALENDAR_KEY = "calendar"  # settings document: {"index": phase index, "sequence": n}
ZONES_KEY = "reader_zones"  # settings document: {address (lower case): tz database name}
CONTENT_TYPE = "text/calendar"
FILENAME = "deadline.ics"
CANCEL_FILENAME = "deadline-cancelled.ics"
PRODUCT = "-//gm//Diplomacy deadlines//EN"
DEFAULT_ALARM = timedelta(hours=1)  # when the game sends no reminder (SET REMIND OFF)
_NAMESPACE = uuid.UUID("6a1e4b8e-47d3-4c55-9a43-0c4f1d2b7e11")


@dataclass(frozen=True)
class PhaseDeadline:
    """A phase's deadline as its events give it: the phase's place in the game's history
    (`index`) and when it opened (a phase reopened by ROLLBACK is another event), its name,
    the deadline and the event's SEQUENCE."""

    index: int
    opened: datetime
    phase: str
    deadline: datetime
    sequence: int


def sequence_of(settings: GameSettings, index: int) -> int:
    """How often the deadline of the phase at `index` has moved (its events' SEQUENCE)."""
    stored = settings.extra.get(CALENDAR_KEY)
    if isinstance(stored, dict) and stored.get("index") == index:
        value = stored.get("sequence")
        if isinstance(value, int) and value >= 0:
            return value
    return 0


def with_sequence(settings: GameSettings, index: int, sequence: int) -> dict[str, Any]:
    """The settings document `extra` with the phase at `index` moved `sequence` times."""
    return {**settings.extra, CALENDAR_KEY: {"index": index, "sequence": sequence}}


def reader_zone(settings: GameSettings, address: str) -> str | None:
    """The time zone `address` chose for its mail of the game (SET TIMEZONE), if any."""
    zones = settings.extra.get(ZONES_KEY)
    found = zones.get(address.lower()) if isinstance(zones, dict) else None
    return found if isinstance(found, str) else None


def with_reader_zone(settings: GameSettings, address: str, name: str) -> dict[str, Any]:
    """The settings document `extra` with `address`'s time zone set to `name`."""
    zones = settings.extra.get(ZONES_KEY)
    chosen = dict(zones) if isinstance(zones, dict) else {}
    chosen[address.lower()] = name
    return {**settings.extra, ZONES_KEY: chosen}


def in_reader_time(moment: datetime, name: str) -> str:
    """`moment` on a reader's clock: "Tue 2026-03-03 12:00 EST (America/New_York)"."""
    local = moment.astimezone(zone(name))
    return f"{local:%a %Y-%m-%d %H:%M} {local.tzname() or name} ({zone(name).key})"


def shown_for(settings: GameSettings, address: str, moment: datetime) -> str:
    """A deadline as a mail to `address` shows it: in the game's time zone and UTC, and in
    the reader's own time when it chose a zone (SET TIMEZONE)."""
    game_time = show(moment, settings.timezone)
    mine = reader_zone(settings, address)
    if mine is None:
        return game_time
    return f"{game_time}; your time: {in_reader_time(moment, mine)}"


def time_line(settings: GameSettings, address: str, phase: str, moment: datetime) -> str | None:
    """The line that opens a mail to a reader with a zone of their own: the deadline in their
    time and in the game's (None for a reader who chose none)."""
    mine = reader_zone(settings, address)
    if mine is None:
        return None
    return (f"Deadline of {phase} in your time: {in_reader_time(moment, mine)}; in the game's: "
            f"{show(moment, settings.timezone)}.")


def with_time_line(text: str, line: str) -> str:
    """`text` (a mail's plain text) opened by `line`."""
    return f"{line}\n\n{text}"


def with_time_line_html(html: str, line: str) -> str:
    """`html` (a mail's HTML part) with `line` as its first paragraph."""
    from markupsafe import escape

    paragraph = f"<p><strong>{escape(line)}</strong></p>"
    start = html.lower().find("<body")
    end = html.find(">", start) if start >= 0 else -1
    if end < 0:
        return paragraph + html
    return html[:end + 1] + paragraph + html[end + 1:]


def event_uid(game: GameRecord, index: int, opened: datetime, address: str) -> str:
    """The UID of the event of the phase at `index`, opened at `opened`, for `address`: the
    same in every mail."""
    opened_at = int(opened.timestamp())  # to the second, as every database keeps it
    key = (f"{game.id}|{game.name}|{game.created_at.isoformat()}|{index}|{opened_at}|"
           f"{address.lower()}")
    return str(uuid.uuid5(_NAMESPACE, hashlib.sha256(key.encode()).hexdigest()))


def _alarm_before(settings: GameSettings) -> timedelta:
    lead = remind_before(settings)
    return lead if lead > timedelta(0) else DEFAULT_ALARM


def deadline_event(game: GameRecord, deadline: PhaseDeadline, address: str,
                   power: str | None, *, now: datetime, cancel: bool = False) -> Attachment:
    """The event of `deadline` for the reader `address` (playing `power`, None for the GM or
    an observer), as a text/calendar attachment: METHOD:REQUEST, or METHOD:CANCEL with
    STATUS:CANCELLED when the deadline no longer holds."""
    # not at the head: importing the library costs every `gm ingest` some 50 ms, and only
    # the mail that tells a deadline needs it
    from icalendar import Alarm, Calendar, Event, vCalAddress, vText

    cal = Calendar()
    cal.add("prodid", PRODUCT)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "CANCEL" if cancel else "REQUEST")
    event = Event()
    event.add("uid", event_uid(game, deadline.index, deadline.opened, address))
    event.add("sequence", deadline.sequence)
    event.add("dtstamp", now.astimezone(UTC))
    start = deadline.deadline.astimezone(UTC)
    event.add("dtstart", start)
    event.add("dtend", start + timedelta(minutes=15))
    who = f" ({power})" if power else ""
    event.add("summary", f"Orders due: {game.name} {deadline.phase}{who}")
    event.add("description", (
        f"The deadline of {deadline.phase} in the Diplomacy game {game.name}: "
        f"{shown_for(game.settings, address, start)}. Orders that arrive later are late."))
    organizer = vCalAddress(f"mailto:{game.gm_address}")
    organizer.params["cn"] = vText(f"GM of {game.name}")
    event.add("organizer", organizer)
    attendee = vCalAddress(f"mailto:{address}")
    attendee.params["role"] = vText("REQ-PARTICIPANT")
    attendee.params["partstat"] = vText("NEEDS-ACTION")
    attendee.params["rsvp"] = vText("FALSE")
    event.add("attendee", attendee)
    event.add("transp", "TRANSPARENT")
    if cancel:
        event.add("status", "CANCELLED")
    else:
        event.add("status", "CONFIRMED")
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", f"Orders due: {game.name} {deadline.phase}")
        alarm.add("trigger", -_alarm_before(game.settings))
        event.add_component(alarm)
    cal.add_component(event)
    return Attachment(CANCEL_FILENAME if cancel else FILENAME, CONTENT_TYPE, cal.to_ical())


def is_event(attachment: Attachment) -> bool:
    """Whether `attachment` is a deadline's event (made here)."""
    return attachment.content_type == CONTENT_TYPE
