"""CREATE <game> <variant> <password> [RULEBOOK 2000|2023]: a new game, with the sender as
its gamemaster."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lark import Token

from gm.commands.reading import Draft, game_name, joined, rulebook_year
from gm.commands.spec import CommandSpec
from gm.commands.values import Create, Secret

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class RulebookWord:
    """The year after RULEBOOK in a CREATE line, checked."""

    value: str


def read_create(c: list[Any]) -> Draft:
    rulebook = c.pop() if isinstance(c[-1], RulebookWord) else None
    game, *variant, password = c
    name, secret = game_name(game), Secret(str(password))
    book = None if rulebook is None else rulebook.value
    return Draft(lambda line: Create(line, name, joined(variant), secret, book),
                 (password,))


def read_rulebook(c: list[Token]) -> RulebookWord:
    return RulebookWord(rulebook_year(str(c[0])))


def handle(ctx: Context, command: Create) -> None:
    from gm.commands.handlers.create import create

    create(ctx, command)


COMMAND = CommandSpec(
    value=Create,
    keywords=("CREATE",),
    rules={"create": read_create, "rulebook": read_rulebook},
    handle=handle,
    usage={
        "CREATE": (
            "CREATE needs a game name, a variant and a password: CREATE mygame Standard secret or"
            " CREATE mygame Deluge II secret"
        ),
    },
    without_signon=True,
    holds_password=True,
)
