"""CREATE <game> <variant> <password> [RULEBOOK 2000|2023]: a new game, with the sender as
its gamemaster. njudge's order of words, CREATE ?<game> <password> [<variant>] (njudge
`data/index`; Standard when no variant is named), creates the same game: here the creator is
its GM at once (on njudge a player, who then sends BECOME MASTER, njudge `data/master`)."""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lark import Token

from gm.commands.handlers.common import rulebook_refusal, variant_label
from gm.commands.handlers.context import Signed
from gm.commands.reading import Draft, game_name, joined, rulebook_year
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.play import creating
from gm.secret import MASK, Secret
from gm.variants import Variant, get_variant, names
from gm.variants.registry import canonical_name

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


@dataclass(frozen=True)
class RulebookWord:
    """The year after RULEBOOK in a CREATE line, checked."""

    value: str


@dataclass(frozen=True)
class Create(Command):
    """`CREATE mygame Deluge II secret`: `variant` as written (one to three words)."""

    game: str
    variant: str
    password: Secret
    rulebook: str | None = None  # `... RULEBOOK 2023` (gm.engine.rulebook); None: the default
    judge: bool = False  # written njudge's way: CREATE ?mygame secret [variant]


def read_create(c: list[Any]) -> Draft:
    rulebook = c.pop() if isinstance(c[-1], RulebookWord) else None
    game, *variant, password = c
    name, secret = game_name(game), Secret(str(password))
    book = None if rulebook is None else rulebook.value
    return Draft(lambda line: Create(line, name, joined(variant), secret, book),
                 (password,))


def read_create_judge(c: list[Any]) -> Draft:
    """`CREATE ?mygame secret [Deluge II]`: njudge's order (game, password, variant)."""
    rulebook = c.pop() if isinstance(c[-1], RulebookWord) else None
    game, password, *variant = c
    name, secret = game_name(Token("WORD", str(game)[1:])), Secret(str(password))
    book = None if rulebook is None else rulebook.value
    written = joined(variant) or "standard"
    return Draft(lambda line: Create(line, name, written, secret, book, judge=True),
                 (password,))


def read_rulebook(c: list[Token]) -> RulebookWord:
    return RulebookWord(rulebook_year(str(c[0])))


@dataclass
class _CapRefusals:
    """The CREATE lines of one message refused for the cap on forming games after the first
    (which the reply explains): counted, and told in one line at the message's end."""

    ctx: Context
    told: bool = False  # the first refusal, explained in the reply
    names: list[str] = field(default_factory=list)  # the games of the later ones

    def command_starts(self, command: Command) -> None:
        pass

    def message_ends(self) -> None:
        if self.names:
            shown = ", ".join(self.names[:10]) + (", ..." if len(self.names) > 10 else "")
            self.ctx.results.add(f"CREATE: {len(self.names)} more games refused the same way "
                                 f"({shown}).")


def _cap_refusal(ctx: Context, command: Create, mine: tuple[str, ...]) -> None:
    """Say the sender has as many forming games as an address may (the service's
    `max_forming_games`), once a message; later lines are counted."""
    refusals = ctx.keep(_CapRefusals, _CapRefusals)
    if refusals.told:
        refusals.names.append(command.game)
        return
    refusals.told = True
    ctx.results.add(f"CREATE {command.game}: refused, {ctx.sender} has {len(mine)} games not "
                    f"yet started ({', '.join(mine)}), the most one address may have here. "
                    "START one (or FORCE BEGIN it), or TERMINATE one you do not need, then "
                    "CREATE again.")


def handle(ctx: Context, command: Create) -> None:
    done = creating.create(ctx.session, command.game, command.variant, command.password.value,
                           command.rulebook, now=ctx.now, actor=ctx.sender,
                           cap=ctx.limits.forming_games, inbound_id=ctx.inbound_id)
    match done:
        case creating.OverCap(forming=mine):
            _cap_refusal(ctx, command, mine)
        case creating.CreateRefusal.NO_PASSWORD | creating.CreateRefusal.NO_VARIANT:
            ctx.results.add(_unknown_variant(command) + ".")
        case creating.RulebookRefused(variant=variant, rulebook=rulebook):
            ctx.results.add(f"CREATE: refused, {rulebook_refusal(variant, rulebook)}.")
        case creating.CreateRefusal.NAME_TAKEN:
            ctx.results.add(f"CREATE: a game called {command.game!r} exists already; "
                            "choose another name.")
        case creating.Created(game=game, variant=variant, rulebook=rulebook):
            _created(ctx, command, game, variant, rulebook)


