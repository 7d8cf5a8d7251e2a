"""Checks the handlers share: who is signed on, the game's variant and current phase."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from datetime import datetime

from gm.commands.handlers.context import Context, Signed
from gm.commands.values import PhaseCode, PhaseRef
from gm.engine.phase import PhaseType
from gm.engine.rulebook import DEFAULT_RULEBOOK, RULEBOOK_KEY
from gm.engine.variant import Power
from gm.play.deadlines import deadline_after, show
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.variants import Variant, get_variant


def variant_of(game: GameRecord) -> Variant:
    """The game's variant (a stored name the registry does not know is a fault, not a value)."""
    return get_variant(game.variant)


def game_rulebook(game: GameRecord) -> str:
    """The rulebook the game plays (gm.engine.rulebook), as its settings keep it."""
    return str(game.settings.extra.get(RULEBOOK_KEY, DEFAULT_RULEBOOK))


def rulebook_refusal(variant: Variant, rulebook: str) -> str | None:
    """Why `variant` cannot play `rulebook`, or None: the A/F variants' rules (Fast Ferry for
    convoys, A/F removals) are written for the 2000 rulebook's readings."""
    if rulebook != DEFAULT_RULEBOOK and variant.army_fleet:
        return (f"{variant.title} plays its A/F rules (Fast Ferry instead of convoys), written "
                f"for the {DEFAULT_RULEBOOK} rulebook; the {rulebook} rulebook is for the other "
                "variants")
    return None


def variant_label(variant: Variant) -> str:
    """The variant as players know it, with the key a command may name it by when that differs:
    `Standard`, `Deluge II (deluge2)`."""
    if variant.title.replace(" ", "").casefold() == variant.name.casefold():
        return variant.title
    return f"{variant.title} ({variant.name})"


def did_you_mean(written: str, names: Iterable[str]) -> str:
    """`; did you mean France?` for the name closest to `written`, or ""."""
    spelt = {n.casefold(): n for n in names}
    close = difflib.get_close_matches(written.casefold(), spelt, n=1, cutoff=0.6)
    return f"; did you mean {spelt[close[0]]}?" if close else ""


def no_game(ctx: Context, name: str) -> str:
    """Why a command naming game `name` is refused: there is none (the closest named)."""
    games = [g.name for g in games_repo.list_games(ctx.session)]
    return f"there is no game called {name!r}{did_you_mean(name, games)} (LIST shows the games)."


def refresh(ctx: Context, game: GameRecord) -> GameRecord:
    """The game as it is now in this transaction."""
    return games_repo.get_game(ctx.session, game.id)


def as_player(ctx: Context, what: str) -> Signed | None:
    """The signed-on power, or None after writing why `what` is refused."""
    signed = ctx.signed
    if signed is not None and signed.power is None:
        ctx.results.add(f"{what}: refused, you are signed on as the GM; BECOME <power> first "
                        "to act for a power.")
        return None
    if signed is None or signed.power is None:
        ctx.results.add(f"{what}: refused, sign on to a power first (SIGNON <power> <game> "
                        "<password>).")
        return None
    return signed


def as_master(ctx: Context, what: str) -> Signed | None:
    """The GM's sign-on, or None after writing why `what` is refused."""
    signed = ctx.signed
    if signed is not None and signed.master:
        ctx.results.add(f"{what}: refused, you stand in for {signed.power}; BECOME GM first.")
        return None
    if signed is None or signed.power is not None:
        ctx.results.add(f"{what}: refused, only the game's GM may do this (SIGNON GM <game> "
                        "<password> first).")
        return None
    return signed


def open_phase_of(ctx: Context, game: GameRecord) -> PhaseRecord | None:
    """The game's current phase if it is open for orders."""
    phase = phases_repo.current_phase(ctx.session, game.id)
    if phase is None or phase.adjudicated:
        return None
    return phase


def deadline_for(game: GameRecord, phase_type: PhaseType, now: datetime) -> datetime | None:
    """The deadline of a phase opened now: the game's rule for its type, a length of time or a
    time of day in the game's timezone (gm.play.deadlines)."""
    return deadline_after(game.settings, phase_type, now)


def shown_deadline(game: GameRecord, moment: datetime | None, *, seconds: bool = False) -> str:
    """A deadline as replies show it: in the game's timezone and in UTC, or "none"; with
    `seconds`, to the second (a late order's refusal: mail sent a few seconds late)."""
    return "none" if moment is None else show(moment, game.settings.timezone, seconds=seconds)


def phase_name(variant: Variant, phase: PhaseRecord) -> str:
    return variant.format_phase(phase.phase)


def matches_phase(variant: Variant, record: PhaseRecord, ref: PhaseRef) -> bool:
    """Whether the stored phase `record` is the one `ref` names (a code's season letter is the
    start of the season's name in the variant's calendar)."""
    if not isinstance(ref, PhaseCode):
        return record.phase == ref
    # a compact code: same year and type, and the season's name starts with its letter
    return (record.phase.year == ref.year and record.phase.type is ref.type
            and variant.format_phase(record.phase)[:1].upper() == ref.season.upper())


def phase_text(variant: Variant, ref: PhaseRef) -> str:
    """A phase as the command named it: `F1905M`, or `Fall 1905, Movement`."""
    return str(ref) if isinstance(ref, PhaseCode) else variant.format_phase(ref)


def named_power(ctx: Context, game: GameRecord, what: str, name: str) -> Power | None:
    """The power of `game`'s variant that `name` names, or None after writing why not."""
    variant = variant_of(game)
    power = variant.power(name)
    if power is None:
        names = ", ".join(variant.power_names)
        ctx.results.add(f"{what}: {name!r} is not a power of {game.name} (powers: {names}).")
    return power
