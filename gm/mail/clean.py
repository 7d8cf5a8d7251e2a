"""Cut what the sender did not write for us: quoted replies, signatures, and anything after SIGNOFF.

Rules, applied line by line from the top:
- `SIGNOFF` alone on a line (any case) ends the text; the rest is ignored (the classic judge habit).
- A signature separator, "-- " (or "--") alone on a line, ends the text; so does a mail
  program's own line ("Sent from my iPhone", "Get Outlook for iOS", and their French, German,
  Spanish, Dutch and Italian forms).
- A signature without a separator at the end: the last few lines, if they are names, greetings
  and contact details (a phone number, an address, a web site) with at least one contact line
  among them ("Jean Dupont" / "+33 6 12 34 56 78").
- A closing at the end: a sign-off in one of several languages ("Cordialement,", "Best
  regards", "Gruß", "Mit freundlichen Grüßen", "Cordiali saluti", "Saludos", "Cheers, Jean")
  with at most two lines of a name under it ("Jean"), or a first name alone on the last line.
  A line with a command's or an order's word ("Hold", "END", "A Par H") is never a name.
- Outlook's "-----Original Message-----", a line of underscores followed by "From:", or a
  "From:" line followed within a few lines by "Sent:"/"Date:" and "Subject:" ends the text
  (Outlook quotes the original below without ">" marks).
- Lines starting with ">" are quoted text and are dropped.
- An attribution line ("On <date>, <name> wrote:", also split over two lines, and its French,
  German, Spanish, Dutch and Italian forms) is dropped when quoted lines follow it. A mail
  program's attribution (it names the time or the address: "On 2 Mar 2026, at 12:00, Judge
  <judge@example.org> wrote:") followed by unquoted lines, outside press, ends the text: the
  original is pasted below it without ">" marks (a report pasted back, whose "Orders of France
  for ..." lines are not orders).
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
_APP_SIGNATURE_RE = re.compile(
    r"^\s*(sent from my \S.{0,40}|sent from (mail|yahoo|outlook|gmail|samsung|proton)\S*"
    r"( for \S.{0,30})?|sent with \S.{0,40}|get outlook for \S.{0,30}|"
    r"envoy[ée] (de|depuis) mon \S.{0,40}|von meinem \S.{0,40} gesendet|gesendet von \S.{0,40}|"
    r"enviado desde mi \S.{0,40}|verzonden (vanaf|met) (mijn )?\S.{0,40}|"
    r"inviato da(l mio)? \S.{0,40})\s*$",
    re.IGNORECASE,
)
# Contact details in a short line: a phone number (seven digits or more), a mail address, a
# web site ("Jean Dupont | jean@example.fr", "Tel: (555) 123-4567").
_CONTACT_RE = re.compile(
    r"(?<![\w.])([+(]?\d[\d ().\-/]{5,}\d|[\w.+\-]+@[\w\-]+\.[\w.\-]+|"
    r"(https?://|www\.)\S+)", re.IGNORECASE)
_CONTACT_LINE = 100  # the longest line read as contact details
# A name or a greeting: up to five words of letters, each capitalised ("Jean-Paul Dupont",
# "Best regards,", "J. Smith"), not an order's unit word (A, F, Army, Fleet) first.
_NAME_RE = re.compile(
    r"^\s*(?!(a|f|army|fleet)\b)[^\W\d_][\w.'\-]*(\s+[^\W\d_][\w.'\-]*){0,4}[,!.]?\s*$",
    re.IGNORECASE,
)
# Closing words, in English, French, German, Spanish, Dutch, Italian and Portuguese.
_SIGNOFFS = (
    r"thanks( a lot| again)?|thank you|thx|many thanks|cheers|regards|best|best regards|"
    r"kind regards|warm regards|warmest regards|best wishes|all the best|"
    r"yours( truly| sincerely| faithfully)?|sincerely|cordialement|bien cordialement|"
    r"amicalement|amiti[ée]s|bien [àa] vous|merci( beaucoup)?|[àa] bient[ôo]t|salutations|"
    r"gr(ü|ue|u)(ß|ss)e?|(viele|liebe|beste|freundliche|herzliche) gr(ü|ue|u)(ß|ss)e|"
    r"mit freundlichen gr(ü|ue|u)(ß|ss)en|mfg|saludos( cordiales)?|un saludo|atentamente|gracias|"
    r"groeten|groetjes|met vriendelijke groet(en)?|saluti|cordiali saluti|distinti saluti|"
    r"un saluto|grazie|ciao|atenciosamente|abra[çc]os|obrigad[oa]|greetings"
)
_GREETING_RE = re.compile(rf"^\s*({_SIGNOFFS}|mfg)\b", re.IGNORECASE)
_SIGNOFF_RE = re.compile(rf"({_SIGNOFFS})[,!.]*", re.IGNORECASE)
_SIGNOFF_NAMES = 2  # the most lines of a name under a sign-off
# Words of orders: a line holding one is not a name ("Hold", "Paris Holds").
_ORDER_WORDS = frozenset({
    "H", "HOLD", "HOLDS", "M", "MOVE", "MOVES", "S", "SUPPORT", "SUPPORTS", "C", "CONVOY",
    "CONVOYS", "R", "RETREAT", "RETREATS", "B", "BUILD", "BUILDS", "D", "DISBAND", "DISBANDS",
    "REMOVE", "REMOVES", "W", "WAIVE", "WAIVES", "A", "F", "ARMY", "FLEET", "TO", "VIA", "END",
    "DONE", "NMR", "CD",
})

# First words of commands and of the variants' orders: a line opening with one is not a name.
_COMMAND_WORDS = frozenset({
    "SIGNON", "JOIN", "SIGNOFF", "PRESS", "BROADCAST", "GREY", "GRAY", "ENDPRESS", "SET", "LIST",
    "HISTORY", "SUMMARY", "HELP", "RESIGN", "CLEAR", "CREATE", "ADD", "START", "PAUSE", "RESUME",
    "PROCESS", "PREVIEW", "TERMINATE", "REPLACE", "EJECT", "ROLLBACK", "UNLOCK", "BUILD",
    "REPROCESS", "REMOVE", "DISBAND", "WAIVE", "HOME", "ALLIANCE", "ALLY", "EXCHANGE", "ERODE",
    "UPLIFT", "OROGENESIS", "STABILIZE", "STABILISE", "EARTHQUAKE", "SUPPORT",
    "ENDBROADCAST", "WATCH", "WITHDRAW", "PREDICT",  # the classic judges' words
})
_SIGNATURE_LINES = 6  # the most lines a signature without a separator is taken to have
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
# What a mail program's attribution names and a sentence rarely does: a time, an address.
_ATTRIBUTION_STAMP_RE = re.compile(r"\b\d{1,2}:\d{2}\b|[\w.+\-]+@[\w\-]+\.[\w.\-]+")
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


def _attribution_length(lines: list[str], index: int, *, quoted: bool = True) -> int:
    """1 or 2 when an attribution line (or pair) starts at `index` and quoted lines follow
    (with `quoted` False: unquoted lines follow)."""
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
    return length if following is not None and _is_quoted(lines[following]) == quoted else 0


def _is_outlook_header(lines: list[str], index: int) -> bool:
    if not _HEADER_FROM_RE.match(lines[index]):
        return False
    window = lines[index + 1: index + 6]
    return any(_HEADER_SENT_RE.match(x) for x in window) and any(
        _HEADER_SUBJECT_RE.match(x) for x in window)


def _original_starts(lines: list[str], index: int) -> bool:
    """Whether the original message, quoted Outlook's way (no ">" marks), starts at `index`."""
    line = lines[index]
    return bool(_ORIGINAL_RE.match(line) or _is_outlook_header(lines, index) or (
        _UNDERSCORES_RE.match(line)
        and (after := _next_nonblank(lines, index + 1)) is not None
        and _HEADER_FROM_RE.match(lines[after])))


