"""The acknowledgement's picture, drawn once for the same orders on the same board.

A player who sends the same orders again, or asks ORDERS, gets the same picture: its SVG is
taken from the last few drawn in this process (by variant, game, power, the orders, the refused
ones and the units without orders, on an equal board) instead of drawn anew. The same SVG is
then one stored file, drawn into a PNG once (gm.store.outbound). A picture is a pure function of
what it is keyed by, so a remembered one is the one that would be drawn.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Sequence

from gm.engine.orders import AnyOrder
from gm.engine.state import GameState
from gm.engine.units import Unit
from gm.engine.variant import Variant
from gm.pictures.files import Picture
from gm.play.order_pictures import power_orders_picture

KEPT = 64  # pictures remembered (an SVG of the standard board is some 50 kB)

_kept: OrderedDict[Hashable, tuple[Variant, GameState, Picture]] = OrderedDict()
_lock = threading.Lock()


def orders_picture(variant: Variant, state: GameState, game: str, power: str,
                   orders: Sequence[AnyOrder], *, refused: Sequence[AnyOrder] = (),
                   unordered: Sequence[Unit] = ()) -> Picture:
    """`power_orders_picture` of these, remembered (see the module docstring)."""
    try:
        key: Hashable = (variant.name, game, power, tuple(orders), tuple(refused),
                         tuple(unordered), state.phase)
        hash(key)
    except TypeError:  # an order that cannot be a key: drawn as it is
        return power_orders_picture(variant, state, game, power, orders, refused=refused,
                                    unordered=unordered)
    with _lock:
        found = _kept.get(key)
        if found is not None and found[0] is variant and found[1] == state:
            _kept.move_to_end(key)
            return found[2]
    picture = power_orders_picture(variant, state, game, power, orders, refused=refused,
                                   unordered=unordered)
    with _lock:
        _kept[key] = (variant, state, picture)
        _kept.move_to_end(key)
        while len(_kept) > KEPT:
            _kept.popitem(last=False)
    return picture


def forget() -> None:
    """Forget every remembered picture."""
    with _lock:
        _kept.clear()
