"""LIST [<game>]: the games on the server, or one game's details: its phase, deadline and
grace, its settings, and its powers' status (njudge's LIST <game> shows a game's deadline
and settings, njudge `data/index`). LIST alone after a sign-on is the signed-on game's
(njudge's `ply/ LIST`); LIST FULL gives every game's details."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING

from lark import Token

from gm.commands.handlers.common import no_game, variant_label, variant_of
from gm.commands.handlers.gm_settings import duration_text, shown_late
from gm.commands.handlers.meant_game import meant_game
from gm.commands.reading import Draft, game_name
from gm.commands.spec import CommandSpec, HelpLines
from gm.commands.values import Command
from gm.engine.phase import PhaseType
from gm.engine.rulebook import DEFAULT_RULEBOOK, RULEBOOK_KEY
from gm.play.calendar_event import shown_for
from gm.play.press_settings import shown_press
from gm.play.stand_in import seated_bots
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store.settings import MANUAL_KEY, NODIAS_KEY
from gm.store.statuses import GameStatus
from gm.variants import UnknownVariant

if TYPE_CHECKING:
    from gm.commands.handlers.context import Context
    from gm.store.rows import GameRecord


@dataclass(frozen=True)
class ListGames(Command):
    """`LIST` (all games, or after a sign-on the signed-on game), `LIST mygame` (one game's
    details) or `LIST FULL` (`full`: every game's details)."""

    game: str | None = None
    full: bool = False


def read_list_games(c: list[Token]) -> Draft:
    game = game_name(c[0]) if c else None
    return Draft(lambda line: ListGames(line, game))


def read_list_full(c: list[Token]) -> Draft:
    return Draft(lambda line: ListGames(line, None, full=True))


def handle(ctx: Context, command: ListGames) -> None:
    name = command.game or (None if command.full else meant_game(ctx))
    if name is None:
        games = games_repo.list_games(ctx.session)
        if not games:
            ctx.results.add("There are no games yet (CREATE starts one).")
            return
        if command.full:
            for game in games:
                _details(ctx, game)
            return
        ctx.results.add("Games:")
        for game in games:
            try:
                label = variant_label(variant_of(game))
            except UnknownVariant:  # listed as stored, so LIST still answers
                label = game.variant
            ctx.results.add(f"  {game.name}: {label}, {game.status.value}")
        return
    found = games_repo.find_game(ctx.session, name)
    if found is None:
        ctx.results.add(f"LIST: {no_game(ctx, name)}")
        return
    _details(ctx, found)


def _details(ctx: Context, game: GameRecord) -> None:
    """One game's details: phase, deadline and grace, settings, its powers' status."""
    try:
        variant = variant_of(game)
    except UnknownVariant:
        ctx.results.add(f"{game.name}: {game.variant}, {game.status.value}")
        return
    phase = phases_repo.current_phase(ctx.session, game.id)
    where = "not started" if phase is None else variant.format_phase(phase.phase)
    ctx.results.add(f"{game.name}: {variant.title}, {game.status.value}, {where}")
    settings = game.settings
    grace = duration_text(settings.grace)
    if phase is not None and not phase.adjudicated and game.status is GameStatus.ACTIVE:
        # in the reader's own time too (SET TIMEZONE)
        shown = ("none" if phase.deadline_at is None
                 else shown_for(game.settings, ctx.sender, phase.deadline_at))
        ctx.results.add(f"  Deadline: {shown}; grace: {grace}")
    else:
        ctx.results.add(f"  Deadlines: {_rules(game)}; grace: {grace}")
    extra = settings.extra
    late = shown_late(settings)
    flags = [f"press {shown_press(settings)}", f"late orders {late}",
             f"early processing {'ON' if settings.early else 'OFF'}",
             "NoDIAS" if extra.get(NODIAS_KEY) else "DIAS",
             f"rulebook {extra.get(RULEBOOK_KEY, DEFAULT_RULEBOOK)}",
             f"time zone {settings.timezone}"]
    if extra.get(MANUAL_KEY):
        flags.append("manual processing")
    if settings.quiet:
        flags.append("QUIET" + (", revealed" if settings.revealed else ""))
    ctx.results.add(f"  Settings: {'; '.join(flags)}")
    powers = powers_repo.list_powers(ctx.session, game.id)
    playing_bots = seated_bots(settings, powers)
    for power in powers:
        who = "taken" if power.addresses else "free"
        if power.name in playing_bots:  # ADD <power> BOT; a QUIET game's players see a player
            who = "taken" if settings.quiet else "the bot"
        ctx.results.add(f"  {power.name}: {who}, {power.status.value.replace('_', ' ')}")


def _rules(game: GameRecord) -> str:
    """How long each kind of phase lasts: "movement 3 days, retreat 1 day, ..."."""
    parts = []
    for kind in (PhaseType.MOVEMENT, PhaseType.RETREAT, PhaseType.ADJUSTMENT):
        rule = game.settings.deadlines.get(kind)
        text = ("none" if rule is None else duration_text(rule)
                if isinstance(rule, timedelta) else f"at {rule:%H:%M}")
        parts.append(f"{kind.value.lower()} {text}")
    return ", ".join(parts)


COMMAND = CommandSpec(
    value=ListGames,
    keywords=("LIST",),
    rules={"list_games": read_list_games, "list_full": read_list_full},
    handle=handle,
    usage={
        "LIST": "LIST takes at most a game name, or FULL: LIST, LIST mygame or LIST FULL",
    },
    without_signon=True,
    answers_only=True,
    help=(
        HelpLines("GAMES", 20, """\
    LIST                       the games on this server (after a SIGNON line:
                               the details of the game signed on to, as on
                               njudge; put LIST before the SIGNON for all)
    LIST <game>                the details of one game: its phase, deadline and
                               grace, settings, and each power's status
    LIST FULL                  the details of every game
"""),
    ),
)
