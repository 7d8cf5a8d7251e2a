"""Messages for order text that cannot be read: where, and what would have been accepted.

Expected terminals are shown the way a player writes them. The spellings of one keyword
(`s`, `support`, `supports`) form one rule of the grammar (`_support`) and are shown as its
shortest spelling (`'S'`) when several are possible, so the grammar stays the only list.
When a line is read for a phase (gm.notation.lines passes it as `phase`), only the words of
orders that phase takes are offered: no `R` or `D` in a movement phase, no `S` in a retreat phase.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable, Iterable

from lark import Lark
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.lexer import PatternStr, Token

from gm.engine.errors import ErrorCode, ErrorKind, OrderError, order_error
from gm.engine.phase import PhaseType
from gm.notation.kinds import ADJUSTMENT_KINDS, RETREAT_TOO_KINDS

# Terminals named by what they stand for rather than by their spelling.
_DESCRIBED = {
    "WORD": "a province name",
    "$END": "the end of the order",
    "ICE_ADVANCE": "'Ice advance'",
    "ICE_RETREAT": "'Ice retreat'",
    "COUNT": "a number",
    "ALLY": "a power's name",
    "SUPPORT_EVENT": "'Support'",
}
# Rules whose alternatives are single terminals, named as a whole.
_RULE_NAMES = {"unit_type": "a unit type (A or F)"}
# Shown only when nothing else is possible: brackets and coast marks, and after a name the
# words that would continue it.
_SECONDARY = {"SLASH", "LPAR"}
_AFTER_A_NAME = {"WORD"}
_NEVER = {"_PUNCT"}


@functools.cache
def _groups(lark: Lark) -> tuple[dict[str, str], dict[str, str]]:
    """(terminal -> keyword group, group -> label) from the grammar's keyword rules."""
    singles: dict[str, list[str]] = {}
    parent: dict[str, str] = {}
    for rule in lark.rules:
        origin = rule.origin.name
        inline = origin.startswith("_") and not origin.startswith("__")
        if not rule.expansion or not (inline or origin in _RULE_NAMES):
            continue
        first = rule.expansion[0]
        if len(rule.expansion) == 1 and first.is_term:
            singles.setdefault(origin, []).append(first.name)
        elif not first.is_term and first.name.startswith("_") and origin.startswith("_"):
            parent.setdefault(first.name, origin)
    spelled = {t.name: t.pattern.value for t in lark.terminals if isinstance(t.pattern, PatternStr)}
    group_of: dict[str, str] = {}
    labels: dict[str, str] = {}
    for group, names in singles.items():
        top = group
        while top in parent and parent[top] in singles and parent[top] != top:
            top = parent[top]
        for name in names:
            group_of.setdefault(name, top)
        if top in _RULE_NAMES:
            labels[top] = _RULE_NAMES[top]
        else:
            shortest = min((spelled[n] for n in singles[top] if n in spelled), key=len, default=top)
            labels[top] = _quoted(shortest)
    return group_of, labels


@functools.cache
def _ranks(lark: Lark) -> dict[str, int]:
    """Where the grammar first uses each terminal and defines each rule (grammar order)."""
    rank: dict[str, int] = {}
    for index, rule in enumerate(lark.rules):
        rank.setdefault(rule.origin.name, index)
        for sym in rule.expansion:
            if sym.is_term:
                rank.setdefault(sym.name, index)
    return rank


def _quoted(spelling: str) -> str:
    return f"'{spelling.upper() if len(spelling) == 1 else spelling}'"


# The variant orders' rules (gm.notation.kinds): their own words are shown only in a game that
# allows the kind.
_VARIANT_RULES = {
    "embark": "af",
    "retreat_embark": "af",
    "disembark": "af",
    "ferry": "af",
    "transformation": "transform",
    "keep_fleet": "keep fleet",
    "exchange": "exchange",
    "home": "home",
    "alliance": "alliance",
    "geo_event": "geo",
    "support_event": "geo",
    "create_centre": "geo",
    "stabilize": "geo",
}


