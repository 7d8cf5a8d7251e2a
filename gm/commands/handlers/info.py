"""LIST and HELP: answers that change nothing (SUMMARY and HISTORY: handlers.records)."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from gm.commands.handlers.common import game_rulebook, no_game, variant_label, variant_of
from gm.commands.handlers.context import Context
from gm.commands.values import Help, ListGames
from gm.engine.variant import Variant
from gm.store import games as games_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.variants import UnknownVariant, registry


def list_games(ctx: Context, command: ListGames) -> None:
    if command.game is None:
        games = games_repo.list_games(ctx.session)
        if not games:
            ctx.results.add("There are no games yet (CREATE starts one).")
            return
        ctx.results.add("Games:")
        for game in games:
            try:
                label = variant_label(variant_of(game))
            except UnknownVariant:  # listed as stored, so LIST still answers
                label = game.variant
            ctx.results.add(f"  {game.name}: {label}, {game.status.value}")
        return
    found = games_repo.find_game(ctx.session, command.game)
    if found is None:
        ctx.results.add(f"LIST: {no_game(ctx, command.game)}")
        return
    game = found
    variant = variant_of(game)
    phase = phases_repo.current_phase(ctx.session, game.id)
    where = "not started" if phase is None else variant.format_phase(phase.phase)
    ctx.results.add(f"{game.name}: {variant.title}, {game.status.value}, {where}")
    for power in powers_repo.list_powers(ctx.session, game.id):
        who = "taken" if power.addresses else "free"
        ctx.results.add(f"  {power.name}: {who}, {power.status.value.replace('_', ' ')}")


def help_command(ctx: Context, command: Help,
                 help_text: Callable[[str | None, Mapping[str, str]], str]) -> None:
    """`HELP`, `HELP <topic>`, `HELP <variant>` (any of the variant's names): the variant's
    rules and the rulings this service plays them by; `help_text` is the reply on the
    commands (gm.commands.catalog.help)."""
    topic = command.topic
    canonical = registry.canonical_name(topic) if topic and topic.strip() else None
    if canonical is not None:
        ctx.results.add(*_variant_help(registry.get_variant(canonical)).splitlines())
        return
    topics = {v.title: _variant_help(v) for v in map(registry.get_variant, registry.names())}
    ctx.results.add(*help_text(topic, topics).splitlines())
    if ctx.signed is not None and (not topic or not topic.strip()
                                   or topic.strip().upper() == "RULEBOOK"):
        game = ctx.signed.game
        ctx.results.add(f"{game.name} plays the {game_rulebook(game)} rulebook.")


def _variant_help(variant: Variant) -> str:
    return variant.help or f"{variant.title}: the standard rules of Diplomacy (HELP ORDERS)."