def unquoted(text: str) -> str:
    """`text` without what it quotes: ">" lines, and from the original message Outlook quotes
    on (signatures and everything else kept)."""
    lines = text.split("\n")
    kept = []
    for index, line in enumerate(lines):
        if _original_starts(lines, index):
            break
        if not _is_quoted(line):
            kept.append(line)
    return "\n".join(kept)


def _is_name(line: str) -> bool:
    """A name: capitalised words (see _NAME_RE), none of them in capitals only past one letter
    (a command: SIGNON, PROCESS...)."""
    words = line.split()
    if not words or words[0].rstrip(",!.").upper() in _COMMAND_WORDS:
        return False
    return bool(_NAME_RE.match(line)) and all(
        w[0].isupper() and not (len(w) > 2 and w.rstrip(",!.").isupper()) for w in words)


_CONTACT_LABELS = re.compile(
    r"\b(tel|phone|mobile|mob|cell|fax|email|e-mail|mail|web|[tmef])\b\.?\s*:?|[|,;:/\u00b7\u2022]",
    re.IGNORECASE)


def _is_contact(line: str) -> bool:
    """A short line of contact details, with at most a name or labels beside them."""
    if len(line) > _CONTACT_LINE or not _CONTACT_RE.search(line):
        return False
    rest = " ".join(_CONTACT_LABELS.sub(" ", _CONTACT_RE.sub(" ", line)).split())
    return not rest or _is_name(rest)