_ALL_KINDS = frozenset(_VARIANT_RULES.values())


@functools.cache
def _variant_terminals(lark: Lark) -> dict[str, frozenset[str]]:
    """terminal -> the kinds whose rules alone use it (terminals of the standard orders are
    not listed)."""
    uses: dict[str, set[str]] = {}
    for rule in lark.rules:
        uses.setdefault(rule.origin.name, set()).update(s.name for s in rule.expansion)

    def reach(tops: Iterable[str]) -> set[str]:
        seen: set[str] = set()
        todo = list(tops)
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            todo.extend(uses.get(name, ()))
        return seen

    standard = reach(
        name for name in uses if name in ("unit", "location") or (
            name not in _VARIANT_RULES and name in _order_alternatives(lark)
        )
    )
    found: dict[str, set[str]] = {}
    for rule_name, kind in _VARIANT_RULES.items():
        for name in reach([rule_name]) - standard:
            found.setdefault(name, set()).add(kind)
    terminals = {t.name for t in lark.terminals}
    return {name: frozenset(k) for name, k in found.items() if name in terminals}


_M, _R, _A = PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT
# The phases that take each order rule (gm.notation.phases reads a move in a retreat phase as a
# retreat, a disband in an adjustment phase as a removal, a removal in a retreat as a disband;
# Abstraction2 rule 3: an army retreats onto its fleet by boarding it); the variant rules'
# phases are those of their kinds (gm.notation.kinds).
_RULE_PHASES: dict[str, frozenset[PhaseType]] = {
    "hold": frozenset({_M}),
    "move": frozenset({_M, _R}),
    "support_hold": frozenset({_M}),
    "support_move": frozenset({_M}),
    "convoy": frozenset({_M}),
    "retreat": frozenset({_R}),
    "disband": frozenset({_R, _A}),
    "build": frozenset({_A}),
    "remove": frozenset({_R, _A}),
    "waive": frozenset({_A}),
    "embark": frozenset({_M, _R}),
    "retreat_embark": frozenset({_R}),
    "via_convoy": frozenset({_M}),  # Rulebook: no retreat by convoy (gm.notation.phases)
} | {
    rule: frozenset({_A}) if kind in ADJUSTMENT_KINDS
    else frozenset({_M, _R}) if kind in RETREAT_TOO_KINDS else frozenset({_M})
    for rule, kind in _VARIANT_RULES.items() if rule not in ("embark", "retreat_embark")
}


@functools.cache
def _phase_terminals(lark: Lark) -> dict[str, frozenset[PhaseType]]:
    """terminal -> the phases whose orders use it (terminals of units and places not listed)."""
    uses: dict[str, set[str]] = {}
    for rule in lark.rules:
        uses.setdefault(rule.origin.name, set()).update(s.name for s in rule.expansion)

    def reach(top: str) -> set[str]:  # not into another rule of _RULE_PHASES
        seen: set[str] = set()
        todo = [top]
        while todo:
            name = todo.pop()
            if name not in seen and (name == top or name not in _RULE_PHASES):
                seen.add(name)
                todo.extend(uses.get(name, ()))
        return seen

    common = reach("unit") | reach("location")
    found: dict[str, set[PhaseType]] = {}
    for rule_name, phases in _RULE_PHASES.items():
        for name in reach(rule_name) - common:
            found.setdefault(name, set()).update(phases)
    terminals = {t.name for t in lark.terminals}
    return {name: frozenset(p) for name, p in found.items() if name in terminals}


def _in_phase(names: set[str], lark: Lark, phase: PhaseType | None) -> set[str]:
    """`names` less those only orders of other phases than `phase` use (all of them if none is
    left, or if `phase` is None)."""
    if phase is None:
        return names
    phases = _phase_terminals(lark)
    kept = {n for n in names if n not in phases or phase in phases[n]}
    return kept or names


def _order_alternatives(lark: Lark) -> set[str]:
    return {
        sym.name
        for rule in lark.rules
        if rule.origin.name == "_order"
        for sym in rule.expansion
        if not sym.is_term
    }


