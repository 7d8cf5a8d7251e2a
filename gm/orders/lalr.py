"""A lean runner for the LALR tables Lark builds from a grammar.

Lark compiles grammars/orders.lark (terminals, contextual lexing, the LALR(1) table). Its own
parse loop creates a token object, a parser state and a tree node at every step, which costs
more than everything else in reading an order. This runner walks the same table with the same
lexing rules and hands each reduction straight to the builder method named after the rule,
with the children a Lark Transformer method would receive (anonymous tokens dropped, `_rule`s
and `rule+` helpers inlined, `!rule`s keeping their tokens, `?rule`s with one child collapsed).

Whatever it cannot parse raises NoParse; the caller then asks Lark itself, which gives the
error with line, column and expected terminals. tests/test_orders_parse.py checks that both
paths agree.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lark import Lark
from lark.grammar import Rule, Terminal
from lark.lexer import PatternRE, PatternStr, TerminalDef
from lark.parsers.lalr_analysis import Shift


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


@dataclass(frozen=True)
class _Shape:
    """How one rule's reduction builds its value."""

    origin: str
    size: int
    children: tuple[int, ...]  # _DROP / _KEEP / _SPLICE per symbol of the expansion
    keep_all: bool  # every child is kept as it is
    inline: bool  # `_rule` or a `rule+` helper: its children go into the parent
    callback: str  # builder method name (alias or rule name)
    expand1: bool  # `?rule`: a single child stands for the rule


@dataclass(frozen=True)
class _StateLexer:
    """The lexer of one parser state: only the terminals that state accepts (Lark's
    contextual lexer), ordered as Lark orders them, keywords recognised inside regex matches."""

    skip: re.Pattern[str]  # the ignored terminals (whitespace), skipped before each token
    scanner: re.Pattern[str]
    # regex terminal -> the keywords it matches in full: exact spelling, and case-folded
    # spelling for case-insensitive keywords
    exact: dict[str, dict[str, str]]
    folded: dict[str, dict[str, str]]


class TableParser:
    """Parses text with `lark`'s LALR table, building values with a builder's methods."""

    def __init__(self, lark: Lark) -> None:
        table = lark.parser.parser._parse_table
        shapes: dict[Rule, _Shape] = {}
        # The table with plain strings and shapes in it: Lark's symbol names are Token
        # objects, slow to hash and compare.
        self._states: dict[int, dict[str, tuple[bool, Any]]] = {
            state: {
                str(symbol): (
                    (True, arg) if action is Shift else (False, shapes.setdefault(arg, _shape(arg)))
                )
                for symbol, (action, arg) in actions.items()
            }
            for state, actions in table.states.items()
        }
        self._shapes = tuple(shapes.values())
        self._start_states: dict[str, int] = {str(k): v for k, v in table.start_states.items()}
        self._end_states: dict[str, int] = {str(k): v for k, v in table.end_states.items()}
        self._terminals: dict[str, TerminalDef] = {str(t.name): t for t in lark.terminals}
        self._ignore = frozenset(str(name) for name in lark.ignore_tokens)
        self._flags = lark.options.g_regex_flags
        self._lexers: dict[frozenset[str], _StateLexer] = {}
        self._state_lexers: dict[int, _StateLexer] = {}

    @property
    def callbacks(self) -> frozenset[str]:
        """The builder methods this grammar needs (one per rule that makes a value)."""
        return frozenset(s.callback for s in self._shapes if not s.inline)

    def parse(self, text: str, start: str, builder: object) -> Any:
        """The value the builder makes for `text` read as the grammar's `start` symbol."""
        states = self._states
        stack = [self._start_states[start]]
        values: list[Any] = []
        end_state = self._end_states[start]
        token = self._next_token(text, 0, stack[-1])
        while True:
            try:
                shift, arg = states[stack[-1]][token.type]
            except KeyError:
                raise NoParse from None
            if shift:
                if token is _END:
                    raise NoParse
                stack.append(arg)
                values.append(token)
                token = self._next_token(text, token.end_pos, arg)
                continue
            shape: _Shape = arg
            if shape.size:
                children = values[-shape.size :]
                del values[-shape.size :]
                del stack[-shape.size :]
            else:
                children = []
            values.append(_reduce(shape, children, builder))
            stack.append(states[stack[-1]][shape.origin][1])
            if token is _END and stack[-1] == end_state:
                return values[-1]

    # -- lexing ------------------------------------------------------------------------------
    def _next_token(self, text: str, pos: int, state: int) -> Tok:
        lexer = self._state_lexers.get(state)
        if lexer is None:
            lexer = self._state_lexers[state] = self._lexer_for(state)
        skipped = lexer.skip.match(text, pos)
        if skipped is not None:
            pos = skipped.end()
        if pos >= len(text):
            return _END
        match = lexer.scanner.match(text, pos)
        if match is None:
            raise NoParse
        kind = match.lastgroup
        assert kind is not None
        value = match.group()
        if kind in lexer.exact:
            kind = lexer.exact[kind].get(value) or lexer.folded[kind].get(value.casefold(), kind)
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


def _shape(rule: Rule) -> _Shape:
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
    return _Shape(
        origin=origin,
        size=len(rule.expansion),
        children=tuple(children),
        keep_all=all(how == _KEEP for how in children),
        inline=origin.startswith("_") and not rule.alias,
        callback=str(rule.alias or origin),
        expand1=bool(options.expand1) and not rule.alias,
    )


def _reduce(shape: _Shape, children: list[Any], builder: object) -> Any:
    if shape.keep_all:
        kept = children
    else:
        kept = []
        for how, child in zip(shape.children, children, strict=True):
            if how == _KEEP:
                kept.append(child)
            elif how == _SPLICE:
                kept.extend(child)
    if shape.inline:
        return kept
    if shape.expand1 and len(kept) == 1:
        return kept[0]
    method: Callable[[list[Any]], Any] = getattr(builder, shape.callback)
    return method(kept)


def _state_lexer(
    terminals: list[TerminalDef], ignored: list[TerminalDef], flags: int
) -> _StateLexer:
    """Lark's BasicLexer rules: order by priority, width, length, name; a string terminal
    that a regex terminal of the same priority matches in full is recognised after that regex
    matches (keywords inside words), and drops out of the scanner when its flags allow.
    Ignored terminals are skipped before each token (they must not overlap the others, as
    whitespace does not)."""
    terminals = sorted(
        terminals,
        key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name),
    )
    strings = [t for t in terminals if isinstance(t.pattern, PatternStr)]
    exact: dict[str, dict[str, str]] = {}
    folded: dict[str, dict[str, str]] = {}
    embedded: set[str] = set()
    for regex in (t for t in terminals if isinstance(t.pattern, PatternRE)):
        for string in strings:
            if string.priority != regex.priority:
                continue
            value = string.pattern.value
            found = re.match(regex.pattern.to_regexp(), value, flags)
            if found is None or found.group(0) != value:
                continue
            string_flags, regex_flags = set(string.pattern.flags), set(regex.pattern.flags)
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
    skip = "|".join(t.pattern.to_regexp() for t in ignored)
    return _StateLexer(
        skip=re.compile(f"(?:{skip})+" if skip else "(?!)", flags),
        scanner=_alternation([t for t in terminals if t.name not in embedded], flags),
        exact=exact,
        folded=folded,
    )


def _alternation(terminals: list[TerminalDef], flags: int) -> re.Pattern[str]:
    return re.compile("|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in terminals), flags)
