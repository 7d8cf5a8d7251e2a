"""The JSON files a message carries (a saved game sent with IMPORT): read only when a command
asks for them, from the message as gm.mail.decode parsed it, within its bounds (the message is
no larger than the service's `max_message_bytes`, and no more than MAX_PARTS parts are looked
at)."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import Message

from gm.mail.decode import MAX_PARTS, header_text

# the types a JSON file is sent as; any type when its file name ends in one of JSON_SUFFIXES
JSON_TYPES = ("application/json", "application/x-ndjson", "application/jsonl",
              "application/x-jsonlines", "application/jsonlines")
JSON_SUFFIXES = (".json", ".jsonl")


@dataclass(frozen=True)
class AttachedFile:
    """One attached file: its declared type, its name (None when unnamed) and its bytes."""

    content_type: str
    filename: str | None
    data: bytes


def _filename(part: Message) -> str | None:
    try:
        name = part.get_filename()
    except Exception:
        return None
    return header_text(name, 200) if name else None


def _is_json(part: Message) -> bool:
    try:
        kind = part.get_content_type().lower()
    except Exception:
        return False
    name = (_filename(part) or "").lower()
    return kind in JSON_TYPES or name.endswith(JSON_SUFFIXES)


def json_files(message: Message | None) -> tuple[AttachedFile, ...]:
    """The JSON files attached to `message` (None: it was not read whole), in order: the
    parts of a JSON type, or named *.json or *.jsonl, whatever else they declare."""
    if message is None:
        return ()
    found: list[AttachedFile] = []
    for seen, part in enumerate(message.walk()):
        if seen >= MAX_PARTS:
            break
        if part.is_multipart() or not _is_json(part):
            continue
        try:
            data = part.get_payload(decode=True)
        except Exception:
            continue
        if isinstance(data, bytes):
            found.append(AttachedFile(part.get_content_type().lower(), _filename(part), data))
    return tuple(found)