def _created(ctx: Context, command: Create, game: GameRecord, variant: Variant,
             rulebook: str) -> None:
    """Sign the sender on as the new game's GM and say what the game is."""
    ctx.signed = Signed(game, None)
    ctx.refused_signon = False
    ctx.results.game = game.name
    ctx.results.add(f"Game {game.name} ({variant.title}) created; you are its GM.",
                    f"Rulebook: {rulebook} (SET RULEBOOK 2000|2023 changes it before START; "
                    "HELP RULEBOOK).",
                    f"Powers: {', '.join(variant.power_names)}.",
                    "Players JOIN it, or you ADD them; then START it.")
    if command.judge:
        ctx.results.add("(Written njudge's way: here CREATE makes you the GM at once, with no "
                        "BECOME MASTER; sign on later with SIGNON GM "
                        f"{game.name} <password>, or SIGNON M{game.name} <password>. To play a "
                        "power in it as well, JOIN it.)")


def _unknown_variant(command: Create) -> str:
    """Why CREATE names no variant: its password is missing (the last word was read as the
    password: `CREATE mygame Deluge II`), or the name is not a variant's (the closest named)."""
    whole = f"{command.variant} {command.password.value}"
    if canonical_name(whole) is not None:  # the variant's name is no secret: shown unmasked
        return (f"line {command.line.number}: CREATE {command.game} {whole}: the password is "
                f"missing; write it after the variant: CREATE {command.game} {whole} secret")
    variants = [get_variant(n) for n in names()]
    spelt = {k.casefold(): v.title for v in variants for k in (v.name, v.title, *v.aliases)}
    close = difflib.get_close_matches(command.variant.casefold(), spelt, n=1, cutoff=0.6)
    hint = f"did you mean {spelt[close[0]]}? " if close else ""
    return (f"{command.line}: there is no variant called {command.variant!r} ({hint}variants: "
            f"{', '.join(variant_label(v) for v in variants)})")


def _mask(words: Sequence[str]) -> list[str] | None:
    """Where CREATE's password is: njudge's `CREATE ?game secret [variant]` after the game,
    `CREATE g v secret RULEBOOK 1999` before RULEBOOK, else the last word."""
    if len(words) > 2 and words[1].startswith("?"):
        return [*words[:2], MASK, *words[3:]]
    if len(words) > 3 and words[-2].upper() == "RULEBOOK":
        return [*words[:-3], MASK, *words[-2:]]
    return None


COMMAND = CommandSpec(
    masks=_mask,
    value=Create,
    keywords=("CREATE",),
    rules={"create": read_create, "create_judge": read_create_judge,
           "rulebook": read_rulebook},
    handle=handle,
    usage={
        "CREATE": (
            "CREATE needs a game name, a variant and a password: CREATE mygame Standard secret or"
            " CREATE mygame Deluge II secret"
        ),
    },
    without_signon=True,
    holds_password=True,
    help=(
        HelpLines("GM", 20, """\
    CREATE <game> <variant> <password>     CREATE mygame Standard secret
                                           CREATE mygame Deluge II secret
    ... RULEBOOK 2000|2023                 the rulebook it plays (HELP RULEBOOK):
                                           CREATE mygame Standard secret RULEBOOK 2023
                                           (one address may have a few games not yet
                                           started: 3 unless the service sets otherwise)
    CREATE ?<game> <password> [<variant>]  njudge's order: the same game (Standard if no
                                           variant is named); you are its GM at once,
                                           no BECOME MASTER needed: CREATE ?mygame secret
"""),
    ),
)
