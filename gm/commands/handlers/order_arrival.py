"""Orders read after the phase they were written for: a message that arrived while an earlier
phase was open, read only once that phase had been adjudicated (the mail server held it past
the hand-over, or the phase was processed early meanwhile). Its orders are not taken for the
phase open now, which the player has not seen. When they were in time for the earlier phase
they are kept aside for it (`kept_late`): the player is told, and the GM gets one notice for
the phase however many powers' orders came so (gm.service.late_orders), with the one command
that processes it again with them (REPROCESS). Otherwise (after that phase's deadline, or no
phase was open) they are refused, and the GM, who may ROLLBACK, is told (`arrived_too_early`)."""

from __future__ import annotations

from gm.commands.handlers.context import Context
from gm.commands.handlers.notices import tell
from gm.play.deadlines import show
from gm.play.render import wrap
from gm.store import phases as phases_repo
from gm.store.rows import GameRecord, PhaseRecord
from gm.variants import Variant


def kept_late(ctx: Context, variant: Variant, game: GameRecord, was: PhaseRecord,
              phase: PhaseRecord) -> list[str]:
    """What the reply says of orders kept aside for the adjudicated phase `was`."""
    name, was_name = variant.format_phase(phase.phase), variant.format_phase(was.phase)
    arrived = show(ctx.arrived, game.settings.timezone, seconds=True)
    return [
        wrap(f"Orders: your message arrived at {arrived}, while {was_name} was open, but it "
             f"could be read only after {was_name} was adjudicated. "
             f"Its orders below are kept for {was_name}: the GM is told, and may process "
             f"{was_name} again with them. They are not taken for {name}, which is open now: "
             f"send your {name} orders too.", "  "),
    ]


def arrived_too_early(ctx: Context, variant: Variant, game: GameRecord,
                      phase: PhaseRecord) -> list[str]:
    """The refusal of the orders of a message that arrived before `phase` opened (lines of
    the reply), and the GM's notice of it (queued)."""
    name = variant.format_phase(phase.phase)
    earlier = [p for p in phases_repo.history(ctx.session, game.id)
               if p.index < phase.index and p.opened_at <= ctx.arrived]
    was = variant.format_phase(earlier[-1].phase) if earlier else "an earlier phase"
    arrived = show(ctx.arrived, game.settings.timezone, seconds=True)
    opened = show(phase.opened_at, game.settings.timezone, seconds=True)
    who = ctx.signed.power if ctx.signed is not None and ctx.signed.power else ctx.sender
    tell(ctx, game.gm_address, game, "orders read after their phase", wrap(
        f"{who}'s message (from {ctx.sender}) arrived at {arrived}, while {was} was open, "
        f"but could be read only after {was} was adjudicated ({name} opened at {opened}). "
        f"Its orders were not used for {was} and were not taken for {name}. If they should "
        f"have counted, ROLLBACK to {was} and ask for them again.", ""))
    return [
        wrap(f"Orders: refused, your message arrived at {arrived}, while {was} was open, but "
             f"it could be read only after {was} was adjudicated ({name} opened at "
             f"{opened}). Its orders were not used for {was}, and they are not taken for "
             f"{name}: send your {name} orders. The GM has been told.", "  "),
    ]
