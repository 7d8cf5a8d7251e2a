"""Cut what the sender did not write for us: quoted replies, signatures, and anything after SIGNOFF.

Rules, applied line by line from the top:
- `SIGNOFF` alone on a line (any case) ends the text; the rest is ignored (the classic judge habit).
- A signature separator, "-- " (or "--") alone on a line, ends the text.
- Outlook's "-----Original Message-----", a line of underscores followed by "From:", or a
  "From:" line followed within a few lines by "Sent:"/"Date:" and "Subject:" ends the text
  (Outlook quotes the original below without ">" marks).
- Lines starting with ">" are quoted text and are dropped.
- An attribution line ("On <date>, <name> wrote:", also split over two lines, and its French,
  German, Spanish, Dutch and Italian forms) is dropped when quoted lines follow it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_SIGNOFF = "SIGNOFF"
_ORIGINAL_RE = re.compile(
    r"^\s*-{2,}\s*(original message|urspr[uü]ngliche nachricht|message d'origine|"
    r"mensaje original|oorspronkelijk bericht|messaggio originale)\s*-{2,}\s*$",
    re.IGNORECASE,
)
_UNDERSCORES_RE = re.compile(r"^\s*_{10,}\s*$")
_HEADER_FROM_RE = re.compile(r"^\s*\**(from|von|de|van|da)\s*:\**\s", re.IGNORECASE)
_HEADER_SENT_RE = re.compile(
    r"^\s*\**(sent|date|gesendet|datum|envoy[ée]|enviado|verzonden|inviato)\s*:", re.IGNORECASE)
_HEADER_SUBJECT_RE = re.compile(
    r"^\s*\**(subject|betreff|objet|asunto|onderwerp|oggetto)\s*:", re.IGNORECASE)
_ATTRIBUTION_RE = re.compile(
    r"^\s*(on|le|am|el|op|il)\b.{0,300}\b(wrote|a écrit|schrieb|escribió|schreef|ha scritto)"
    r"\b.{0,40}:\s*$",
    re.IGNORECASE,
)
_ATTRIBUTION_START_RE = re.compile(r"^\s*(on|le|am|el|op|il)\s", re.IGNORECASE)
_ATTRIBUTION_END_RE = re.compile(
    r"\b(wrote|a écrit|schrieb|escribió|schreef|ha scritto)\b.{0,40}:\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class CleanText:
    """The kept text, whether SIGNOFF ended it, and notes on what was cut."""

    text: str
    signoff: bool
    cuts: tuple[str, ...]


def _is_quoted(line: str) -> bool:
    return line.lstrip().startswith(">")


def _next_nonblank(lines: list[str], start: int) -> int | None:
    for index in range(start, min(len(lines), start + 4)):
        if lines[index].strip():
            return index
    return None


def _attribution_length(lines: list[str], index: int) -> int:
    """1 or 2 when an attribution line (or pair) starts at `index` and quoted lines follow."""
    line = lines[index]
    length = 0
    if _ATTRIBUTION_RE.match(line):
        length = 1
    elif (
        _ATTRIBUTION_START_RE.match(line)
        and index + 1 < len(lines)
        and _ATTRIBUTION_END_RE.search(lines[index + 1])
        and len(line) + len(lines[index + 1]) < 400
    ):
        length = 2
    if not length:
        return 0
    following = _next_nonblank(lines, index + length)
    return length if following is not None and _is_quoted(lines[following]) else 0


def _is_outlook_header(lines: list[str], index: int) -> bool:
    if not _HEADER_FROM_RE.match(lines[index]):
        return False
    window = lines[index + 1: index + 6]
    return any(_HEADER_SENT_RE.match(x) for x in window) and any(
        _HEADER_SUBJECT_RE.match(x) for x in window)


def clean_body(text: str) -> CleanText:
    """Keep only what the sender wrote; never raises."""
    lines = text.split("\n")
    kept: list[str] = []
    cuts: list[str] = []
    signoff = False
    quoted = 0
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped.upper() == _SIGNOFF:
            signoff = True
            if index + 1 < len(lines) and any(x.strip() for x in lines[index + 1:]):
                cuts.append(f"ignored everything after SIGNOFF (line {index + 1})")
            break
        if line.rstrip("\r") in ("-- ", "--"):
            cuts.append(f"cut the signature from line {index + 1}")
            break
        if _ORIGINAL_RE.match(line) or _is_outlook_header(lines, index) or (
            _UNDERSCORES_RE.match(line)
            and (after := _next_nonblank(lines, index + 1)) is not None
            and _HEADER_FROM_RE.match(lines[after])
        ):
            cuts.append(f"cut the quoted original message from line {index + 1}")
            break
        attribution = _attribution_length(lines, index)
        if attribution:
            index += attribution
            continue
        if _is_quoted(line):
            quoted += 1
            index += 1
            continue
        kept.append(line.rstrip())
        index += 1
    if quoted:
        cuts.append(f"dropped {quoted} quoted line{'s' if quoted != 1 else ''}")
    result = "\n".join(kept)
    result = re.sub(r"\n{3,}", "\n\n", result).strip("\n")
    return CleanText(result, signoff, tuple(cuts))
