"""A lean runner for the LALR tables Lark builds from a grammar.

Lark compiles grammars/orders.lark (terminals, contextual lexing, the LALR(1) table). Its own
parse loop creates a token object, a parser state and a tree node at every step, which costs
more than everything else in reading an order. This runner walks the same table with the same
lexing rules and hands each reduction straight to the builder method named after the rule,
with the children a Lark Transformer method would receive (anonymous tokens dropped, `_rule`s
and `rule+` helpers inlined, `!rule`s keeping their tokens, `?rule`s with one child collapsed).

The runner needs only the table as plain data (`table_data`), which gm.notation.table_cache keeps
between runs: reading orders then imports and builds nothing of Lark.

Whatever it cannot parse raises NoParse; the caller then asks Lark itself, which gives the
error with line, column and expected terminals. tests/notation/test_orders_parse.py checks that both
paths agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:
    from lark import Lark
    from lark.grammar import Rule

# Bump when the plain-data form of a table (`table_data`) changes.
TABLE_FORMAT = 1


class NoParse(Exception):
    """The text is not in the language (Lark reports the details)."""


class Tok:
    """A token as builder methods see it (the attributes they use of a Lark Token)."""

    __slots__ = ("end_pos", "start_pos", "type", "value")

    def __init__(self, type_: str, value: str, start_pos: int, end_pos: int) -> None:
        self.type = type_
        self.value = value
        self.start_pos = start_pos
        self.end_pos = end_pos

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"Tok({self.type!r}, {self.value!r})"


_END = Tok("$END", "", -1, -1)
_DROP, _KEEP, _SPLICE = 0, 1, 2


# Named tuples rather than dataclasses: reading orders starts with importing this module.
class _Shape(NamedTuple):
    """How one rule's reduction builds its value."""

    origin: str
    size: int
    children: tuple[int, ...]  # _DROP / _KEEP / _SPLICE per symbol of the expansion
    keep_all: bool  # every child is kept as it is
    inline: bool  # `_rule` or a `rule+` helper: its children go into the parent
    callback: str  # builder method name (alias or rule name)
    expand1: bool  # `?rule`: a single child stands for the rule


class _Terminal(NamedTuple):
    """What the lexer needs of one of Lark's terminal definitions."""

    name: str
    is_string: bool  # a literal string (keyword), not a regular expression
    value: str  # the string, or the regular expression as written
    regexp: str  # the pattern as a Python regular expression (flags applied)
    flags: tuple[str, ...]
    priority: int
    max_width: int


class _StateLexer(NamedTuple):
    """The lexer of one parser state: only the terminals that state accepts (Lark's
    contextual lexer), ordered as Lark orders them, keywords recognised inside regex matches."""

    skip: re.Pattern[str]  # the ignored terminals (whitespace), skipped before each token
    scanner: re.Pattern[str]
    # regex terminal -> the keywords it matches in full: exact spelling, and case-folded
    # spelling for case-insensitive keywords
    exact: dict[str, dict[str, str]]
    folded: dict[str, dict[str, str]]


_Match = Callable[[str, int], "re.Match[str] | None"]
_FastLexer = tuple[_Match, _Match, dict[str, dict[str, str]], dict[str, dict[str, str]]]


def table_data(lark: Lark) -> dict[str, Any]:
    """The parts of a compiled Lark LALR parser this runner needs, as plain JSON data
    (so that it can be stored and read back without Lark)."""
    from lark.lexer import PatternStr
    from lark.parsers.lalr_analysis import Shift

    table = lark.parser.parser._parse_table
    shapes: dict[Rule, int] = {}
    shape_list: list[list[Any]] = []

    def shape_index(rule: Rule) -> int:
        if rule not in shapes:
            shapes[rule] = len(shape_list)
            shape_list.append(_shape_data(rule))
        return shapes[rule]

    states = {
        str(state): {
            str(symbol): [1, arg] if action is Shift else [0, shape_index(arg)]
            for symbol, (action, arg) in actions.items()
        }
        for state, actions in table.states.items()
    }
    return {
        "format": TABLE_FORMAT,
        "states": states,
        "shapes": shape_list,
        "start_states": {str(k): v for k, v in table.start_states.items()},
        "end_states": {str(k): v for k, v in table.end_states.items()},
        "terminals": [
            [
                str(t.name),
                isinstance(t.pattern, PatternStr),
                t.pattern.value,
                t.pattern.to_regexp(),
                sorted(t.pattern.flags),
                t.priority,
                t.pattern.max_width,
            ]
            for t in lark.terminals
        ],
        "ignore": sorted(str(name) for name in lark.ignore_tokens),
        "flags": lark.options.g_regex_flags,
    }


