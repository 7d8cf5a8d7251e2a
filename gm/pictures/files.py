"""A picture as a file: its name, caption and SVG, and its PNG attachment queued undrawn.

Light on purpose (no PNG encoder): the acknowledgement of orders makes its picture while a
message is read, and the sender draws the PNG later (gm.service.sender.draw_pictures).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from gm.store.rows import Attachment


@dataclass(frozen=True)
class Picture:
    """One picture: a file name without extension, its caption and its SVG."""

    stem: str
    caption: str
    svg: str


def file_stem(*words: str) -> str:
    """`demo-spring-1901-movement`: a file name (without extension) made of `words`."""
    return re.sub(r"[^a-z0-9]+", "-", " ".join(words).lower()).strip("-") or "map"


def undrawn_png(filename: str, svg: bytes) -> Attachment:
    """The PNG attachment of the picture `svg`, queued undrawn: the sender draws it once for
    every message carrying it (gm.service.sender.draw_pictures), outside the transaction that
    queued it."""
    return Attachment(filename, "image/png", b"", svg)
