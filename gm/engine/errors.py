"""Order errors a player can cause, as values that quote the input.

An error carries a code (ErrorCode) and the fields its sentence is made of; `compose` below is
the one place that words a code from its fields. A reply that shows an error another way (the
order's own word, the column in the line as sent, a did-you-mean) words the same code with
some fields changed (`OrderError.worded`), never by rewriting the sentence.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class ErrorKind(StrEnum):
    UNREADABLE = "unreadable"  # the text is not an order (with line/column and what was expected)
    UNKNOWN_PROVINCE = "unknown province"  # a name the map does not know (with suggestions)
    AMBIGUOUS = "ambiguous"  # e.g. a fleet move to a split-coast province, coast not determined
    ILLEGAL = "illegal"  # readable but not allowed: not adjacent, no such unit, not yours, ...


class ErrorCode(StrEnum):
    """What an order error says. The fields each code is worded from (`compose`):

    - STATED: `message`, the sentence the check that found the error wrote;
    - NOT_IN_PHASE: `order` (what the order is: its class's name, or a player's word for it)
      and `phase` (`movement`, `retreat`, `adjustment`);
    - NOT_AN_ORDER: `written` (the line, which is no order at all) and `hint` (said after its
      quote, or "");
    - CANNOT_READ_AT: `quoted` (the text), `line` (or "" for a text of one line), `column` and
      `detail` (what was expected there and what was found);
    - UNKNOWN_PROVINCE: `name`, `within` (the order quoted, or "") and `hint`.

    Any code may also have `forms`: the forms in which the order meant is accepted.
    """

    STATED = "stated"
    NOT_IN_PHASE = "not in phase"
    NOT_AN_ORDER = "not an order"
    CANNOT_READ_AT = "cannot read at"
    UNKNOWN_PROVINCE = "unknown province"


Fields = tuple[tuple[str, str], ...]


def compose(code: ErrorCode, fields: Fields) -> str:
    """The sentence of an error of `code` with `fields` (ErrorCode says which it has)."""
    got = dict(fields)
    if code is ErrorCode.NOT_IN_PHASE:
        phase = got["phase"]
        article = "an" if phase[:1] in ("a", "e", "i", "o", "u") else "a"
        text = f"a {got['order']} order is not possible in {article} {phase} phase"
        if phase == "retreat":  # DATC 6.H.1-6.H.4
            text += "; a dislodged unit retreats or disbands"
    elif code is ErrorCode.NOT_AN_ORDER:
        text = (f'Not an order: "{got["written"]}"{got.get("hint", "")}. An order names a unit '
                "and what it does, such as A Par - Bur or F Lon H (HELP ORDERS); a line "
                "SIGNOFF ends the orders of a message.")
    elif code is ErrorCode.CANNOT_READ_AT:
        line = got.get("line", "")
        where = f"line {line}, column {got['column']}" if line else f"column {got['column']}"
        text = f'Cannot read "{got["quoted"]}" at {where}: {got["detail"]}'
    elif code is ErrorCode.UNKNOWN_PROVINCE:
        within = got.get("within", "")
        text = f'Unknown province "{got["name"]}"{f" in {within}" if within else ""}: ' \
               f'{got["hint"]}'
    else:
        text = got["message"]
    if "forms" in got:
        text = f"{text.rstrip()} Accepted forms: {got['forms']}."
    return text


@dataclass(frozen=True)
class OrderError:
    """Why an order was not accepted. `message` is a full sentence quoting `text`, composed from
    `code` and `fields` (`order_error`); an error made with a message alone is STATED, its one
    field the message."""

    kind: ErrorKind
    text: str
    message: str
    suggestions: tuple[str, ...] = ()
    code: ErrorCode = ErrorCode.STATED
    fields: Fields = ()

    def __str__(self) -> str:
        return self.message

    @property
    def worded_from(self) -> Fields:
        """The fields its sentence is composed from (a STATED error made with a message
        alone: the message)."""
        if self.fields or self.code is not ErrorCode.STATED:
            return self.fields
        return (("message", self.message),)

    def field(self, name: str) -> str:
        """The value of one of the error's fields ("" when it has none of that name)."""
        return dict(self.worded_from).get(name, "")

    def worded(self, **changed: str) -> str:
        """The error's sentence with some fields changed (a field given "" is dropped)."""
        return compose(self.code, _changed(self.worded_from, changed))

    def with_fields(self, **changed: str) -> OrderError:
        """The same error with some fields changed or added, its message composed again."""
        fields = _changed(self.worded_from, changed)
        return OrderError(self.kind, self.text, compose(self.code, fields), self.suggestions,
                          self.code, fields)


def _changed(fields: Fields, changed: dict[str, str]) -> Fields:
    got = dict(fields) | changed
    return tuple((name, value) for name, value in got.items() if value != "")


def order_error(
    kind: ErrorKind, text: str, code: ErrorCode, suggestions: tuple[str, ...] = (), **fields: str
) -> OrderError:
    """An error of `code` about the order `text`, its message composed from `fields`."""
    pairs = _changed((), fields)
    return OrderError(kind, text, compose(code, pairs), suggestions, code, pairs)
