"""The reliability record in commands (gm.play.reliability): what the GM is told of a player who
JOINs or stands by, the GM's SUMMARY lines, and the minimum a GM may ask to JOIN (SET JOIN
ONTIME <n>%, gm.play.joining). The record is read by gm.play.reports' `has_choice`, which
loads the adjudicator: it is imported where it is used (gm.commands.catalog)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from gm.commands.handlers.context import Context
from gm.play.joining import RecordShort, record_short
from gm.store import powers as powers_repo
from gm.store.rows import GameRecord

if TYPE_CHECKING:
    from gm.play.reliability import Record


def record_refusal(game: GameRecord, short: RecordShort, what: str) -> str:
    """The reply to a player whose record falls short of the game's minimum to join."""
    return (f"{what}: refused, the GM of {game.name} takes players who ordered at least "
            f"{short.wanted}% of their phases in time (SET JOIN ONTIME); your record: "
            f"{short.on_time}% ({short.in_time} of {short.phases}). RECORD shows it whole.")


def join_refused(ctx: Context, game: GameRecord, what: str) -> bool:
    """Whether the sender's record falls short of the game's minimum to join (the reply says
    so, with the record); a player with no phase to order yet may join."""
    short = record_short(ctx.session, game, ctx.sender)
    if short is None:
        return False
    ctx.results.add(record_refusal(game, short, what))
    return True


def record_for_gm(ctx: Context, address: str) -> str:
    """The line the GM reads of a player: "Record: ..."."""
    from gm.play.reliability import record_line  # as join_refused

    return record_line(ctx.session, address)


def players_records(ctx: Context, game: GameRecord) -> list[str]:
    """The GM's SUMMARY lines: each present player's record."""
    from gm.play.reliability import record_of, summary_line  # as join_refused

    seen: dict[str, Record] = {}
    for power in powers_repo.list_powers(ctx.session, game.id):
        for address in power.addresses:
            if address.lower() not in seen:
                seen[address.lower()] = record_of(ctx.session, address)
    if not seen:
        return []
    return ["The players' records on this server (RECORD; shown to the GM only):",
            *(f"  {summary_line(r)}" for r in seen.values())]


def tell_record(ctx: Context) -> None:
    """RECORD: the sender's own record, whole."""
    from gm.play.reliability import game_lines, record_of, summary_line  # as join_refused

    record = record_of(ctx.session, ctx.sender)
    ctx.results.add("Your record on this server: " + summary_line(record))
    for line in game_lines(record):
        ctx.results.add(f"  {line}")
    if record.games:
        ctx.results.add("(A phase counts in time when your orders arrived by its deadline; a "
                        "seat left by RESIGN, civil disorder or the GM's REPLACE counts as "
                        "abandoned. GMs see this record when you JOIN or STANDBY.)")
