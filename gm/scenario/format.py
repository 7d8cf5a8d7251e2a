"""Reading scenario files (the jDip/DATC test format, extended for the variants).

The reader knows the format's keywords and blocks, not the rules: it returns each case's lines,
numbered, for the runner (gm.scenario.runner) to interpret with the variant. The format is
described in gm/scenario/FORMAT.md (`gm scenario --format`): `#` starts a comment, blank
lines and leading whitespace are ignored, keywords are case-insensitive, an unknown keyword is
an error.
"""

from __future__ import annotations

import re
from itertools import repeat
from pathlib import Path
from typing import ClassVar, NamedTuple

# Keywords followed by a value on the same line.
# RULEBOOK (`RULEBOOK 2023`; gm.engine.rulebook) before the first case sets the rulebook of
# the cases that follow it in the file, inside a case that case's own.
SINGLE_LINE = ("VARIANT_ALL", "VARIANT", "CASE", "PRESTATE_SETPHASE", "POSTSTATE_SETPHASE",
               "RULEBOOK")
# Keywords standing alone.
FLAGS = ("POSTSTATE_SAME", "END")
# Block keywords: the keyword, then one item per line until the next keyword (an item may
# also follow the keyword on its own line: `POSTSTATE_WINNERS none`).
BLOCKS = (
    "PRESTATE",
    "PRESTATE_DISLODGED",
    "PRESTATE_RESULTS",
    "PRESTATE_SUPPLYCENTER_OWNERS",
    "PRESTATE_SUPPLYCENTERS",
    "PRESTATE_TERRAIN",
    "PRESTATE_BORDERS",
    "PRESTATE_HOMES",
    "PRESTATE_STATE",
    "ORDERS",
    "POSTSTATE",
    "POSTSTATE_DISLODGED",
    "POSTSTATE_SUPPLYCENTER_OWNERS",
    "POSTSTATE_SUPPLYCENTERS",
    "POSTSTATE_TERRAIN",
    "POSTSTATE_BORDERS",
    "POSTSTATE_HOMES",
    "POSTSTATE_STATE",
    "POSTSTATE_WINNERS",
)
KEYWORDS = frozenset(SINGLE_LINE + FLAGS + BLOCKS)

# Words that look like keywords (so a misspelt one is reported, not read as a block item).
_KEYWORDISH = r"(?i)(?:pre|post)state\w*|variant\w*|case\w*|\w+_\w+"  # compiled on first use


class ScenarioSyntaxError(ValueError):
    """The file is not a readable scenario file; the message names the file and line."""

    def __init__(self, path: str, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = path
        self.line = line


class Line(NamedTuple):
    """One item of a block (comment removed, trimmed) and where it was (a named tuple: files
    have tens of thousands of them)."""

    number: int
    text: str


class Case:
    """One CASE ... END: its single-line values and blocks, exactly as written. Equal to another
    with equal fields; gm.engine.frozen.replace makes a changed copy."""

    __match_args__: ClassVar[tuple[str, ...]] = (
        "name", "path", "line", "variant", "variant_line", "setphase", "post_setphase",
        "poststate_same", "blocks", "rulebook",
    )

    def __init__(
        self,
        name: str,
        path: str,
        line: int,
        variant: str,
        variant_line: int,
        setphase: Line | None = None,
        post_setphase: Line | None = None,
        poststate_same: bool = False,
        blocks: dict[str, list[Line]] | None = None,
        rulebook: Line | None = None,
    ) -> None:
        self.name = name
        self.path = path
        self.line = line
        self.variant = variant
        self.variant_line = variant_line
        self.setphase = setphase
        self.post_setphase = post_setphase
        self.poststate_same = poststate_same
        self.blocks: dict[str, list[Line]] = {} if blocks is None else blocks
        self.rulebook = rulebook  # `RULEBOOK 2023`: the case's (or its file's) rulebook

    def __eq__(self, other: object) -> bool:
        if type(other) is not Case:
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in self.__match_args__)

    def __repr__(self) -> str:
        inside = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__match_args__)
        return f"Case({inside})"

    @property
    def where(self) -> str:
        return f"{self.path}:{self.line}"

    def block(self, keyword: str) -> list[Line] | None:
        """The lines of a block, or None when the case does not have it."""
        return self.blocks.get(keyword)