def expected_words(
    expected: Iterable[str],
    lark: Lark,
    after_word: bool,
    kinds: frozenset[str] = frozenset(),
    phase: PhaseType | None = None,
) -> list[str]:
    """What a player could have written, in grammar order, each said once (variant words
    only for the variant order `kinds` the game allows; with `phase`, only words of orders
    that phase takes)."""
    variant = _variant_terminals(lark)
    names = _in_phase({n for n in expected if n not in variant or variant[n] & kinds}, lark,
                      phase)
    names -= _NEVER
    if names - _SECONDARY:
        names -= _SECONDARY
    if after_word and names - _AFTER_A_NAME:
        names -= _AFTER_A_NAME
    group_of, labels = _groups(lark)
    spelled = {t.name: t.pattern.value for t in lark.terminals if isinstance(t.pattern, PatternStr)}
    rank = _ranks(lark)
    shown: dict[str, int] = {}
    for name in names:
        group = group_of.get(name)
        together = group is not None and any(
            group_of.get(other) == group for other in names if other != name
        )
        if name in _DESCRIBED:
            word, where = _DESCRIBED[name], rank.get(name, 0)
        elif group is not None and (together or group in _RULE_NAMES):
            word, where = labels[group], rank.get(group, 0)
        else:
            word, where = _quoted(spelled.get(name, name.lower())), rank.get(name, 0)
        if name == "$END":
            where = len(rank)
        shown[word] = min(where, shown.get(word, where))
    return sorted(shown, key=lambda w: shown[w])


def _either(words: list[str]) -> str:
    if not words:
        return "nothing more"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _before(text: str, pos: int) -> str:
    before = " ".join(text[:pos].split())
    return f'after "{before}"' if before else "at the start"


