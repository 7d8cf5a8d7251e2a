"""SUMMARY <game>: a summary of a game: its settings, each power's centres and units, who
played each power when (gm.play.seating) and the supply centre counts at the end of each year;
to the GM, the seats whose mail bounces (gm.play.bouncing).

Players' addresses are shown to the GM, and to the game's players unless the game is QUIET
and not yet revealed (REVEAL, or the game's end); anyone else sees "player 1", "player 2".
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game, variant_of
from gm.commands.handlers.gm_settings import shown_late
from gm.commands.handlers.meant_game import meant_game, no_game_meant
from gm.commands.handlers.records import add_rendered, standing
from gm.commands.handlers.reliability import players_records
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.engine.phase import PhaseType
from gm.play.bouncing import bouncing_lines
from gm.play.calendar_event import shown_for
from gm.play.picture_choice import chosen, game_default
from gm.play.press_settings import shown_press
from gm.play.render import render
from gm.play.seating import addresses_hidden, players_lines
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.statuses import GameStatus, PowerStatus

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord, PhaseRecord
    from gm.variants import Variant

@dataclass(frozen=True)
class _PowerView:
    name: str
    centres: int
    units: str
    status: str


@dataclass(frozen=True)
class _YearView:
    label: str  # a year, or "start"
    counts: str  # "Austria 3, England 3, ..."


@dataclass(frozen=True)
class Summary(Command):
    """`SUMMARY mygame`, or `SUMMARY` alone after a sign-on (`game` None: njudge's form, the
    signed-on game)."""

    game: str | None = None


def read_summary(c: list[Token]) -> Draft:
    game = game_name(c[0]) if c else None
    return Draft(lambda line: Summary(line, game))


def handle(ctx: Context, command: Summary) -> None:
    name = command.game or meant_game(ctx)
    if name is None:
        no_game_meant(ctx, "SUMMARY", "SUMMARY mygame")
        return
    game = games_repo.find_game(ctx.session, name)
    if game is None:
        ctx.results.add(f"SUMMARY: {no_game(ctx, name)}")
        return
    variant = variant_of(game)
    ctx.results.game = game.name
    phase = phases_repo.current_phase(ctx.session, game.id)
    powers: list[_PowerView] = []
    deadline = None
    if phase is not None:
        state = phase.state
        statuses = {p.name: p.status for p in powers_repo.list_powers(ctx.session, game.id)}
        for name in variant.power_names:
            status = statuses.get(name, PowerStatus.PLAYING)
            powers.append(_PowerView(
                name, len(state.centres_of(name)),
                ", ".join(str(u) for u in sorted(state.units_of(name))),
                status.value.replace("_", " ")))
        if phase.deadline_at is not None and not phase.adjudicated:
            if game.status is GameStatus.ACTIVE:
                # in the reader's own time too (SET TIMEZONE)
                deadline = shown_for(game.settings, ctx.sender, phase.deadline_at)
            elif game.status is GameStatus.PAUSED:
                deadline = "none while the game is paused"
    settings = game.settings
    late = shown_late(settings)
    records = phases_repo.history(ctx.session, game.id)
    bouncing = bouncing_lines(ctx.session, game) if standing(ctx, game) == "gm" else []
    players = players_lines(ctx.session, game, variant, records,
                            addresses=shows_addresses(ctx, game))
    mine = chosen(game, ctx.sender)
    pictures = game_default(game).upper() + ("" if mine is None else f" (yours: {mine.upper()})")
    add_rendered(ctx, render(
        "reply/summary.txt.j2", game=game.name, title=variant.title, status=game.status.value,
        phase=None if phase is None else variant.format_phase(phase.phase), deadline=deadline,
        press=shown_press(settings),
        late=late, powers=powers,
        quiet="QUIET" + (", revealed" if settings.revealed else "") if settings.quiet else None,
        players=players, years=_centres_by_year(variant, records), pictures=pictures,
        bouncing=bouncing))
    if standing(ctx, game) == "gm":  # the players' reliability records
        for line in players_records(ctx, game):
            ctx.results.add(line)


def shows_addresses(ctx: Context, game: GameRecord) -> bool:
    """Whether the sender may see `game`'s players' addresses: the GM always; a player of the
    game unless they are hidden (gm.play.seating.addresses_hidden); no one else."""
    who = standing(ctx, game)
    return who == "gm" or (who == "player" and not addresses_hidden(game))


def _centres_by_year(variant: Variant, records: list[PhaseRecord]) -> list[_YearView]:
    """The supply centre counts at the start and at the end of each year the game has finished
    (the position of that year's adjustment phase, or else of the next year's first phase)."""
    def counts(record: PhaseRecord) -> str:
        return ", ".join(f"{name} {len(record.state.centres_of(name))}"
                         for name in variant.power_names)

    if not records:
        return []
    years = [_YearView("start", counts(records[0]))]
    for year in sorted({r.phase.year for r in records}):
        end = next((i for i, r in enumerate(records) if r.phase.year > year or (
            r.phase.year == year and r.phase.type is PhaseType.ADJUSTMENT)), None)
        if end is not None and end > 0:
            years.append(_YearView(str(year), counts(records[end])))
    return years


COMMAND = CommandSpec(
    value=Summary,
    keywords=("SUMMARY",),
    rules={"summary": read_summary},
    handle=handle,
    usage={
        "SUMMARY": "SUMMARY takes a game (alone, after a SIGNON: the signed-on game's): "
                   "SUMMARY mygame",
    },
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 40, """\
    SUMMARY <game>             a summary of a game: its settings, the board, who
                               played each power when (addresses to the GM, and to
                               players unless the game is QUIET), the supply
                               centres at the end of each year (to the GM also
                               the seats whose mail bounces), for example:
                               SUMMARY mygame
    SUMMARY                    after a SIGNON (or OBSERVE <game>) line: that
                               game's summary (njudge's form)
"""),
    ),
)
