"""The acknowledgement of a player's orders draws them: the reply to a message that sets or
changes orders carries the board with that power's orders as they now stand (its units marked,
moves, supports, convoys, retreats, builds, the variants' own orders; orders refused on arrival
grey, as void orders are in the reports; units still without orders marked "no order"), and
nothing of another power's orders. It follows the reader's SET PICTURES choice; ORDERS asks for
it again, and the GM's PREVIEW draws every power's orders. Through the real Maildir source and
sink, the real service and sender (which draws the PNG), store and adjudicator.

Set GM_ACK_PICTURES=<folder> to keep the acknowledgements' PNGs there, to look at them."""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from email.message import Message
from pathlib import Path

from gm.store.db import Database
from tests.support.mail_table import seven_powers
from tests.support.service_support import GM, PLAYERS

SVG_NS = "{http://www.w3.org/2000/svg}"
KEEP = os.environ.get("GM_ACK_PICTURES")


def _text(msg: Message) -> str:
    part = msg.get_body(preferencelist=("plain",))  # type: ignore[attr-defined]
    return str(part.get_content())


def _html(msg: Message) -> str | None:
    part = msg.get_body(preferencelist=("html",))  # type: ignore[attr-defined]
    return None if part is None else str(part.get_content())


def _images(msg: Message) -> dict[str, bytes]:
    """The images the reply carries, by file name."""
    return {p.get_filename() or "": p.get_payload(decode=True) for p in msg.walk()
            if p.get_content_maintype() == "image"}


def _picture(msg: Message, name: str) -> ET.Element:
    """The reply's SVG picture `name` (SET PICTURES ALL attaches it), its PNG checked: inline
    in the HTML part, and indexed, as a report's is. Kept when GM_ACK_PICTURES says where."""
    images = _images(msg)
    png = images[f"{name}.png"]
    assert png.startswith(b"\x89PNG") and png[25] == 3, "an indexed-colour PNG"
    html = _html(msg)
    assert html is not None and f'src="cid:{name}.png@picture.gm"' in html
    if KEEP:
        Path(KEEP).mkdir(parents=True, exist_ok=True)
        (Path(KEEP) / f"{name}.png").write_bytes(png)
    return ET.fromstring(images[f"{name}.svg"])


def _marks(svg: ET.Element) -> list[tuple[str, str]]:
    """Every order mark drawn: (its mark, its title), in order."""
    found = []
    for g in svg.iter():  # groups, and a hold's ring
        mark = g.get("data-mark")
        if mark is None or mark in ("passage", "split-coast", "retreat-option", "dislodged"):
            continue
        title = g.find(f"{SVG_NS}title")
        found.append((mark, "" if title is None else title.text or ""))
    return found


def _legend(svg: ET.Element) -> dict[str, str]:
    out = {}
    for g in svg.iter(f"{SVG_NS}g"):
        if g.get("data-legend"):
            text = g.find(f"{SVG_NS}text")
            out[g.get("data-legend") or ""] = "" if text is None else text.text or ""
    return out


async def test_movement_orders_are_drawn_and_no_other_powers(database: Database,
                                                              tmp_path: Path) -> None:
    board = seven_powers(database, tmp_path, "alpha")
    await board.start("standard", "SET PICTURES DEFAULT ALL")
    # Germany orders first: nothing of its orders may show in France's picture
    await board.signed("Germany", "A Mun - Bur", "A Ber - Kie", "F Kie - Den")
    reply = await board.signed("France", "A Par - Bur", "A Mar S A Par - Bur", "F Bre - Lon")
    assert '"F Bre - Lon": refused' in _text(reply)
    svg = _picture(reply, "alpha-spring-1901-movement-france-orders")
    assert sorted(_marks(svg)) == [("move-ok", "A Par - Bur"), ("move-void", "F Bre - Lon"),
                                   ("no-order", "F Bre: no order"),
                                   ("support-ok", "A Mar S A Par - Bur")]
    legend = _legend(svg)
    assert legend["move-ok"] == "move ordered" and legend["no-order"] == \
        "unit without an order yet"
    assert legend["move-void"] == "order void or refused (illegal)"
    assert "succeeded" not in "".join(legend.values())  # nothing is adjudicated yet
    # the privacy of the others' orders: no arrow, mark or text of Germany's
    text = ET.tostring(svg, encoding="unicode")
    for german in ("Mun - Bur", "Ber - Kie", "Kie - Den"):
        assert german not in text
    assert "alpha: Spring 1901, Movement, the orders of France as they stand" in text
    # a support of France's own unit that its order does not match is void already, whatever
    # the others order: drawn grey
    reply = await board.signed("France", "F Bre S A Par - Pic")
    svg = _picture(reply, "alpha-spring-1901-movement-france-orders")
    assert sorted(_marks(svg)) == [("move-ok", "A Par - Bur"),
                                   ("move-void", "F Bre S A Par - Pic"),
                                   ("support-ok", "A Mar S A Par - Bur")]
    # Germany's own acknowledgement shows Germany's, and nothing of France's
    reply = await board.signed("Germany", "A Mun H")
    svg = _picture(reply, "alpha-spring-1901-movement-germany-orders")
    assert sorted(_marks(svg)) == [("hold", ""), ("move-ok", "A Ber - Kie"),
                                   ("move-ok", "F Kie - Den")]
    assert "Par - Bur" not in ET.tostring(svg, encoding="unicode")