class TableParser:
    """Parses text with an LALR table Lark built (`table_data`), building values with a
    builder's methods."""

    def __init__(self, data: dict[str, Any]) -> None:
        if data.get("format") != TABLE_FORMAT:
            raise ValueError(f"table format {data.get('format')!r}, expected {TABLE_FORMAT}")
        shapes = [
            _Shape(o, size, tuple(children), keep_all, inline, callback, expand1)
            for o, size, children, keep_all, inline, callback, expand1 in data["shapes"]
        ]
        steps = [_step(shape) for shape in shapes]
        # The table with plain strings in it; a reduction's argument is its `_step`.
        self._states: dict[int, dict[str, tuple[bool, Any]]] = {
            int(state): {
                symbol: (True, arg) if shift else (False, steps[arg])
                for symbol, (shift, arg) in actions.items()
            }
            for state, actions in data["states"].items()
        }
        self._shapes = tuple(shapes)
        self._start_states: dict[str, int] = dict(data["start_states"])
        self._end_states: dict[str, int] = dict(data["end_states"])
        self._terminals: dict[str, _Terminal] = {
            t[0]: _Terminal(t[0], t[1], t[2], t[3], tuple(t[4]), t[5], t[6])
            for t in data["terminals"]
        }
        self._ignore = frozenset(data["ignore"])
        self._flags: int = data["flags"]
        self._lexers: dict[frozenset[str], _StateLexer] = {}
        # state -> (skip.match, scanner.match, exact, folded) of its _StateLexer
        self._state_lexers: dict[int, _FastLexer] = {}

    @classmethod
    def from_lark(cls, lark: Lark) -> TableParser:
        return cls(table_data(lark))

    @property
    def callbacks(self) -> frozenset[str]:
        """The builder methods this grammar needs (one per rule that makes a value)."""
        return frozenset(s.callback for s in self._shapes if not s.inline)

    @property
    def keywords(self) -> frozenset[str]:
        """Every keyword spelling of the grammar (its string terminals), case-folded."""
        return frozenset(t.value.casefold() for t in self._terminals.values() if t.is_string)

    def parse(self, text: str, start: str, builder: object) -> Any:
        """The value the builder makes for `text` read as the grammar's `start` symbol."""
        states = self._states
        next_token = self._next_token
        state = self._start_states[start]
        stack = [state]
        values: list[Any] = []
        end_state = self._end_states[start]
        token = next_token(text, 0, state)
        kind = token.type
        while True:
            try:
                shift, arg = states[state][kind]
            except KeyError:
                raise NoParse from None
            if shift:
                if token is _END:
                    raise NoParse
                state = arg
                stack.append(state)
                values.append(token)
                token = next_token(text, token.end_pos, state)
                kind = token.type
                continue
            # A reduction, inline: this loop is the hot path of reading orders.
            origin, size, picks, inline, expand1, callback = arg
            if size:
                children = values[-size:]
                del values[-size:]
                del stack[-size:]
            else:
                children = []
            if picks is None:
                kept = children
            else:
                kept = []
                for index, splice in picks:
                    if splice:
                        kept.extend(children[index])
                    else:
                        kept.append(children[index])
            if inline:
                value: Any = kept
            elif expand1 and len(kept) == 1:
                value = kept[0]
            else:
                value = getattr(builder, callback)(kept)
            values.append(value)
            state = states[stack[-1]][origin][1]
            stack.append(state)
            if token is _END and state == end_state:
                return value

    # -- lexing ------------------------------------------------------------------------------
    def _next_token(self, text: str, pos: int, state: int) -> Tok:
        lexer = self._state_lexers.get(state)
        if lexer is None:
            found = self._lexer_for(state)
            lexer = self._state_lexers[state] = (
                found.skip.match, found.scanner.match, found.exact, found.folded
            )
        skip, scan, exact, folded = lexer
        skipped = skip(text, pos)
        if skipped is not None:
            pos = skipped.end()
        if pos >= len(text):
            return _END
        match = scan(text, pos)
        if match is None:
            raise NoParse
        kind = match.lastgroup
        assert kind is not None
        value = match.group()
        keywords = exact.get(kind)
        if keywords is not None:
            kind = keywords.get(value) or folded[kind].get(value.casefold(), kind)
        return Tok(kind, value, pos, match.end())

    def _lexer_for(self, state: int) -> _StateLexer:
        accepts = frozenset(k for k in self._states[state] if k in self._terminals)
        lexer = self._lexers.get(accepts)
        if lexer is None:
            lexer = self._lexers[accepts] = _state_lexer(
                [self._terminals[n] for n in accepts],
                [self._terminals[n] for n in self._ignore],
                self._flags,
            )
        return lexer


