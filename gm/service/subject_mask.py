"""A reply's Subject masks the passwords its message held, as the reply's body does: the
passwords of the commands read from the body, and those of the Subject read as a command line
("SIGNON France mygame secret", after any Re: or Fwd:)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable

from gm.commands.parse import parse_message
from gm.commands.values import Command
from gm.secret import MASK, Secret

_PREFIX = re.compile(r"^(?:\s*(?:re|fwd?|aw|wg|tr|sv)\s*:\s*)*", re.IGNORECASE)


def _secrets(commands: Iterable[Command]) -> set[str]:
    """The passwords the commands hold."""
    found: set[str] = set()
    for command in commands:
        for field in dataclasses.fields(command):
            value = getattr(command, field.name)
            if isinstance(value, Secret) and value.value:
                found.add(value.value)
    return found


def _masked_words(text: str) -> set[str]:
    """The words of `text`, read as a command line, that the reading masks."""
    words = text.split()
    read = parse_message(text)
    found = _secrets(read)
    for command in read:
        masked = command.line.text.split()
        if len(masked) == len(words):
            found.update(w for w, m in zip(words, masked, strict=True) if m == MASK and w != MASK)
    return found


def masked_subject(subject: str, commands: Iterable[Command]) -> str:
    """`subject` with each word that is a password of `commands`, or of the subject read as a
    command line, shown as MASK."""
    rest = _PREFIX.sub("", subject, count=1)
    secrets = _secrets(commands) | _masked_words(rest)
    if not secrets:
        return subject
    return " ".join(MASK if word in secrets else word for word in subject.split())
