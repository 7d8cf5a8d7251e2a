"""Replies as a player reads them, through ingest() (the real command and order parsers, the
real store): late orders are told the deadline once a message, and an order refused on a line
of several orders is quoted with the whole line the player sent."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from gm.service.clock import FixedClock
from gm.store.db import Database
from tests.service.test_service_replies import _game, _orders, _send
from tests.support.service_support import PLAYERS, START


def test_late_orders_say_the_deadline_once_and_list_the_lines(database: Database,
                                                              tmp_path: Path) -> None:
    _game(database, tmp_path)
    late = FixedClock(START + timedelta(days=5))
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Paris - Burgundy\na mar-spa\nF bre - mao",
                  clock=late)
    assert reply.count("the deadline (Wed 2026-03-04 12:00:00 UTC) has passed") == 1, reply
    assert '  line 2: "A Paris - Burgundy": refused, the deadline (Wed 2026-03-04 12:00:00 UTC) ' \
           "has passed." in reply, reply
    assert '  line 3: "a mar-spa": refused, too late.' in reply, reply
    assert '  line 4: "F bre - mao": refused, too late.' in reply, reply


def test_a_refused_order_of_a_line_quotes_the_whole_line(database: Database,
                                                         tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "Germany", "A Par-Bur, A Mun-Ruh")
    assert '  line 2: "A Par-Bur, A Mun-Ruh": A Par - Bur: refused, Germany has no unit to ' \
           "order in Par: A Par is France's." in reply, reply
    assert "  A Mun - Ruh  ->  A Mun - Ruh" in reply, reply
    # an order the board refuses (gm.engine.legality), on a line of several
    reply = _orders(database, tmp_path, "France", "A Par-Bur,  A Mar-Lon")
    assert '  line 2: "A Par-Bur,  A Mar-Lon": A Mar - Lon: refused, A Mar cannot move to ' \
           "Lon" in reply, reply
    # a name nobody knows, on a line of several: the line, and that none of it was taken
    reply = _orders(database, tmp_path, "England", "F Lon-NTH, A Lvp - Xyz")
    assert '  line 2: "F Lon-NTH, A Lvp - Xyz": Unknown province "Xyz"' in reply, reply
    assert "(nothing on this line was taken)" in reply, reply


def test_an_order_of_another_phase_is_named_by_its_word(database: Database,
                                                        tmp_path: Path) -> None:
    """Deluge II starts with Winter 1900's builds (Deluge II rules): a support sent then is
    refused as "a support order", not by the program's name for it."""
    _game(database, tmp_path, variant="deluge2")
    reply = _orders(database, tmp_path, "Austria", "A Ser S A Gal - Rum", "a bud-ser")
    assert '"A Ser S A Gal - Rum": refused, a support order is not possible in an adjustment ' \
           "phase; this phase takes builds" in reply, reply
    assert "supportmove" not in reply, reply
    assert '"a bud-ser": refused, a move order is not possible in an adjustment phase' in reply


def test_a_misspelt_build_is_named(database: Database, tmp_path: Path) -> None:
    """`Bulid A Lon` is not an order; the reply names the word meant."""
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "England", "Bulid A Lon")
    assert "line 2: Not an order: \"Bulid A Lon\" (did you mean 'Build'?). An order names" \
        in reply, reply
    assert "nothing on this line" not in reply, reply
