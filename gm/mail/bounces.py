"""Read a bounce: which recipients failed for good, which only for now, and the server's words.

An RFC 3464 delivery status report (multipart/report; report-type=delivery-status, as Postfix,
Exim, Exchange and most MTAs write) is read field by field: each recipient's Final-Recipient,
Action and Status (and Diagnostic-Code, the server's reason). A failure is permanent when its
Action is "failed" and its Status is not 4.x.x; "delayed" reports and 4.x.x statuses are
temporary. Bounces of other shapes (qmail, old Exchange, Yahoo, ...) are read by Mailman's
detectors (flufl.bounce), which name the recipients only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.message import Message

MAX_REASON = 300
_SMTP_REPLY = re.compile(r"\b[45]\d\d[ -][^\n]{3,}")


@dataclass(frozen=True)
class Failure:
    """One recipient a bounce reports: `permanent` (else temporary) and the server's reason."""

    address: str
    permanent: bool
    reason: str


def read_bounce(message: Message) -> list[Failure]:
    """The failures `message` reports (none when it is no bounce gm can read)."""
    reports = [part for part in message.walk()
               if part.get_content_type() == "message/delivery-status"]
    if reports:
        return [f for report in reports for f in _from_report(report)]
    return _heuristic(message)


def _field(block: Message, name: str) -> str:
    value = block.get(name)
    return " ".join(str(value).split()) if value is not None else ""


def _from_report(report: Message) -> list[Failure]:
    """The recipients of one message/delivery-status part (its blocks after the first)."""
    payload = report.get_payload()
    blocks = [b for b in payload if isinstance(b, Message)] if isinstance(payload, list) else []
    failures = []
    for block in blocks:
        recipient = _field(block, "Final-Recipient") or _field(block, "Original-Recipient")
        address = recipient.split(";", 1)[-1].strip().strip("<>")
        action = _field(block, "Action").lower()
        status = _field(block, "Status")
        if "@" not in address or action not in ("failed", "delayed"):
            continue  # the per-message block, or a delivered/relayed/expanded recipient
        diagnostic = _field(block, "Diagnostic-Code")
        reason = diagnostic.split(";", 1)[-1].strip() if diagnostic else f"status {status}"
        permanent = action == "failed" and not status.startswith("4")
        failures.append(Failure(address, permanent, reason[:MAX_REASON]))
    return failures


def _heuristic(message: Message) -> list[Failure]:
    """A bounce that is no RFC 3464 report, read by flufl.bounce's detectors (imported here:
    its 150 patterns cost every `gm ingest` 20 ms, and few messages get this far)."""
    from flufl.bounce import all_failures

    try:
        temporary, permanent = all_failures(message)
    except Exception:  # a detector that cannot read this shape: nothing is reported
        return []
    text = _text(message)
    return [Failure(address, is_permanent, _reason(text, address))
            for is_permanent, found in ((True, permanent), (False, temporary))
            for address in sorted(raw.decode("utf-8", "replace") for raw in found)]


def _text(message: Message) -> str:
    """The bounce's first plain-text part ("" if it has none)."""
    for part in message.walk():
        if part.get_content_type() == "text/plain":
            try:
                data = part.get_payload(decode=True)
            except Exception:
                return ""
            return data.decode("utf-8", "replace") if isinstance(data, bytes) else ""
    return ""


def _reason(text: str, address: str) -> str:
    """The first SMTP reply quoted in the bounce's text, else the line after the one naming
    `address` (qmail's shape), else a plain description."""
    if match := _SMTP_REPLY.search(text):
        return " ".join(match.group(0).split())[:MAX_REASON]
    lines = [line.strip() for line in text.splitlines()]
    for i, line in enumerate(lines[:-1]):
        if address.lower() in line.lower() and lines[i + 1] and "@" not in lines[i + 1]:
            return lines[i + 1][:MAX_REASON]
    return "returned as undeliverable by the receiving mail server"
