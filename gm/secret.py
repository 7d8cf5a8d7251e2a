"""Passwords held in memory (the mail servers' in the configuration, players' and GMs' in
commands): a `Secret` never shows its value in str, repr or logs."""

from __future__ import annotations

from dataclasses import dataclass

MASK = "******"  # a password, wherever one would be shown (str of a Secret, a command's text)


@dataclass(frozen=True, slots=True)
class Secret:
    """A password: compares by value; str is `MASK`, repr `Secret('********')` (`Secret('')`
    when empty); `reveal()` (or `value`) gives the value where it is needed."""

    _value: str

    def reveal(self) -> str:
        return self._value

    @property
    def value(self) -> str:
        return self._value

    def __bool__(self) -> bool:
        return bool(self._value)

    def __repr__(self) -> str:
        return "Secret('********')" if self._value else "Secret('')"

    def __str__(self) -> str:
        return MASK