async def test_retreats_and_builds_are_drawn(database: Database, tmp_path: Path) -> None:
    board = seven_powers(database, tmp_path, "beta")
    await board.start("standard", "SET PICTURES DEFAULT ALL")
    await board.signed("Germany", "A Mun - Bur")
    await board.signed("France", "A Par - Gas", "F Bre - MAO")
    await board.process()
    await board.signed("Germany", "A Bur H")
    await board.signed("France", "A Mar - Bur", "A Gas S A Mar - Bur", "F MAO - Por")
    await board.process()
    # Fall 1901, Retreats: Germany's army dislodged from Burgundy; a CLEAR draws it without
    # an order, where it waits
    reply = await board.signed("Germany", "CLEAR")
    assert _marks(_picture(reply, "beta-fall-1901-retreat-germany-orders")) == [
        ("no-order", "A Bur: no order")]
    reply = await board.signed("Germany", "A Bur - Mar", "A Bur R Ruh")
    assert '"A Bur - Mar": refused' in _text(reply)
    svg = _picture(reply, "beta-fall-1901-retreat-germany-orders")
    assert sorted(_marks(svg)) == [("move-void", "A Bur R Mar"), ("retreat-ok", "A Bur R Ruh")]
    assert _legend(svg)["retreat-ok"] == "retreat ordered"
    await board.process()
    # Winter 1901: France took Portugal, one build; a build outside its home centres refused
    reply = await board.signed("France", "Build A Bur", "Build A Par")
    assert "Builds ordered: 1 of 1." in _text(reply)
    svg = _picture(reply, "beta-winter-1901-adjustment-france-orders")
    assert sorted(_marks(svg)) == [("build", "Build A Par"), ("move-void", "Build A Bur")]
    assert _legend(svg)["build"] == "build ordered"


async def test_the_reader_chooses_and_errors_only_draw_nothing(database: Database,
                                                               tmp_path: Path) -> None:
    board = seven_powers(database, tmp_path, "gamma")
    await board.start("standard")
    # the default (INLINE): the PNG shown in the HTML part, no SVG
    reply = await board.signed("Italy", "A Ven - Tyr")
    assert list(_images(reply)) == ["gamma-spring-1901-movement-italy-orders.png"]
    assert 'src="cid:gamma-spring-1901-movement-italy-orders.png@picture.gm"' in (
        _html(reply) or "")
    assert "A Ven - Tyr  -&gt;  A Ven - Tyr" in (_html(reply) or "")  # the reply's lines too
    # a message whose every order is refused changed nothing: no picture
    reply = await board.signed("Italy", "A Ven - Mun")
    assert '"A Ven - Mun": refused' in _text(reply) and _images(reply) == {}
    assert _html(reply) is None
    # NONE: text only
    reply = await board.signed("Italy", "SET PICTURES NONE", "A Rom - Apu")
    assert "A Rom - Apu  ->  A Rom - Apu" in _text(reply)
    assert _images(reply) == {} and _html(reply) is None


