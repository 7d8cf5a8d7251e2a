"""The saved game a message carries for IMPORT and IMPORT REPLAY: its first JSON attachment
(gm.mail.attached) read as a MILA saved game (gm.play.import_mila), or the reply saying what
was wrong and what is accepted."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.commands.handlers.context import Context
from gm.mail.attached import AttachedFile

if TYPE_CHECKING:
    from gm.play.import_mila import SavedGame

ACCEPTED = ("Attach the saved game as a JSON file (application/json, or a file named .json or "
            ".jsonl): a MILA saved game, as the diplomacy package's to_saved_game_format "
            "writes it, or gm's own record (HISTORY <game> FILE).")


def _named(file: AttachedFile) -> str:
    return f"{file.filename or 'the unnamed file'} ({file.content_type})"


def attached_saved_game(ctx: Context, keyword: str) -> tuple[SavedGame, str] | None:
    """The saved game attached to the message and the file's name as the reply quotes it;
    None after the reply says why there is none."""
    from gm.play.import_mila import ImportProblem, load_saved, read_saved_game

    files = ctx.json_files()
    if not files:
        listed = ", ".join(f"{a.filename or 'an unnamed file'} ({a.content_type})"
                           for a in ctx.attachments[:5])
        carries = f"; it carries only {listed}" if listed else ""
        ctx.results.add(f"{keyword}: refused, no saved game is attached to the message"
                        f"{carries}. {ACCEPTED}")
        return None
    file = files[0]
    named = _named(file)
    if len(files) > 1:
        ctx.results.add(f"{keyword}: {len(files)} JSON files are attached; only the first, "
                        f"{named}, is read.")
    try:
        text = file.data.decode("utf-8-sig")
    except UnicodeDecodeError as problem:
        ctx.results.add(f"{keyword}: refused, {named} is not UTF-8 text (byte "
                        f"{problem.start}). {ACCEPTED}")
        return None
    try:
        saved = read_saved_game(load_saved(text))
    except ImportProblem as problem:
        ctx.results.add(f"{keyword}: refused, gm cannot read {named}: {problem}. {ACCEPTED}")
        return None
    except (AttributeError, TypeError, ValueError, KeyError) as problem:
        ctx.results.add(f"{keyword}: refused, {named} is JSON but not shaped as a MILA saved "
                        f"game ({type(problem).__name__}: {str(problem)[:200]}). {ACCEPTED}")
        return None
    return saved, named
