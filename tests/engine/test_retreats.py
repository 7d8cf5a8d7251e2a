"""Retreat adjudication on the standard map (DATC 6.H) and the reasons given."""

from __future__ import annotations

from gm.engine.geo import Location
from gm.engine.results import Outcome
from gm.engine.retreats import retreat_options
from tests.support.boards import RETREAT, board, position, result, retreats, std


def test_a_valid_retreat_is_made_and_the_phase_is_cleared() -> None:
    # DATC 6.H.4
    outcome = retreats(
        ["England: F NTH", "Germany: F Kie", "Germany: A Hol"],
        [("England: A Hol", "Ruh")],
        ["England: A Hol - Bel"],
    )
    assert board(outcome) == {"England: F NTH", "Germany: F Kie", "Germany: A Hol",
                              "England: A Bel"}
    assert result(outcome, "England: A Hol - Bel").reason == "retreats to Bel"
    assert outcome.state.dislodged == ()
    assert outcome.state.contested == frozenset()


def test_two_retreats_to_one_province_disband_both() -> None:
    # DATC 6.H.7
    outcome = retreats(
        ["Austria: A Bud", "Austria: A Vie", "Germany: A Mun", "Germany: A Boh"],
        [("Italy: A Vie", "Tri"), ("Italy: A Boh", "Sil")],
        ["Italy: A Vie - Tyr", "Italy: A Boh - Tyr"],
    )
    assert board(outcome) == {"Austria: A Bud", "Austria: A Vie", "Germany: A Mun",
                              "Germany: A Boh"}
    vie = result(outcome, "Italy: A Vie - Tyr")
    assert vie.outcome is Outcome.FAILS
    assert vie.reason == "disbanded: A Boh also retreated to Tyr"


def test_three_retreats_to_one_province_disband_all() -> None:
    # DATC 6.H.8
    outcome = retreats(
        ["England: A Edi", "England: F Yor", "Germany: A Kie", "Germany: A Hol",
         "Russia: A Swe", "Russia: A Nwy"],
        [("England: F Nwy", "Fin"), ("Russia: F Edi", "Lvp"), ("Russia: F Hol", "Ruh")],
        ["England: F Nwy - NTH", "Russia: F Edi - NTH", "Russia: F Hol - NTH"],
    )
    assert "NTH" not in {u.province for u in outcome.state.units}
    assert result(outcome, "Russia: F Hol - NTH").reason == (
        "disbanded: F Nwy, F Edi also retreated to NTH")


def test_illegal_retreats_disband_the_unit() -> None:
    # DATC 6.H.5 (the attacker's origin), 6.H.6 (a standoff), 6.H.13 (no convoy)
    outcome = retreats(
        ["Russia: F Con", "Russia: F Ank", "Austria: A Vie", "France: A Pic"],
        [("Turkey: F Ank", "BLA"), ("Italy: A Boh", "Vie"), ("England: A Pic", "Par")],
        ["Turkey: F Ank - BLA", "Italy: A Boh - Gal", "England: A Pic - Lon"],
        contested=["Gal"],
    )
    assert board(outcome) == {"Russia: F Con", "Russia: F Ank", "Austria: A Vie",
                              "France: A Pic"}
    ank = result(outcome, "Turkey: F Ank - BLA")
    assert ank.outcome is Outcome.ILLEGAL
    assert ank.reason == ("F Ank cannot retreat to BLA: the attacker came from there; "
                          "F Ank is disbanded")
    assert "left empty by a standoff" in result(outcome, "Italy: A Boh - Gal").reason
    assert "not adjacent" in result(outcome, "England: A Pic - Lon").reason
    assert len(outcome.results) == 3  # no extra "no order" lines for these units


def test_support_and_convoy_orders_do_nothing() -> None:
    # DATC 6.H.1, 6.H.3
    outcome = retreats(
        ["Austria: A Ser", "Italy: A Tri", "England: F NTH", "Germany: A Hol"],
        [("Austria: F Tri", "Ven"), ("England: A Hol", "Ruh")],
        ["Austria: F Tri - Alb", "Austria: A Ser S F Tri - Alb", "England: F NTH C A Hol - Yor"],
    )
    assert "Austria: F Alb" in board(outcome)
    assert result(outcome, "Austria: A Ser S F Tri - Alb").outcome is Outcome.ILLEGAL
    assert result(outcome, "England: F NTH C A Hol - Yor").outcome is Outcome.ILLEGAL
    assert result(outcome, "England: A Hol D").reason == "no retreat order: disbanded"


def test_retreat_to_the_convoyed_attackers_origin() -> None:
    # DATC 6.H.11: the attack came by convoy, so Gas is open.
    outcome = retreats(
        ["France: A Mar", "France: A Bur", "France: F MAO", "France: F WMS", "France: F LYO"],
        [("Italy: A Mar", None)],
        ["Italy: A Mar - Gas"],
    )
    assert "Italy: A Gas" in board(outcome)


def test_disband_order() -> None:
    outcome = retreats(["Germany: A Hol"], [("England: A Hol", "Ruh")], ["England: A Hol D"])
    assert board(outcome) == {"Germany: A Hol"}
    assert result(outcome, "England: A Hol D").reason == "disbanded"


def test_a_later_retreat_order_replaces_an_earlier_one() -> None:
    outcome = retreats(
        ["Germany: A Hol"], [("England: A Hol", "Ruh")],
        ["England: A Hol - Bel", "England: A Hol - Kie"],
    )
    assert "England: A Kie" in board(outcome)
    assert result(outcome, "England: A Hol - Bel").reason == "void: replaced by a later order"


def test_retreat_options() -> None:
    # DATC 6.H.16: Spa is contested for both coasts; MAO and Tun are held, TYS is the
    # attacker's origin: LYO and NAf are left.
    state = position(
        "France: F MAO", "France: F Gas", "Italy: F Tun", "Italy: F WMS",
        phase=RETREAT, dislodged=[("France: F WMS", "TYS")], contested=["Spa"],
    )
    assert retreat_options(std(), state, state.dislodged[0]) == (
        Location("LYO"), Location("NAf"))