async def test_orders_asks_again_and_preview_draws_every_power(database: Database,
                                                               tmp_path: Path) -> None:
    board = seven_powers(database, tmp_path, "delta")
    await board.start("standard", "SET PICTURES DEFAULT ALL")
    await board.signed("Austria", "A Vie - Gal")
    await board.signed("Russia", "A War - Gal")
    reply = await board.signed("Austria", "ORDERS")
    text = _text(reply)
    assert "Orders of Austria for Spring 1901, Movement:\n  A Vie - Gal\n" in text
    assert "Units without orders: A Bud, F Tri." in text
    svg = _picture(reply, "delta-spring-1901-movement-austria-orders")
    assert _marks(svg) == [("move-ok", "A Vie - Gal"), ("no-order", "A Bud: no order"),
                           ("no-order", "F Tri: no order")]
    assert "War - Gal" not in ET.tostring(svg, encoding="unicode")
    reply = await board.signed("Austria", "ORDERS please")
    assert 'Cannot read "ORDERS please": ORDERS takes nothing after it' in _text(reply)
    reply = await board.send(GM, "SIGNON GM delta gmpass\nORDERS")
    assert "ORDERS: refused, ORDERS lists a power's orders: as the GM, PREVIEW shows" in \
        _text(reply)
    reply = await board.send(PLAYERS["Austria"], "ORDERS")
    assert "ORDERS: refused, sign on to a power first" in _text(reply)
    help_text = _text(await board.send(PLAYERS["Austria"], "HELP ORDERS"))
    assert "ORDERS                     list your orders for the current phase and draw\n" \
        in help_text
    # the GM sees all: both moves to Galicia, bounced, as processing now would give
    reply = await board.send(GM, "SIGNON GM delta gmpass\nPREVIEW")
    svg = _picture(reply, "delta-spring-1901-movement-preview")
    marks = _marks(svg)
    assert ("move-failed", "A Vie - Gal") in marks and ("move-failed", "A War - Gal") in marks
    assert "(preview)" in ET.tostring(svg, encoding="unicode")


async def test_the_variants_own_orders_are_drawn(database: Database, tmp_path: Path) -> None:
    # Abstraction2 rule 3: an army boards a fleet (an A/F)
    board = seven_powers(database, tmp_path / "a", "floes")
    await board.start("Abstraction2", "SET PICTURES DEFAULT ALL")
    await board.signed("England", "F(Ply) - IRI", "F(Edi) - NTH")
    await board.process()
    reply = await board.signed("England", "A(Lvp) boards F(IRI)")
    svg = _picture(reply, "floes-august-1914-movement-england-orders")
    assert ("move-ok", "A Lvp boards F IRI") in _marks(svg)
    assert {t for m, t in _marks(svg) if m == "no-order"} == {"F IRI: no order",
                                                              "F Lon: no order",
                                                              "F NTH: no order"}
    # Deluge II rule 2: an army becomes a fleet
    board = seven_powers(database, tmp_path / "d", "flood")
    await board.start("Deluge II", "SET PICTURES DEFAULT ALL")
    await board.signed("France", "Build A Par", "Build F Bre", "Build A Mar")
    await board.signed("Germany", "Build A Mun")
    await board.process()
    reply = await board.signed("France", "A Mar transforms", "A Par transforms")
    assert '"A Par transforms": refused' in _text(reply)
    svg = _picture(reply, "flood-spring-1901-movement-france-orders")
    marks = _marks(svg)
    assert ("transform", "A Mar transforms") in marks
    assert ("move-void", "A Par transforms") in marks
    # Geophysical rule 3: a terrain event, and its support
    board = seven_powers(database, tmp_path / "g", "geo")
    await board.start("Geophysical", "SET PICTURES DEFAULT ALL")
    await board.signed("Turkey", "Erode Mos")
    reply = await board.signed("Austria", "Support TURKISH Erode Mos", "A Vie - Gal")
    svg = _picture(reply, "geo-spring-1901-movement-austria-orders")
    marks = _marks(svg)
    assert ("geo", "Support TURKISH Erode Mos") in marks or any(
        m == "geo" and re.search(r"Erode Mos", t) for m, t in marks)
    assert ("move-ok", "A Vie - Gal") in marks
    assert not any(t == "Erode Mos" for _, t in marks)  # Turkey's own event is not drawn