# A reduction as the parse loop reads it: (origin, size, picks, inline, expand1, callback), where
# `picks` is None when every child is kept as it is, else (index, splice?) of each kept child.
_Step = tuple[str, int, tuple[tuple[int, bool], ...] | None, bool, bool, str]


def _step(shape: _Shape) -> _Step:
    picks = None
    if not shape.keep_all:
        picks = tuple(
            (index, how == _SPLICE) for index, how in enumerate(shape.children) if how != _DROP
        )
    return (shape.origin, shape.size, picks, shape.inline, shape.expand1, shape.callback)


def _shape_data(rule: Rule) -> list[Any]:
    """One rule's `_Shape`, as plain data."""
    from lark.grammar import Terminal

    options = rule.options
    if options.empty_indices or options.template_source:
        raise ValueError(f"{rule}: `[...]` placeholders and templates are not supported")
    children = []
    for sym in rule.expansion:
        if isinstance(sym, Terminal):
            keep = options.keep_all_tokens or not sym.filter_out
            children.append(_KEEP if keep else _DROP)
        else:
            children.append(_SPLICE if sym.name.startswith("_") else _KEEP)
    origin = str(rule.origin.name)
    return [
        origin,
        len(rule.expansion),
        children,
        all(how == _KEEP for how in children),
        origin.startswith("_") and not rule.alias,
        str(rule.alias or origin),
        bool(options.expand1) and not rule.alias,
    ]


def _state_lexer(
    terminals: list[_Terminal], ignored: list[_Terminal], flags: int
) -> _StateLexer:
    """Lark's BasicLexer rules: order by priority, width, length, name; a string terminal
    that a regex terminal of the same priority matches in full is recognised after that regex
    matches (keywords inside words), and drops out of the scanner when its flags allow.
    Ignored terminals are skipped before each token (they must not overlap the others, as
    whitespace does not)."""
    terminals = sorted(
        terminals,
        key=lambda t: (-t.priority, -t.max_width, -len(t.value), t.name),
    )
    strings = [t for t in terminals if t.is_string]
    exact: dict[str, dict[str, str]] = {}
    folded: dict[str, dict[str, str]] = {}
    embedded: set[str] = set()
    for regex in (t for t in terminals if not t.is_string):
        for string in strings:
            if string.priority != regex.priority:
                continue
            value = string.value
            found = re.match(regex.regexp, value, flags)
            if found is None or found.group(0) != value:
                continue
            string_flags, regex_flags = set(string.flags), set(regex.flags)
            if not string_flags <= {"i"}:
                raise ValueError(f"{string.name}: keyword flags {string_flags} unsupported")
            if "i" in string_flags:
                folded.setdefault(regex.name, {}).setdefault(value.casefold(), string.name)
            else:
                exact.setdefault(regex.name, {}).setdefault(value, string.name)
            if string_flags <= regex_flags:
                embedded.add(string.name)
        if regex.name in exact or regex.name in folded:
            exact.setdefault(regex.name, {})
            folded.setdefault(regex.name, {})
    skip = "|".join(t.regexp for t in ignored)
    return _StateLexer(
        skip=re.compile(f"(?:{skip})+" if skip else "(?!)", flags),
        scanner=_alternation([t for t in terminals if t.name not in embedded], flags),
        exact=exact,
        folded=folded,
    )


def _alternation(terminals: list[_Terminal], flags: int) -> re.Pattern[str]:
    if not terminals:  # a state that accepts only the end: nothing can be read there
        return re.compile("(?!)")
    return re.compile("|".join(f"(?P<{t.name}>{t.regexp})" for t in terminals), flags)