def _signature_start(lines: list[str]) -> int | None:
    """Where a signature without a separator starts at the end of `lines` (see the module
    docstring), or None."""
    start, contact, seen = None, False, 0
    for index in range(len(lines) - 1, -1, -1):
        line = lines[index]
        if not line.strip():
            continue
        seen += 1
        if seen > _SIGNATURE_LINES:
            break
        if _is_contact(line):
            contact = True
        elif not (_is_name(line) or _GREETING_RE.match(line)):
            break
        start = index
    return start if contact else _signoff_start(lines)


def _is_first_name(line: str) -> bool:
    """A name of at most three words, none an order's word (a line under a sign-off)."""
    words = line.split()
    return (len(words) <= 3 and _is_name(line)
            and not any(w.rstrip(",!.").upper() in _ORDER_WORDS for w in words))


def _is_signoff(line: str) -> bool:
    """Closing words alone on the line, or with a name after them ("Cheers, Jean")."""
    words = line.split()
    if len(line) > 60:
        return False
    for count in range(len(words), 0, -1):
        if _SIGNOFF_RE.fullmatch(" ".join(words[:count])):
            rest = " ".join(words[count:])
            return not rest or _is_first_name(rest)
    return False


# A press message opens (PRESS TO ..., BROADCAST, GREY ...) and ends (ENDPRESS, END BROADCAST).
_PRESS_OPENS = re.compile(r"^\s*(?:gr[ea]y\s+)?(?:press\b|broadcast\b)", re.IGNORECASE)
_PRESS_ENDS = re.compile(r"^\s*end\s*(?:press|broadcast)\s*$", re.IGNORECASE)


def _in_press(lines: list[str]) -> bool:
    """Whether `lines` end inside a press message not ended yet: what follows is the
    player's press (a closing there belongs to it), never a signature to cut."""
    open_press = False
    for line in lines:
        if _PRESS_ENDS.match(line):
            open_press = False
        elif _PRESS_OPENS.match(line):
            open_press = True
    return open_press


def _signoff_start(lines: list[str]) -> int | None:
    """Where a closing at the end of `lines` starts: a sign-off line ("Cordialement,", "Best
    regards", "Gruß") with at most _SIGNOFF_NAMES lines of a name after it, or else a first
    name alone (one word) on the last line. Never a line an order or command may start, nor
    press (a message whose press is not ended keeps its closing in the press)."""
    if _in_press(lines):
        return None
    filled = [i for i, line in enumerate(lines) if line.strip()]
    tail = filled[-(_SIGNOFF_NAMES + 1):]
    for k, index in enumerate(tail):
        if _is_signoff(lines[index]) and all(_is_first_name(lines[j]) for j in tail[k + 1:]):
            return index
    if filled and len(lines[filled[-1]].split()) == 1 and _is_first_name(lines[filled[-1]]):
        return filled[-1]
    return None




def clean_body(text: str) -> CleanText:
    """Keep only what the sender wrote; never raises."""
    lines = text.split("\n")
    kept: list[str] = []
    cuts: list[str] = []
    signoff = False
    quoted = 0
    index = 0
    open_press = False  # whether the kept lines end inside a press message (as _in_press)
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if stripped.upper() == _SIGNOFF:
            signoff = True
            if index + 1 < len(lines) and any(x.strip() for x in lines[index + 1:]):
                cuts.append(f"ignored everything after SIGNOFF (line {index + 1})")
            break
        if line.rstrip("\r") in ("-- ", "--") or _APP_SIGNATURE_RE.match(line):
            cuts.append(f"cut the signature from line {index + 1}")
            break
        if _original_starts(lines, index):
            cuts.append(f"cut the quoted original message from line {index + 1}")
            break
        pasted = _attribution_length(lines, index, quoted=False)
        if pasted and _ATTRIBUTION_STAMP_RE.search(" ".join(lines[index:index + pasted])) \
                and not open_press:
            cuts.append(f"cut the original message pasted without quote marks from line "
                        f"{index + 1}")
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
        if _PRESS_ENDS.match(line):
            open_press = False
        elif _PRESS_OPENS.match(line):
            open_press = True
        index += 1
    if quoted:
        cuts.append(f"dropped {quoted} quoted line{'s' if quoted != 1 else ''}")
    signature = _signature_start(kept)
    if signature is not None:
        cuts.append(f"cut the signature ({kept[signature].strip()!r} and after)")
        kept = kept[:signature]
    result = "\n".join(kept)
    result = re.sub(r"\n{3,}", "\n\n", result).strip("\n")
    return CleanText(result, signoff, tuple(cuts))
