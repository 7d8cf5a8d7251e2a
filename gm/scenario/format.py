"""Reading scenario files (the jDip/DATC test format, extended for the variants).

The reader knows the format's keywords and blocks, not the rules: it returns each case's lines,
numbered, for the runner (gm.scenario.runner) to interpret with the variant. The format is
described in the project's specification (scenario-format.md): `#` starts a comment, blank lines
and leading whitespace are ignored, keywords are case-insensitive, an unknown keyword is an error.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

# Keywords followed by a value on the same line.
SINGLE_LINE = ("VARIANT_ALL", "VARIANT", "CASE", "PRESTATE_SETPHASE", "POSTSTATE_SETPHASE")
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
_KEYWORDISH = re.compile(r"(?i)(?:pre|post)state\w*|variant\w*|case\w*|\w+_\w+")


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


@dataclass
class Case:
    """One CASE ... END: its single-line values and blocks, exactly as written."""

    name: str
    path: str
    line: int
    variant: str
    variant_line: int
    setphase: Line | None = None
    post_setphase: Line | None = None
    poststate_same: bool = False
    blocks: dict[str, list[Line]] = field(default_factory=dict)

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
    cases: list[Case] = []
    variant, variant_line = "standard", 0
    case: Case | None = None
    block: list[Line] | None = None
    keywords = KEYWORDS
    new_line = tuple.__new__  # Line(number, content) without the named tuple's Python __new__
    for number, raw in enumerate(text.splitlines(), start=1):
        content = (raw.split("#", 1)[0] if "#" in raw else raw).strip()
        if not content:
            continue
        word, _, rest = content.partition(" ")
        keyword = word.upper()

        if keyword not in keywords:
            # A block item (most lines): `Power: ...` cannot be a keyword.
            if ":" not in content:
                unknown = _unknown_keyword(word, content)
                if unknown is not None:
                    raise ScenarioSyntaxError(path, number, unknown)
            if block is None:
                raise ScenarioSyntaxError(
                    path, number, f"{content!r} is neither a keyword nor inside a block"
                )
            block.append(new_line(Line, (number, content)))
            continue

        def fail(message: str, number: int = number) -> ScenarioSyntaxError:
            return ScenarioSyntaxError(path, number, message)

        rest = rest.strip()
        block = None
        if keyword in SINGLE_LINE and not rest:
            raise fail(f"{keyword} needs a value on the same line")
        if keyword in FLAGS and rest:
            raise fail(f"{keyword} takes nothing after it on its line, found {rest!r}")
        if keyword == "VARIANT_ALL":
            if case is not None:
                raise fail("VARIANT_ALL inside a case (use VARIANT there)")
            variant, variant_line = rest, number
            continue
        if keyword == "CASE":
            if case is not None:
                raise fail(f"CASE {rest!r} before the END of case {case.name!r}")
            case = Case(rest, path, number, variant, variant_line)
            continue
        if case is None:
            raise fail(f"{keyword} outside a case (cases start with CASE and end with END)")
        if keyword == "END":
            if case.poststate_same and "POSTSTATE" in case.blocks:
                raise fail(f"case {case.name!r} has both POSTSTATE and POSTSTATE_SAME")
            cases.append(case)
            case = None
        elif keyword == "VARIANT":
            case.variant, case.variant_line = rest, number
        elif keyword == "PRESTATE_SETPHASE":
            case.setphase = Line(number, rest)
        elif keyword == "POSTSTATE_SETPHASE":
            case.post_setphase = Line(number, rest)
        elif keyword == "POSTSTATE_SAME":
            case.poststate_same = True
        else:
            block = case.blocks.setdefault(keyword, [])
            if rest:  # `POSTSTATE_WINNERS none`: the block's first item on the keyword's line
                block.append(Line(number, rest))
    if case is not None:
        raise ScenarioSyntaxError(path, case.line, f"case {case.name!r} has no END")
    return cases


def _unknown_keyword(word: str, content: str) -> str | None:
    """An error message if the line looks like a keyword this format does not have."""
    if ":" in content:
        return None
    import difflib  # only for a line that may be a misspelt keyword: rare, and slow to import

    close = difflib.get_close_matches(word.upper(), KEYWORDS, n=1, cutoff=0.75)
    if not (_KEYWORDISH.fullmatch(word) or (close and content == word)):
        return None
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"unknown keyword {word!r}{hint}"