def read_file(path: str | Path) -> list[Case]:
    """Read a scenario file. ScenarioSyntaxError (naming file and line) if it is malformed;
    OSError if it cannot be opened."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    return read_text(text, str(path))


def read_text(text: str, path: str = "<text>") -> list[Case]:
    """Read scenario text; `path` is used in error messages."""
    reader = _Reader(path)
    if any(c in text for c in _ODD_BREAKS):  # other line breaks than \n, \r\n, \r: one by one
        for number, raw in enumerate(text.splitlines(), start=1):
            reader.line(number, raw)
        return reader.finish()
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    # Most lines are block items whose first word ends in a colon (`Austria: A Bud`): such a
    # line is no keyword. The runs of them are read in bulk; every other line (keywords, blank
    # lines, comments, anything unusual) goes through _Reader.line.
    text = "\n" + text
    # Line(number, text) as tuple.__new__(Line, (number, text)): without the named tuple's
    # __new__ (a Python function) or a partial's argument copying.
    new_tuple, of_line = tuple.__new__, repeat(Line)
    pos, number = 0, 0  # text[pos] is the \n ending line `number`
    for m in _OTHER_LINE.finditer(text):
        start = m.start()
        if start > pos:  # lines number+1 ... : block items
            chunk = text[pos + 1:start]
            block = reader.block
            lines = chunk.split("\n")
            if block is None or "#" in chunk:
                for n, raw in enumerate(lines, number + 1):
                    reader.line(n, raw)
            else:
                numbers = range(number + 1, number + 1 + len(lines))
                block.extend(map(new_tuple, of_line,
                                 zip(numbers, map(str.strip, lines), strict=True)))
            number += len(lines)
        end = text.find("\n", start + 1)
        if end < 0:
            end = len(text)
        number += 1
        reader.line(number, text[start + 1:end])
        pos = end
    if pos + 1 < len(text):
        lines = text[pos + 1:].split("\n")
        for n, raw in enumerate(lines, number + 1):
            reader.line(n, raw)
    return reader.finish()


# The start of a line that is not `Word: ...` (a colon ending the first word; a run of such
# lines with a comment in it is read line by line).
_OTHER_LINE = re.compile(r"\n(?![^\n :#]*:)")
# Characters str.splitlines breaks lines at besides \n and \r.
_ODD_BREAKS = "\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


class _Reader:
    """The state of reading a file: the current case and block, the cases read."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.cases: list[Case] = []
        self.variant, self.variant_line = "standard", 0
        self.rulebook: Line | None = None
        self.case: Case | None = None
        self.block: list[Line] | None = None

    def line(self, number: int, raw: str) -> None:
        """One line of the file."""
        content = (raw.split("#", 1)[0] if "#" in raw else raw).strip()
        if not content:
            return
        word, _, rest = content.partition(" ")
        keyword = word.upper()
        path = self.path

        if keyword not in KEYWORDS:
            # A block item (most lines): `Power: ...` cannot be a keyword.
            if ":" not in content:
                unknown = _unknown_keyword(word, content)
                if unknown is not None:
                    raise self._fail(number, unknown)
            if self.block is None:
                raise ScenarioSyntaxError(
                    path, number, f"{content!r} is neither a keyword nor inside a block"
                )
            self.block.append(Line(number, content))
            return

        rest = rest.strip()
        self.block = None
        case = self.case
        if keyword in SINGLE_LINE and not rest:
            raise self._fail(number, f"{keyword} needs a value on the same line")
        if keyword in FLAGS and rest:
            raise self._fail(
                number, f"{keyword} takes nothing after it on its line, found {rest!r}"
            )
        if keyword == "VARIANT_ALL":
            if case is not None:
                raise self._fail(number, "VARIANT_ALL inside a case (use VARIANT there)")
            self.variant, self.variant_line = rest, number
            return
        if keyword == "RULEBOOK" and case is None:
            self.rulebook = Line(number, rest)
            return
        if keyword == "CASE":
            if case is not None:
                raise self._fail(number, f"CASE {rest!r} before the END of case {case.name!r}")
            self.case = Case(rest, path, number, self.variant, self.variant_line,
                             rulebook=self.rulebook)
            return
        if case is None:
            raise self._fail(
                number, f"{keyword} outside a case (cases start with CASE and end with END)"
            )
        if keyword == "END":
            if case.poststate_same and "POSTSTATE" in case.blocks:
                raise self._fail(
                    number, f"case {case.name!r} has both POSTSTATE and POSTSTATE_SAME"
                )
            self.cases.append(case)
            self.case = None
        elif keyword == "VARIANT":
            case.variant, case.variant_line = rest, number
        elif keyword == "RULEBOOK":
            case.rulebook = Line(number, rest)
        elif keyword == "PRESTATE_SETPHASE":
            case.setphase = Line(number, rest)
        elif keyword == "POSTSTATE_SETPHASE":
            case.post_setphase = Line(number, rest)
        elif keyword == "POSTSTATE_SAME":
            case.poststate_same = True
        else:
            self.block = case.blocks.setdefault(keyword, [])
            if rest:  # `POSTSTATE_WINNERS none`: the block's first item on the keyword's line
                self.block.append(Line(number, rest))

    def _fail(self, number: int, message: str) -> ScenarioSyntaxError:
        return ScenarioSyntaxError(self.path, number, message)

    def finish(self) -> list[Case]:
        if self.case is not None:
            raise ScenarioSyntaxError(
                self.path, self.case.line, f"case {self.case.name!r} has no END"
            )
        return self.cases


def _unknown_keyword(word: str, content: str) -> str | None:
    """An error message if the line looks like a keyword this format does not have."""
    if ":" in content:
        return None
    import difflib  # only for a line that may be a misspelt keyword: rare, and slow to import

    close = difflib.get_close_matches(word.upper(), KEYWORDS, n=1, cutoff=0.75)
    if not (re.fullmatch(_KEYWORDISH, word) or (close and content == word)):
        return None
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown keyword {word!r}{hint}"