def _line_column(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def accepted(lark: Lark, prepared: str, pos: int, start: str) -> tuple[set[str], bool] | None:
    """The terminals the grammar accepts after `prepared[:pos]`, and whether that prefix ends
    in a word of a name (None if the prefix itself cannot be read). Each candidate terminal is
    tried, so none is listed that would fail."""
    try:
        parser = lark.parse_interactive(prepared[:pos], start=start)
        parser.exhaust_lexer()
        accepts: Callable[[], set[str]] = parser.accepts
        choices = accepts()
    except UnexpectedInput:
        return None
    stack = parser.parser_state.value_stack
    last = stack[-1] if stack else None
    return choices, isinstance(last, Token) and last.type == "WORD"


def unreadable(
    text: str,
    prepared: str,
    error: UnexpectedInput,
    start: str,
    lark: Lark,
    kinds: frozenset[str] = frozenset(),
    phase: PhaseType | None = None,
) -> OrderError:
    """UNREADABLE for a Lark parse error in `text` (`prepared` is what was parsed), offering
    the words of the orders a phase of `phase` takes (any phase's if None)."""
    shown = text.strip()
    if isinstance(error, UnexpectedToken) and error.token.type == "$END":
        expected, after_word = accepted(lark, prepared, len(prepared), start) or (
            set(error.expected),
            False,
        )
        words = expected_words(expected, lark, after_word, kinds, phase)
        if not words and expected_words(expected, lark, after_word, _ALL_KINDS, phase):
            return _at_start(text, prepared, start, lark, kinds, phase)
        message = f'Cannot read "{shown}": it stops too early; expected {_either(words)} next.'
        return OrderError(ErrorKind.UNREADABLE, text, message)
    if isinstance(error, UnexpectedToken):
        pos = error.token.start_pos if error.token.start_pos is not None else 0
        found = error.token.value
        fallback: set[str] = set(error.expected)
    elif isinstance(error, UnexpectedCharacters):
        pos = error.pos_in_stream or 0
        found = text[pos]
        fallback = set(error.allowed or ())
    else:  # pragma: no cover - the LALR parser raises only the two above
        return OrderError(ErrorKind.UNREADABLE, text, f'Cannot read "{shown}".')
    expected, after_word = accepted(lark, prepared, pos, start) or (fallback, False)
    if not expected_words(expected, lark, after_word, kinds, phase) and expected_words(
        expected, lark, after_word, _ALL_KINDS, phase
    ):
        return _at_start(text, prepared, start, lark, kinds, phase)
    return _unexpected(text, pos, found, expected, after_word, lark, kinds=kinds, phase=phase)


def leading_variant(lark: Lark, prepared: str, start: str) -> tuple[str, frozenset[str]] | None:
    """The variant-only terminal that opens `prepared` (`Home`, `Uplift`, `2`, `Support`) and
    the kinds that have it, or None."""
    variant = _variant_terminals(lark)
    pos = len(prepared) - len(prepared.lstrip())
    found = accepted(lark, prepared, pos, start)
    if found is None:
        return None
    terminals = {t.name: t for t in lark.terminals}
    for name in sorted(found[0] & variant.keys()):
        pattern = terminals[name].pattern
        if isinstance(pattern, PatternStr):
            regexp = re.escape(pattern.value) + r"(?![\w'’])"
            flags = re.IGNORECASE if "i" in pattern.flags else 0
        else:
            regexp, flags = pattern.to_regexp(), 0
        if re.match(regexp, prepared[pos:], flags):
            return name, variant[name]
    return None


def at_start(
    text: str,
    prepared: str,
    start: str,
    lark: Lark,
    kinds: frozenset[str],
    phase: PhaseType | None = None,
) -> OrderError:
    return _at_start(text, prepared, start, lark, kinds, phase)


def _at_start(
    text: str,
    prepared: str,
    start: str,
    lark: Lark,
    kinds: frozenset[str],
    phase: PhaseType | None = None,
) -> OrderError:
    """UNREADABLE at the first word, for a text that only a variant order the game does not
    allow would continue (`2 A Par H` in a standard game): what may start an order here."""
    pos = len(prepared) - len(prepared.lstrip())
    end = pos
    while end < len(text) and not text[end].isspace():
        end += 1
    expected, _ = accepted(lark, prepared, pos, start) or (set(), False)
    return _unexpected(text, pos, text[pos:end], expected, False, lark, kinds=kinds, phase=phase)


def _unexpected(
    text: str,
    pos: int,
    found: str,
    expected: Iterable[str],
    after_word: bool,
    lark: Lark,
    hint: str = "",
    kinds: frozenset[str] = frozenset(),
    phase: PhaseType | None = None,
) -> OrderError:
    line, column = _line_column(text, pos)
    words = expected_words(expected, lark, after_word, kinds, phase)
    return order_error(
        ErrorKind.UNREADABLE,
        text,
        ErrorCode.CANNOT_READ_AT,
        quoted=text.strip(),
        line=str(line),
        column=str(column),
        detail=f'expected {_either(words)} {_before(text, pos)}, not "{found}"{hint}.',
    )


def stray_word(
    text: str,
    prepared: str,
    pos: int,
    start: str,
    lark: Lark,
    kinds: frozenset[str] = frozenset(),
    phase: PhaseType | None = None,
) -> OrderError:
    """UNREADABLE for a word at `pos` that follows a complete name but belongs to none
    (`A Par suports Mar`): what the grammar accepts there, and the closest keyword."""
    expected, _ = accepted(lark, prepared, pos, start) or (set(), True)
    end = pos
    while end < len(text) and not text[end].isspace() and text[end] not in "-/()":
        end += 1
    found = text[pos:end]
    terminals = {t.name: t for t in lark.terminals}
    variant = _variant_terminals(lark)
    keywords = [
        terminals[n].pattern.value
        for n in _in_phase(set(expected), lark, phase)
        if n in terminals
        and isinstance(terminals[n].pattern, PatternStr)
        and (n not in variant or variant[n] & kinds)
    ]
    close = difflib.get_close_matches(found.casefold(), keywords, n=1, cutoff=0.6)
    hint = f" (did you mean '{close[0]}'?)" if close else ""
    return _unexpected(text, pos, found, expected, True, lark, hint, kinds, phase)
