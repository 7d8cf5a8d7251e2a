"""Every picture's heading is new text: the outlines of the texts painted are kept only a
while, so a sender drawing thousands of pictures holds no more memory than for a few."""

from __future__ import annotations

from gm.pictures import paint


def test_the_outlines_kept_are_bounded() -> None:
    kit = paint._Kit()
    letter = kit.outline("A", "12", "bold")
    for n in range(3 * paint.OUTLINES):
        kit.outline(f"game{n}: Spring 1901, Movement, the orders", "16", "bold")
        assert len(kit.outlines) <= paint.OUTLINES + 1
    again = kit.outline("A", "12", "bold")
    assert again[1] == letter[1]  # made again, the same
