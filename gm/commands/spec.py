"""What one email command is, as its module in gm.commands.catalog declares it (`COMMAND`).

In the manner of GNU Mailman's email commands, a command says everything about itself in one
place: the keyword(s) its lines start with, the grammar rule(s) it is read from (the rules
themselves are in grammars/commands.lark; the command turns each rule's parse tree into its
value), what a player is told when its line cannot be read, the value it gives, and what it
does (its handler).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from gm.commands.reading import Reader
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context

# What a command does: run one value of it against the message's context.
Handler = Callable[["Context", Any], None]
# The words of a line that was not read with its passwords masked (gm.secret.MASK), or None when
# the line is not of the command's shape (CommandSpec.masks).
Masker = Callable[[Sequence[str]], list[str] | None]


# The HELP topics in the order the index lists them; each is made of the lines every command
# gives it (CommandSpec.help; gm.commands.catalog.HELP_TOPICS puts them together by place).
TOPIC_ORDER = ("SIGNON", "ORDERS", "PRESS", "SET", "GAMES", "GM", "DEADLINES", "RULEBOOK")


@dataclass(frozen=True)
class HelpLines:
    """Lines a command adds to a HELP topic (`HELP SET`, ...): `text` (whole lines, each ending
    in a newline) at `place` among the topic's lines, which are shown by place."""

    topic: str
    place: int
    text: str


@dataclass(frozen=True)
class CommandSpec:
    """One email command.

    value: the value it gives (a gm.commands.values.Command, defined in the command's module).
    keywords: the first words of its lines, upper case (a line starting with one of them is
        read by the grammar; several commands may share one, as the SET ones do).
    rules: grammar rule (or alias) name -> the reader that makes the value from its parse tree.
    usage: keyword -> what the command needs, with an example, told when a line starting with
        that keyword cannot be read (a SET command gives it under `set_usage`, by the word after
        SET).
    handle: what it does; None for SIGNOFF, which the dispatcher itself honours.
    without_signon: whether it runs in a message that has no (accepted) SIGNON before it.
    holds_password: whether its line may end with a password (masked when the line is quoted
        back without having been read).
    masks: where its passwords are when not only at the end of the line (`Masker`: tried
        before the last-word rule of holds_password, for a line of its keyword not read).
    set_words: a SET command's settings as "SET needs one of ..." names them (("DRAW",
        "NO DRAW")); `player_setting`: whether players give it (named first there).
    answers_only: whether it changes nothing and only answers (HELP, LIST, MAP, ...): the same
        line again in a message is answered once, and past what one reply may carry it is left
        out and named (gm.commands.reply_cap).
    help: its lines in the HELP topics (gm.commands.catalog.help assembles each topic from
        every command's lines, in the order of their places).
    """

    value: type[Command]
    keywords: tuple[str, ...]
    rules: Mapping[str, Reader]
    handle: Handler | None
    usage: Mapping[str, str] = field(default_factory=dict)
    set_usage: Mapping[str, str] = field(default_factory=dict)
    without_signon: bool = False
    holds_password: bool = False
    masks: Masker | None = None
    set_words: tuple[str, ...] = ()
    player_setting: bool = False
    answers_only: bool = False
    help: tuple[HelpLines, ...] = ()
