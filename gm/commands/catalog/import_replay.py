"""IMPORT REPLAY: the saved game attached to the message replayed through gm's adjudicator
(gm.play.import_mila.replay, as `gm import FILE --replay` does): each phase where gm reaches
another position than the file's next phase, and the count."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from gm.commands.handlers.saved_games import attached_saved_game
from gm.commands.reading import Draft
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context


@dataclass(frozen=True)
class ImportReplay(Command):
    """`IMPORT REPLAY`, the saved game attached."""


def read_import_replay(c: list[Any]) -> Draft:
    return Draft(lambda line: ImportReplay(line))


def handle(ctx: Context, command: ImportReplay) -> None:
    from gm.play.import_mila import replay, replay_lines

    found = attached_saved_game(ctx, "IMPORT REPLAY")
    if found is None:
        return
    saved, named = found
    disagreements = replay(saved)
    verdict = "gm disagrees with it" if disagreements else "gm agrees with every phase"
    ctx.results.add(f"IMPORT REPLAY: {named}, {saved.variant.title}, replayed through gm's "
                    f"adjudicator: {verdict}.", *replay_lines(saved, disagreements))


COMMAND = CommandSpec(
    value=ImportReplay,
    keywords=("IMPORT",),
    rules={"import_replay": read_import_replay},
    handle=handle,
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GM", 22, """\
    IMPORT REPLAY                          the saved game attached, replayed
                                           by gm's adjudicator: the phases
                                           where gm reaches another position
"""),
    ),
)
