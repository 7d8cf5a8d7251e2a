"""The pictures of orders not yet adjudicated: what the acknowledgement of a player's orders
(and ORDERS) shows, one power's orders as they stand on the board now, and what the GM's
PREVIEW shows, every power's orders with the outcomes processing now would give.

A power's picture draws only its own orders: those that stand (in the power's colour, the
legend reading "ordered"), those of the message that were refused on arrival and those that
are void already (grey, as void orders are in the reports: `void_now`), and a "no order" mark
on each of its units still without an order.
Nothing of another power's orders is drawn. The PNG is drawn by the sender, as a report's is
(gm.pictures.files.undrawn_png), and the reader's SET PICTURES choice decides what goes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gm.engine.game import phase_results
from gm.engine.orders import AnyOrder, Convoy, SupportHold, SupportMove
from gm.engine.phase import PhaseType
from gm.engine.reasons import Fate, Reason
from gm.engine.results import OrderResult, Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit
from gm.engine.variant import Variant
from gm.mail.compose import inline_content_id
from gm.pictures.files import Picture, file_stem, undrawn_png
from gm.pictures.svg import render_map_svg
from gm.play.picture_choice import Mode
from gm.store.rows import Attachment


@dataclass(frozen=True)
class ReplyPicture:
    """A picture a reply shows in its HTML part: its caption, the PNG (by `content_id`) and,
    for a reader who chose SET PICTURES ALL, the SVG attached to zoom."""

    caption: str
    attachments: tuple[Attachment, ...]  # the PNG first

    @property
    def content_id(self) -> str:
        return inline_content_id(self.attachments[0].filename)

    @property
    def mention(self) -> str:
        """The text part's line naming the picture's files (a reader of the text alone sees
        them as attachments)."""
        png, *svg = (a.filename for a in self.attachments)
        files = f"{png}; {svg[0]} to zoom" if svg else png
        return f"The board with these orders drawn on it is attached ({files})."


def void_now(variant: Variant, state: GameState, power: str,
             orders: Sequence[AnyOrder]) -> frozenset[int]:
    """Which of `power`'s standing `orders` (by index) adjudication will find void whatever the
    other powers order: a support or convoy of one of the power's own units that its own
    order does not match (`A Mar S A Par - Bur` while A Par holds). The phase is adjudicated
    with the power's orders alone; a support of another power's unit is never judged here
    (its orders are not known to the power)."""
    if state.phase.type is not PhaseType.MOVEMENT:
        return frozenset()
    own = {u.location.province for u in state.units_of(power)}
    helping = {n for n, o in enumerate(orders) if isinstance(o, SupportHold | SupportMove | Convoy)
               and o.target.location.province in own}
    if not helping:
        return frozenset()
    submitted = [Submitted(power, f"#{n}", o) for n, o in enumerate(orders)]
    return frozenset(
        int(r.text[1:]) for r in phase_results(variant, state, submitted)
        if (r.outcome is Outcome.ILLEGAL or r.why.is_void)
        and r.text.startswith("#") and r.text[1:].isdigit() and int(r.text[1:]) in helping)


def power_orders_picture(variant: Variant, state: GameState, game: str, power: str,
                         orders: Sequence[AnyOrder], *, refused: Sequence[AnyOrder] = (),
                         unordered: Sequence[Unit] = ()) -> Picture:
    """`power`'s `orders` as they stand on `state` (the open phase's board), those void
    already and the `refused` ones of the message grey, its `unordered` units marked "no
    order"."""
    phase = variant.format_phase(state.phase)
    void = void_now(variant, state, power, orders)
    results = [OrderResult(power, o, str(o), Outcome.ILLEGAL if n in void else Outcome.SUCCEEDS)
               for n, o in enumerate(orders)]
    results += [OrderResult(power, o, str(o), Outcome.ILLEGAL,
                             Reason(Fate.REFUSED_ON_ARRIVAL))
                for o in refused]
    caption = f"{game}: {phase}, the orders of {power} as they stand"
    svg = render_map_svg(variant, state, caption, results=results, standing=True,
                         unordered=unordered)
    return Picture(file_stem(game, phase, power, "orders"), caption, svg)


def preview_picture(variant: Variant, state: GameState, game: str,
                    results: Sequence[OrderResult]) -> Picture:
    """Every power's orders on `state` with the outcomes processing now would give (PREVIEW,
    the GM's)."""
    phase = variant.format_phase(state.phase)
    caption = f"{game}: {phase}, every power's orders (preview)"
    svg = render_map_svg(variant, state, caption, results=results)
    return Picture(file_stem(game, phase, "preview"), caption, svg)


def reply_picture(picture: Picture, mode: Mode) -> ReplyPicture | None:
    """What a reply carries of `picture` for a reader who chose `mode`: the PNG (drawn when
    sent), the SVG too for ALL, nothing for NONE."""
    if mode == "none":
        return None
    svg = picture.svg.encode("utf-8")
    png = undrawn_png(f"{picture.stem}.png", svg)
    extra = (Attachment(f"{picture.stem}.svg", "image/svg+xml", svg),) if mode == "all" else ()
    return ReplyPicture(picture.caption, (png, *extra))
