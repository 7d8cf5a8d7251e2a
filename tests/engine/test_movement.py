"""Movement adjudication on the standard map: DATC section 6 positions and the reasons given.

Positions are the DATC's (v2.4 numbering, Szykman rule, 2000-rulebook convoy intent); the full
DATC files run as scenarios elsewhere. Here each case checks where the units end, which are
dislodged and from where, and the words a player reads.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.geo import Location
from gm.engine.movement import resolve_movement
from gm.engine.orders import (
    AnyOrder,
    Convoy,
    Hold,
    Move,
    Order,
    SupportHold,
    SupportMove,
    UnitSpec,
)
from gm.engine.results import Outcome, Submitted
from gm.engine.state import GameState
from gm.engine.units import Unit, UnitType
from tests.support.boards import board, dislodged, movement, position, result, std, submit

# (case, units before, orders, units after, dislodged: unit -> attacker's origin)
CASES: list[tuple[str, list[str], list[str], list[str], dict[str, str | None]]] = [
    ("6.A.11 simple bounce",
     ["Austria: A Vie", "Italy: A Ven"],
     ["Austria: A Vie - Tyr", "Italy: A Ven - Tyr"],
     ["Austria: A Vie", "Italy: A Ven"], {}),
    ("6.A.12 bounce of three units",
     ["Austria: A Vie", "Germany: A Mun", "Italy: A Ven"],
     ["Austria: A Vie - Tyr", "Germany: A Mun - Tyr", "Italy: A Ven - Tyr"],
     ["Austria: A Vie", "Germany: A Mun", "Italy: A Ven"], {}),
    ("6.B.4 support to unreachable coast allowed",
     ["France: F Gas", "France: F Mar", "Italy: F WMS"],
     ["France: F Gas - Spa/nc", "France: F Mar S F Gas - Spa/nc", "Italy: F WMS - Spa/sc"],
     ["France: F Spa/nc", "France: F Mar", "Italy: F WMS"], {}),
    ("6.B.6 support can be cut from the other coast",
     ["England: F IRI", "England: F NAO", "France: F Spa/nc", "France: F MAO", "Italy: F LYO"],
     ["England: F IRI S F NAO - MAO", "England: F NAO - MAO", "France: F Spa/nc S F MAO",
      "France: F MAO H", "Italy: F LYO - Spa/sc"],
     ["England: F IRI", "England: F MAO", "France: F Spa/nc", "Italy: F LYO"],
     {"France: F MAO": "NAO"}),
    ("6.B.9 supporting with wrong coast",
     ["France: F Por", "France: F MAO", "Italy: F LYO", "Italy: F WMS"],
     ["France: F Por S F MAO - Spa/nc", "France: F MAO - Spa/sc",
      "Italy: F LYO S F WMS - Spa/sc", "Italy: F WMS - Spa/sc"],
     ["France: F Por", "France: F MAO", "Italy: F LYO", "Italy: F Spa/sc"], {}),
    ("6.B.13 coastal crawl not allowed",
     ["Turkey: F Bul/sc", "Turkey: F Con"],
     ["Turkey: F Bul/sc - Con", "Turkey: F Con - Bul/ec"],
     ["Turkey: F Bul/sc", "Turkey: F Con"], {}),
    ("6.C.1 three army circular movement",
     ["Turkey: F Ank", "Turkey: A Con", "Turkey: A Smy"],
     ["Turkey: F Ank - Con", "Turkey: A Con - Smy", "Turkey: A Smy - Ank"],
     ["Turkey: F Con", "Turkey: A Smy", "Turkey: A Ank"], {}),
    ("6.C.3 a disrupted three army circular movement",
     ["Turkey: F Ank", "Turkey: A Con", "Turkey: A Smy", "Turkey: A Bul"],
     ["Turkey: F Ank - Con", "Turkey: A Con - Smy", "Turkey: A Smy - Ank",
      "Turkey: A Bul - Con"],
     ["Turkey: F Ank", "Turkey: A Con", "Turkey: A Smy", "Turkey: A Bul"], {}),
    ("6.C.4 a circular movement with attacked convoy",
     ["Austria: A Tri", "Austria: A Ser", "Turkey: A Bul", "Turkey: F AEG", "Turkey: F ION",
      "Turkey: F ADR", "Italy: F Nap"],
     ["Austria: A Tri - Ser", "Austria: A Ser - Bul", "Turkey: A Bul - Tri",
      "Turkey: F AEG C A Bul - Tri", "Turkey: F ION C A Bul - Tri",
      "Turkey: F ADR C A Bul - Tri", "Italy: F Nap - ION"],
     ["Austria: A Ser", "Austria: A Bul", "Turkey: A Tri", "Turkey: F AEG", "Turkey: F ION",
      "Turkey: F ADR", "Italy: F Nap"], {}),
    ("6.C.5 a disrupted circular movement due to dislodged convoy",
     ["Austria: A Tri", "Austria: A Ser", "Turkey: A Bul", "Turkey: F AEG", "Turkey: F ION",
      "Turkey: F ADR", "Italy: F Nap", "Italy: F Tun"],
     ["Austria: A Tri - Ser", "Austria: A Ser - Bul", "Turkey: A Bul - Tri",
      "Turkey: F AEG C A Bul - Tri", "Turkey: F ION C A Bul - Tri",
      "Turkey: F ADR C A Bul - Tri", "Italy: F Nap - ION", "Italy: F Tun S F Nap - ION"],
     ["Austria: A Tri", "Austria: A Ser", "Turkey: A Bul", "Turkey: F AEG", "Italy: F ION",
      "Turkey: F ADR", "Italy: F Tun"], {"Turkey: F ION": "Nap"}),
    ("6.C.6 two armies with two convoys swap",
     ["England: F NTH", "England: A Lon", "France: F ENG", "France: A Bel"],
     ["England: F NTH C A Lon - Bel", "England: A Lon - Bel", "France: F ENG C A Bel - Lon",
      "France: A Bel - Lon"],
     ["England: F NTH", "England: A Bel", "France: F ENG", "France: A Lon"], {}),
    ("6.D.2 a move cuts support on hold",
     ["Austria: F ADR", "Austria: A Tri", "Austria: A Vie", "Italy: A Ven", "Italy: A Tyr"],
     ["Austria: F ADR S A Tri - Ven", "Austria: A Tri - Ven", "Austria: A Vie - Tyr",
      "Italy: A Ven H", "Italy: A Tyr S A Ven"],
     ["Austria: F ADR", "Austria: A Ven", "Austria: A Vie", "Italy: A Tyr"],
     {"Italy: A Ven": "Tri"}),
    ("6.D.8 failed convoy cannot receive hold support",
     ["Austria: F ION", "Austria: A Ser", "Austria: A Alb", "Turkey: A Gre", "Turkey: A Bul"],
     ["Austria: F ION H", "Austria: A Ser S A Alb - Gre", "Austria: A Alb - Gre",
      "Turkey: A Gre - Nap", "Turkey: A Bul S A Gre"],
     ["Austria: F ION", "Austria: A Ser", "Austria: A Gre", "Turkey: A Bul"],
     {"Turkey: A Gre": "Alb"}),
    ("6.D.10 self dislodgment prohibited",
     ["Germany: A Ber", "Germany: F Kie", "Germany: A Mun"],
     ["Germany: A Ber H", "Germany: F Kie - Ber", "Germany: A Mun S F Kie - Ber"],
     ["Germany: A Ber", "Germany: F Kie", "Germany: A Mun"], {}),
    ("6.D.14 supporting a foreign unit is not enough to prevent dislodgement",
     ["Austria: F Tri", "Austria: A Vie", "Italy: A Ven", "Italy: A Tyr", "Italy: F ADR"],
     ["Austria: F Tri H", "Austria: A Vie S A Ven - Tri", "Italy: A Ven - Tri",
      "Italy: A Tyr S A Ven - Tri", "Italy: F ADR S A Ven - Tri"],
     ["Austria: A Vie", "Italy: A Tri", "Italy: A Tyr", "Italy: F ADR"],
     {"Austria: F Tri": "Ven"}),
    ("6.D.15 defender cannot cut support for attack on itself",
     ["Russia: F Con", "Russia: F BLA", "Turkey: F Ank"],
     ["Russia: F Con S F BLA - Ank", "Russia: F BLA - Ank", "Turkey: F Ank - Con"],
     ["Russia: F Con", "Russia: F Ank"], {"Turkey: F Ank": "BLA"}),
    ("6.D.17 dislodgement cuts supports",
     ["Russia: F Con", "Russia: F BLA", "Turkey: F Ank", "Turkey: A Smy", "Turkey: A Arm"],
     ["Russia: F Con S F BLA - Ank", "Russia: F BLA - Ank", "Turkey: F Ank - Con",
      "Turkey: A Smy S F Ank - Con", "Turkey: A Arm - Ank"],
     ["Russia: F BLA", "Turkey: F Con", "Turkey: A Smy", "Turkey: A Arm"],
     {"Russia: F Con": "Ank"}),
    ("6.D.21 dislodging does not cancel a support cut",
     ["Austria: F Tri", "Italy: A Ven", "Italy: A Tyr", "Germany: A Mun", "Russia: A Sil",
      "Russia: A Ber"],
     ["Austria: F Tri H", "Italy: A Ven - Tri", "Italy: A Tyr S A Ven - Tri",
      "Germany: A Mun - Tyr", "Russia: A Sil - Mun", "Russia: A Ber S A Sil - Mun"],
     ["Austria: F Tri", "Italy: A Ven", "Italy: A Tyr", "Russia: A Mun", "Russia: A Ber"],
     {"Germany: A Mun": "Sil"}),
    ("6.D.33 unwanted support allowed",
     ["Austria: A Ser", "Austria: A Vie", "Russia: A Gal", "Turkey: A Bul"],
     ["Austria: A Ser - Bud", "Austria: A Vie - Bud", "Russia: A Gal S A Ser - Bud",
      "Turkey: A Bul - Ser"],
     ["Austria: A Bud", "Austria: A Vie", "Russia: A Gal", "Turkey: A Ser"], {}),
    ("6.E.1 dislodged unit has no effect on attacker's area",
     ["Germany: A Ber", "Germany: A Kie", "Germany: A Sil", "Russia: A Pru"],
     ["Germany: A Ber - Pru", "Germany: A Kie - Ber", "Germany: A Sil S A Ber - Pru",
      "Russia: A Pru - Ber"],
     ["Germany: A Pru", "Germany: A Ber", "Germany: A Sil"], {"Russia: A Pru": "Ber"}),
    ("6.E.3 no help in dislodging own unit",
     ["Germany: A Ber", "Germany: A Mun", "England: F Kie"],
     ["Germany: A Ber - Kie", "Germany: A Mun S F Kie - Ber", "England: F Kie - Ber"],
     ["Germany: A Ber", "Germany: A Mun", "England: F Kie"], {}),
    ("6.E.5 loser dislodged by another army still has effect",
     ["Germany: F Hol", "Germany: F HEL", "Germany: F SKA", "France: F NTH", "France: F Bel",
      "England: F Edi", "England: F Yor", "England: F NWG", "England: F Lon", "Austria: A Kie",
      "Austria: A Ruh"],
     ["Germany: F Hol - NTH", "Germany: F HEL S F Hol - NTH", "Germany: F SKA S F Hol - NTH",
      "France: F NTH - Hol", "France: F Bel S F NTH - Hol", "England: F Edi S F NWG - NTH",
      "England: F Yor S F NWG - NTH", "England: F NWG - NTH", "England: F Lon S F NWG - NTH",
      "Austria: A Kie S A Ruh - Hol", "Austria: A Ruh - Hol"],
     ["Germany: F Hol", "Germany: F HEL", "Germany: F SKA", "France: F Bel", "England: F Edi",
      "England: F Yor", "England: F NTH", "England: F Lon", "Austria: A Kie", "Austria: A Ruh"],
     {"France: F NTH": "NWG"}),
    ("6.F.9 dislodge of multi-route convoy",
     ["England: F ENG", "England: F NTH", "England: A Lon", "France: F Bre", "France: F MAO"],
     ["England: F ENG C A Lon - Bel", "England: F NTH C A Lon - Bel", "England: A Lon - Bel",
      "France: F Bre S F MAO - ENG", "France: F MAO - ENG"],
     ["England: F NTH", "England: A Bel", "France: F Bre", "France: F ENG"],
     {"England: F ENG": "MAO"}),
    ("6.F.14 simple convoy paradox",
     ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG"],
     ["England: F Lon S F Wal - ENG", "England: F Wal - ENG", "France: A Bre - Lon",
      "France: F ENG C A Bre - Lon"],
     ["England: F Lon", "England: F ENG", "France: A Bre"], {"France: F ENG": "Wal"}),
    ("6.F.15 simple convoy paradox with additional convoy",
     ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG", "Italy: F IRI",
      "Italy: F MAO", "Italy: A NAf"],
     ["England: F Lon S F Wal - ENG", "England: F Wal - ENG", "France: A Bre - Lon",
      "France: F ENG C A Bre - Lon", "Italy: F IRI C A NAf - Wal",
      "Italy: F MAO C A NAf - Wal", "Italy: A NAf - Wal"],
     ["England: F Lon", "England: F ENG", "France: A Bre", "Italy: F IRI", "Italy: F MAO",
      "Italy: A Wal"], {"France: F ENG": "Wal"}),
    ("6.F.16 Pandin's paradox",
     ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG", "Germany: F NTH",
      "Germany: F Bel"],
     ["England: F Lon S F Wal - ENG", "England: F Wal - ENG", "France: A Bre - Lon",
      "France: F ENG C A Bre - Lon", "Germany: F NTH S F Bel - ENG", "Germany: F Bel - ENG"],
     ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG", "Germany: F NTH",
      "Germany: F Bel"], {}),
    ("6.F.17 Pandin's extended paradox (Szykman)",
     ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG", "France: F Yor",
      "Germany: F NTH", "Germany: F Bel"],
     ["England: F Lon S F Wal - ENG", "England: F Wal - ENG", "France: A Bre - Lon",
      "France: F ENG C A Bre - Lon", "France: F Yor S A Bre - Lon",
      "Germany: F NTH S F Bel - ENG", "Germany: F Bel - ENG"],
     ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG", "France: F Yor",
      "Germany: F NTH", "Germany: F Bel"], {}),
    ("6.F.18 betrayal paradox",
     ["England: F NTH", "England: A Lon", "England: F ENG", "France: F Bel", "Germany: F HEL",
      "Germany: F SKA"],
     ["England: F NTH C A Lon - Bel", "England: A Lon - Bel", "England: F ENG S A Lon - Bel",
      "France: F Bel S F NTH", "Germany: F HEL S F SKA - NTH", "Germany: F SKA - NTH"],
     ["England: F NTH", "England: A Lon", "England: F ENG", "France: F Bel", "Germany: F HEL",
      "Germany: F SKA"], {}),
    ("6.F.19 multi-route convoy disruption paradox",
     ["France: A Tun", "France: F TYS", "France: F ION", "Italy: F Nap", "Italy: F Rom"],
     ["France: A Tun - Nap", "France: F TYS C A Tun - Nap", "France: F ION C A Tun - Nap",
      "Italy: F Nap S F Rom - TYS", "Italy: F Rom - TYS"],
     ["France: A Tun", "France: F TYS", "France: F ION", "Italy: F Nap", "Italy: F Rom"], {}),
    ("6.F.20 unwanted multi-route convoy paradox",
     ["France: A Tun", "France: F TYS", "Italy: F Nap", "Italy: F ION", "Turkey: F AEG",
      "Turkey: F EMS"],
     ["France: A Tun - Nap", "France: F TYS C A Tun - Nap", "Italy: F Nap S F ION",
      "Italy: F ION C A Tun - Nap", "Turkey: F AEG S F EMS - ION", "Turkey: F EMS - ION"],
     ["France: A Tun", "France: F TYS", "Italy: F Nap", "Turkey: F AEG", "Turkey: F ION"],
     {"Italy: F ION": "EMS"}),
    ("6.F.21 Dad's army convoy",
     ["Russia: A Edi", "Russia: F NWG", "Russia: A Nwy", "France: F IRI", "France: F MAO",
      "England: A Lvp", "England: F NAO", "England: F Cly"],
     ["Russia: A Edi S A Nwy - Cly", "Russia: F NWG C A Nwy - Cly", "Russia: A Nwy - Cly",
      "France: F IRI S F MAO - NAO", "France: F MAO - NAO", "England: A Lvp - Cly via convoy",
      "England: F NAO C A Lvp - Cly", "England: F Cly S F NAO"],
     ["Russia: A Edi", "Russia: F NWG", "Russia: A Cly", "France: F IRI", "France: F NAO",
      "England: A Lvp"], {"England: F NAO": "MAO", "England: F Cly": None}),
    ("6.F.22 second order paradox with two resolutions",
     ["England: F Edi", "England: F Lon", "France: A Bre", "France: F ENG", "Germany: F Bel",
      "Germany: F Pic", "Russia: A Nwy", "Russia: F NTH"],
     ["England: F Edi - NTH", "England: F Lon S F Edi - NTH", "France: A Bre - Lon",
      "France: F ENG C A Bre - Lon", "Germany: F Bel S F Pic - ENG", "Germany: F Pic - ENG",
      "Russia: A Nwy - Bel", "Russia: F NTH C A Nwy - Bel"],
     ["England: F NTH", "England: F Lon", "France: A Bre", "Germany: F Bel", "Germany: F ENG",
      "Russia: A Nwy"], {"France: F ENG": "Pic", "Russia: F NTH": "Edi"}),
    ("6.F.23 second order paradox with two exclusive convoys",
     ["England: F Edi", "England: F Yor", "France: A Bre", "France: F ENG", "Germany: F Bel",
      "Germany: F Lon", "Italy: F MAO", "Italy: F IRI", "Russia: A Nwy", "Russia: F NTH"],
     ["England: F Edi - NTH", "England: F Yor S F Edi - NTH", "France: A Bre - Lon",
      "France: F ENG C A Bre - Lon", "Germany: F Bel S F ENG", "Germany: F Lon S F NTH",
      "Italy: F MAO - ENG", "Italy: F IRI S F MAO - ENG", "Russia: A Nwy - Bel",
      "Russia: F NTH C A Nwy - Bel"],
     ["England: F Edi", "England: F Yor", "France: A Bre", "France: F ENG", "Germany: F Bel",
      "Germany: F Lon", "Italy: F MAO", "Italy: F IRI", "Russia: A Nwy", "Russia: F NTH"], {}),
    ("6.F.24 second order paradox with no resolution",
     ["England: F Edi", "England: F Lon", "England: F IRI", "England: F MAO", "France: A Bre",
      "France: F ENG", "France: F Bel", "Russia: A Nwy", "Russia: F NTH"],
     ["England: F Edi - NTH", "England: F Lon S F Edi - NTH", "England: F IRI - ENG",
      "England: F MAO S F IRI - ENG", "France: A Bre - Lon", "France: F ENG C A Bre - Lon",
      "France: F Bel S F ENG", "Russia: A Nwy - Bel", "Russia: F NTH C A Nwy - Bel"],
     ["England: F NTH", "England: F Lon", "England: F IRI", "England: F MAO", "France: A Bre",
      "France: F ENG", "France: F Bel", "Russia: A Nwy"], {"Russia: F NTH": "Edi"}),
    ("6.G.2 kidnapping an army",
     ["England: A Nwy", "Russia: F Swe", "Germany: F SKA"],
     ["England: A Nwy - Swe", "Russia: F Swe - Nwy", "Germany: F SKA C A Nwy - Swe"],
     ["England: A Nwy", "Russia: F Swe", "Germany: F SKA"], {}),
    ("6.G.5 swapping with intent",
     ["Italy: A Rom", "Italy: F TYS", "Turkey: A Apu", "Turkey: F ION"],
     ["Italy: A Rom - Apu", "Italy: F TYS C A Apu - Rom", "Turkey: A Apu - Rom",
      "Turkey: F ION C A Apu - Rom"],
     ["Italy: A Apu", "Italy: F TYS", "Turkey: A Rom", "Turkey: F ION"], {}),
    ("6.G.6 swapping with unintended intent",
     ["England: A Lvp", "England: F ENG", "Germany: A Edi", "France: F IRI", "France: F NTH",
      "Russia: F NWG", "Russia: F NAO"],
     ["England: A Lvp - Edi", "England: F ENG C A Lvp - Edi", "Germany: A Edi - Lvp",
      "France: F IRI H", "France: F NTH H", "Russia: F NWG C A Lvp - Edi",
      "Russia: F NAO C A Lvp - Edi"],
     ["England: A Edi", "England: F ENG", "Germany: A Lvp", "France: F IRI", "France: F NTH",
      "Russia: F NWG", "Russia: F NAO"], {}),
    ("6.G.7 swapping with illegal intent",
     ["England: F SKA", "England: F Nwy", "Russia: A Swe", "Russia: F BOT"],
     ["England: F SKA C A Swe - Nwy", "England: F Nwy - Swe", "Russia: A Swe - Nwy",
      "Russia: F BOT C A Swe - Nwy"],
     ["England: F SKA", "England: F Nwy", "Russia: A Swe", "Russia: F BOT"], {}),
    ("6.G.8 explicit convoy that isn't there goes over land",
     ["France: A Bel", "England: F NTH", "England: A Hol"],
     ["France: A Bel - Hol via convoy", "England: F NTH - HEL", "England: A Hol - Kie"],
     ["France: A Hol", "England: F HEL", "England: A Kie"], {}),
    ("6.G.10 swapped or a head-to-head battle",
     ["England: A Nwy", "England: F Den", "England: F Fin", "Germany: F SKA", "Russia: A Swe",
      "Russia: F BAR", "France: F NWG", "France: F NTH"],
     ["England: A Nwy - Swe via convoy", "England: F Den S A Nwy - Swe",
      "England: F Fin S A Nwy - Swe", "Germany: F SKA C A Nwy - Swe", "Russia: A Swe - Nwy",
      "Russia: F BAR S A Swe - Nwy", "France: F NWG - Nwy", "France: F NTH S F NWG - Nwy"],
     ["England: A Swe", "England: F Den", "England: F Fin", "Germany: F SKA", "Russia: F BAR",
      "France: F NWG", "France: F NTH"], {"Russia: A Swe": None}),
    ("6.G.11 a convoy to an adjacent place with a paradox",
     ["England: F Nwy", "England: F NTH", "Russia: A Swe", "Russia: F SKA", "Russia: F BAR"],
     ["England: F Nwy S F NTH - SKA", "England: F NTH - SKA", "Russia: A Swe - Nwy",
      "Russia: F SKA C A Swe - Nwy", "Russia: F BAR S A Swe - Nwy"],
     ["England: F SKA", "England: F Nwy", "Russia: A Swe", "Russia: F BAR"],
     {"Russia: F SKA": "NTH"}),
    ("6.G.13 support cut on attack on itself via convoy",
     ["Austria: F ADR", "Austria: A Tri", "Italy: A Ven", "Italy: F Alb"],
     ["Austria: F ADR C A Tri - Ven", "Austria: A Tri - Ven", "Italy: A Ven S F Alb - Tri",
      "Italy: F Alb - Tri"],
     ["Austria: F ADR", "Italy: A Ven", "Italy: F Tri"], {"Austria: A Tri": "Alb"}),
    ("6.G.15 bounce and dislodge with double convoy",
     ["England: F NTH", "England: A Hol", "England: A Yor", "England: A Lon", "France: F ENG",
      "France: A Bel"],
     ["England: F NTH C A Lon - Bel", "England: A Hol S A Lon - Bel", "England: A Yor - Lon",
      "England: A Lon - Bel via convoy", "France: F ENG C A Bel - Lon",
      "France: A Bel - Lon via convoy"],
     ["England: F NTH", "England: A Hol", "England: A Yor", "England: A Bel", "France: F ENG"],
     {"France: A Bel": None}),
]


@pytest.mark.parametrize(
    ("units", "orders", "after", "lost"),
    [pytest.param(u, o, a, d, id=name) for name, u, o, a, d in CASES],
)
def test_datc_position(
    units: list[str], orders: list[str], after: list[str], lost: dict[str, str | None]
) -> None:
    outcome = movement(units, orders)
    assert board(outcome) == set(after)
    assert dislodged(outcome) == lost


def test_every_order_and_every_unit_gets_a_result() -> None:
    outcome = movement(
        ["France: A Par", "France: A Mar", "Germany: A Mun"],
        ["France: A Par - Bur", "France: A Mar S A Par - Bur"],
    )
    assert [(r.power, r.text, r.outcome) for r in outcome.results] == [
        ("France", "A Par - Bur", Outcome.SUCCEEDS),
        ("France", "A Mar S A Par - Bur", Outcome.SUCCEEDS),
        ("Germany", "A Mun H", Outcome.SUCCEEDS),
    ]
    assert result(outcome, "France: A Par - Bur").reason == "moves to Bur"
    assert result(outcome, "France: A Mar S A Par - Bur").reason == "supports A Par - Bur"
    assert result(outcome, "Germany: A Mun H").reason == "no order: holds"
    assert outcome.state.phase == position().phase  # the caller advances the calendar


def test_bounce_reasons_name_the_opponent_and_the_strengths() -> None:
    outcome = movement(
        ["Austria: A Vie", "Italy: A Ven", "Italy: A Pie", "Germany: A Mun", "Germany: A Boh"],
        ["Austria: A Vie - Tyr", "Italy: A Ven - Tyr", "Italy: A Pie S A Ven - Tyr",
         "Germany: A Mun - Tyr", "Germany: A Boh S A Mun - Tyr"],
    )
    assert result(outcome, "Austria: A Vie - Tyr").reason.startswith("bounced: ")
    assert "is stronger (2 against 1)" in result(outcome, "Austria: A Vie - Tyr").reason
    assert result(outcome, "Italy: A Ven - Tyr").reason == "bounced with A Mun (2 against 2)"
    assert result(outcome, "Germany: A Mun - Tyr").reason == "bounced with A Ven (2 against 2)"
    assert outcome.state.contested == frozenset({"Tyr"})


def test_a_holding_unit_that_resists_is_named() -> None:
    outcome = movement(["France: A Bur", "Germany: A Mun"], ["Germany: A Mun - Bur"])
    assert result(outcome, "Germany: A Mun - Bur").reason == "bounced with A Bur (1 against 1)"
    assert outcome.state.contested == frozenset()  # Bur is not empty


def test_dislodgement_is_reported_on_both_sides() -> None:
    outcome = movement(
        ["France: A Bur", "Germany: A Mun", "Germany: A Ruh"],
        ["France: A Bur H", "Germany: A Mun - Bur", "Germany: A Ruh S A Mun - Bur"],
    )
    attacker = result(outcome, "Germany: A Mun - Bur")
    assert attacker.reason == "moves to Bur, dislodging A Bur"
    holder = result(outcome, "France: A Bur H")
    assert holder.outcome is Outcome.FAILS
    assert holder.reason == "dislodged by A Mun (Germany)"
    assert holder.dislodged_by == "A Mun"
    assert dislodged(outcome) == {"France: A Bur": "Mun"}


def test_support_cut_and_void_reasons() -> None:
    outcome = movement(
        ["Austria: F ADR", "Austria: A Tri", "Austria: A Vie", "Italy: A Ven", "Italy: A Tyr",
         "Italy: A Rom"],
        ["Austria: F ADR S A Tri - Ven", "Austria: A Tri - Ven", "Austria: A Vie - Tyr",
         "Italy: A Ven H", "Italy: A Tyr S A Ven", "Italy: A Rom S A Ven - Tus"],
    )
    assert result(outcome, "Italy: A Tyr S A Ven").reason == "support cut by A Vie"
    assert result(outcome, "Italy: A Tyr S A Ven").outcome is Outcome.FAILS
    void = result(outcome, "Italy: A Rom S A Ven - Tus")
    assert void.outcome is Outcome.FAILS
    assert void.reason == "support void: A Ven did not move to Tus"


def test_hold_support_for_a_moving_unit_is_void() -> None:
    # DATC 6.D.7
    outcome = movement(
        ["Germany: F BAL", "Germany: F Pru", "Russia: F Lvn", "Russia: F BOT", "Russia: A Fin"],
        ["Germany: F BAL - Swe", "Germany: F Pru S F BAL", "Russia: F Lvn - BAL",
         "Russia: F BOT S F Lvn - BAL", "Russia: A Fin - Swe"],
    )
    assert result(outcome, "Germany: F Pru S F BAL").reason == (
        "support void: F BAL did not hold (it moved to Swe)")
    assert dislodged(outcome) == {"Germany: F BAL": "Lvn"}


def test_own_unit_is_not_dislodged() -> None:
    outcome = movement(
        ["Germany: A Ber", "Germany: F Kie", "Germany: A Mun"],
        ["Germany: A Ber H", "Germany: F Kie - Ber", "Germany: A Mun S F Kie - Ber"],
    )
    assert result(outcome, "Germany: F Kie - Ber").reason == "would dislodge its own A Ber"


def test_circular_movement_is_reported() -> None:
    outcome = movement(
        ["Turkey: F Ank", "Turkey: A Con", "Turkey: A Smy"],
        ["Turkey: F Ank - Con", "Turkey: A Con - Smy", "Turkey: A Smy - Ank"],
    )
    assert result(outcome, "Turkey: A Smy - Ank").reason == "moves to Ank (circular movement)"


def test_convoy_paradox_reasons_cite_the_szykman_rule() -> None:
    outcome = movement(
        ["England: F Lon", "England: F Wal", "France: A Bre", "France: F ENG"],
        ["England: F Lon S F Wal - ENG", "England: F Wal - ENG", "France: A Bre - Lon",
         "France: F ENG C A Bre - Lon"],
    )
    convoy = result(outcome, "France: F ENG C A Bre - Lon")
    assert convoy.outcome is Outcome.FAILS
    assert convoy.reason.startswith("convoy failed: convoy paradox (Szykman rule)")
    assert convoy.dislodged_by == "F Wal"
    army = result(outcome, "France: A Bre - Lon")
    assert army.reason == "convoy failed: paradox, F ENG does not convoy (Szykman rule)"
    assert result(outcome, "England: F Lon S F Wal - ENG").outcome is Outcome.SUCCEEDS


def test_disrupted_convoy_is_explained_and_contests_nothing() -> None:
    # DATC 6.F.7: the army whose convoy is disrupted does not make Hol contested.
    outcome = movement(
        ["England: F NTH", "England: A Lon", "France: F ENG", "France: F Bel", "Germany: A Ruh"],
        ["England: F NTH C A Lon - Hol", "England: A Lon - Hol", "France: F ENG - NTH",
         "France: F Bel S F ENG - NTH", "Germany: A Ruh - Hol"],
    )
    assert result(outcome, "England: A Lon - Hol").reason == "convoy disrupted: F NTH dislodged"
    assert "Germany: A Hol" in board(outcome)
    assert dislodged(outcome) == {"England: F NTH": "ENG"}


def test_convoyed_attacker_origin_is_not_recorded() -> None:
    # DATC 6.H.11: dislodged by a convoyed army, the unit may retreat to the army's origin.
    outcome = movement(
        ["France: A Gas", "France: A Bur", "France: F MAO", "France: F WMS", "France: F LYO",
         "Italy: A Mar"],
        ["France: A Gas - Mar via convoy", "France: A Bur S A Gas - Mar",
         "France: F MAO C A Gas - Mar", "France: F WMS C A Gas - Mar",
         "France: F LYO C A Gas - Mar", "Italy: A Mar H"],
    )
    assert dislodged(outcome) == {"Italy: A Mar": None}
    assert result(outcome, "France: A Gas - Mar via convoy").reason == (
        "moves to Mar by convoy, dislodging A Mar")
    assert result(outcome, "Italy: A Mar H").reason == "dislodged by A Gas (France, by convoy)"


def test_no_convoy_route_ordered() -> None:
    outcome = movement(["England: A Lon", "England: F NTH"], ["England: A Lon - Bel"])
    army = result(outcome, "England: A Lon - Bel")
    assert army.outcome is Outcome.FAILS
    assert army.reason == "no convoy route: no chain of fleets was ordered to convoy it"


def test_convoy_not_used_when_the_army_walks() -> None:
    # DATC 6.G.3: a foreign fleet's convoy does not take the army by sea.
    outcome = movement(
        ["France: A Pic", "England: F ENG"],
        ["France: A Pic - Bel", "England: F ENG C A Pic - Bel"],
    )
    assert "France: A Bel" in board(outcome)
    assert result(outcome, "England: F ENG C A Pic - Bel").reason == (
        "convoy not used: A Pic went over land")


def test_illegal_order_holds_and_can_be_supported() -> None:
    # DATC 6.D.28: an impossible move is a hold; the hold support counts.
    outcome = movement(
        ["Austria: A Bud", "Russia: F Rum", "Turkey: F BLA", "Turkey: A Bul"],
        ["Austria: A Bud S F Rum", "Russia: F Rum - Hol", "Turkey: F BLA - Rum",
         "Turkey: A Bul S F BLA - Rum"],
    )
    illegal = result(outcome, "Russia: F Rum - Hol")
    assert illegal.outcome is Outcome.ILLEGAL
    assert illegal.reason == "F Rum cannot move to Hol: not adjacent; F Rum holds"
    assert "Russia: F Rum" in board(outcome)
    assert result(outcome, "Turkey: F BLA - Rum").reason == "bounced with F Rum (2 against 2)"


def test_illegal_order_of_a_dislodged_unit_tells_its_fate() -> None:
    outcome = movement(
        ["France: A Bur", "Germany: A Mun", "Germany: A Ruh"],
        ["France: A Bur - Lon", "Germany: A Mun - Bur", "Germany: A Ruh S A Mun - Bur"],
    )
    illegal = result(outcome, "France: A Bur - Lon")
    assert illegal.outcome is Outcome.ILLEGAL
    assert illegal.reason.endswith("; A Bur holds and is dislodged by A Mun (Germany)")
    assert illegal.dislodged_by == "A Mun"
    assert [r.text for r in outcome.results if r.power == "France"] == ["A Bur - Lon"]


def test_orders_for_another_power_are_illegal_and_the_unit_holds() -> None:
    # DATC 6.A.6
    outcome = movement(["England: F Lon"], ["Germany: F Lon - NTH"])
    assert result(outcome, "Germany: F Lon - NTH").reason == (
        "F Lon belongs to England")
    assert result(outcome, "England: F Lon H").reason == "no order: holds"


def test_a_later_order_replaces_an_earlier_one() -> None:
    outcome = movement(["France: A Par"], ["France: A Par - Bur", "France: A Par - Pic"])
    assert board(outcome) == {"France: A Pic"}
    first = result(outcome, "France: A Par - Bur")
    assert first.outcome is Outcome.ILLEGAL
    assert first.reason == "void: replaced by a later order"
    assert result(outcome, "France: A Par - Pic").outcome is Outcome.SUCCEEDS


def test_an_illegal_later_order_replaces_nothing() -> None:
    outcome = movement(["France: A Par"], ["France: A Par - Bur", "France: A Par - Mun"])
    assert board(outcome) == {"France: A Bur"}
    assert result(outcome, "France: A Par - Mun").outcome is Outcome.ILLEGAL
    assert result(outcome, "France: A Par - Bur").outcome is Outcome.SUCCEEDS


def test_unreadable_orders_are_reported_with_the_parser_message() -> None:
    state = position("France: A Par")
    submitted = [*submit(state, "France: A Par - Xyz")]
    assert submitted[0].order is None and submitted[0].error is not None
    outcome = resolve_movement(std(), state, submitted)
    bad = outcome.results[0]
    assert bad.outcome is Outcome.ILLEGAL
    assert bad.reason == submitted[0].error.message
    assert result(outcome, "France: A Par H").reason == "no order: holds"


def test_wrong_unit_type_is_ignored() -> None:
    # DATC 4.C.2: the unit on the board is ordered.
    state = position("France: A Par")
    order = Move(UnitSpec(UnitType.FLEET, Location("Par")), Location("Bur"))
    outcome = resolve_movement(std(), state, [Submitted("France", "F Par - Bur", order)])
    assert board(outcome) == {"France: A Bur"}
    assert outcome.results[0].order == Move(UnitSpec(UnitType.ARMY, Location("Par")),
                                            Location("Bur"))


def test_fleet_coast_is_filled_in_and_kept() -> None:
    # DATC 6.B.2
    outcome = movement(["France: F Gas"], ["France: F Gas - Spa"])
    assert board(outcome) == {"France: F Spa/nc"}
    assert result(outcome, "France: F Gas - Spa").reason == "moves to Spa/nc"


def test_contested_province_left_empty_by_a_standoff() -> None:
    outcome = movement(
        ["Germany: A Ber", "Russia: A War", "Germany: A Mun"],
        ["Germany: A Ber - Sil", "Russia: A War - Sil", "Germany: A Mun - Boh"],
    )
    assert outcome.state.contested == frozenset({"Sil"})


def test_loser_of_head_to_head_contests_nothing() -> None:
    # DATC 6.H.9 in the movement phase: the dislodged unit's move leaves Ber uncontested.
    outcome = movement(
        ["Germany: A Ber", "Germany: A Sil", "Russia: A Pru"],
        ["Germany: A Ber - Pru", "Germany: A Sil S A Ber - Pru", "Russia: A Pru - Ber"],
    )
    assert dislodged(outcome) == {"Russia: A Pru": "Ber"}
    assert outcome.state.contested == frozenset()


def test_holds_as_values() -> None:
    state = position("Italy: F Nap")
    hold = Hold(UnitSpec(None, Location("Nap")))
    outcome = resolve_movement(std(), state, [Submitted("Italy", "Nap H", hold)])
    assert outcome.results[0].order == Hold(UnitSpec(UnitType.FLEET, Location("Nap")))
    assert outcome.results[0].reason == "holds"


# -- invariants over random positions ----------------------------------------------------------
def _random_phase(seed: int) -> tuple[GameState, list[Submitted]]:
    """A crowded board of 7 powers on the standard map with moves to neighbours, supports of
    the neighbours' actual orders, convoys by one or two fleets, holds, and some garbage."""
    rng = random.Random(seed)
    gmap = std()
    places = sorted(p for p, t in gmap.terrain.items() if t.is_passable)
    rng.shuffle(places)
    powers = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]
    units = []
    for n, p in enumerate(places[: rng.randint(15, 60)]):
        power = powers[rng.randrange(7) if rng.random() < 0.5 else n % 7]
        if gmap.is_water(p) or (gmap.is_coastal(p) and rng.random() < 0.4):
            units.append(Unit(power, UnitType.FLEET, rng.choice(gmap.fleet_locations(p))))
        else:
            units.append(Unit(power, UnitType.ARMY, Location(p)))
    at = {u.province: u for u in units}

    def spec(u: Unit) -> UnitSpec:
        return UnitSpec(u.type, u.location)

    def reach(u: Unit) -> list[str]:
        if u.type is UnitType.ARMY:
            return sorted(gmap.army_adj.get(u.province, ()))
        return sorted({d.province for d in gmap.fleet_adj.get(u.location, ())})

    orders: dict[str, AnyOrder] = {}
    # Convoys: an army beside a fleet at sea goes to a coast of that sea or the next one.
    for f in units:
        if f.type is not UnitType.FLEET or not gmap.is_water(f.province) or rng.random() < 0.5:
            continue
        armies = [at[p] for p in reach(f) if p in at and at[p].type is UnitType.ARMY
                  and p not in orders]
        if not armies:
            continue
        army = rng.choice(armies)
        chain = [f]
        seas = [at[p] for p in reach(f) if p in at and gmap.is_water(p) and p not in orders]
        if seas and rng.random() < 0.5:
            chain.append(rng.choice(seas))
        coasts = [p for p in reach(chain[-1]) if gmap.is_land(p) and p != army.province]
        if not coasts:
            continue
        dest = Location(rng.choice(coasts))
        orders[army.province] = Move(spec(army), dest, rng.random() < 0.5)
        for fleet in chain:
            orders[fleet.province] = Convoy(spec(fleet), spec(army), dest)
    # Moves and holds.
    for u in units:
        if u.province in orders or rng.random() < 0.45:
            continue
        targets = reach(u)
        if targets and rng.random() < 0.85:
            goal = rng.choice(targets)
            where = (Location(goal) if u.type is UnitType.ARMY
                     else rng.choice([d for d in gmap.fleet_adj[u.location] if d.province == goal]))
            orders[u.province] = Move(spec(u), where)
        else:
            orders[u.province] = Hold(spec(u))
    # Supports of what the neighbours do.
    for u in units:
        if u.province in orders:
            continue
        near = set(reach(u))
        moving = [o for o in orders.values() if isinstance(o, Move) and o.dest.province in near
                  and o.unit.province != u.province]
        staying = [at[p] for p in near if p in at and not isinstance(orders.get(p), Move)]
        if moving and rng.random() < 0.7:
            m = rng.choice(moving)
            orders[u.province] = SupportMove(spec(u), m.unit, m.dest)
        elif staying:
            orders[u.province] = SupportHold(spec(u), spec(rng.choice(staying)))
    submitted = []
    for u in units:
        order = orders.get(u.province)
        if order is None or rng.random() < 0.05:  # some garbage: an impossible move
            order = Move(spec(u), Location(rng.choice(places)))
        power = u.power if rng.random() < 0.97 else "Turkey"
        submitted.append(Submitted(power, str(order), order))
    rng.shuffle(submitted)
    return position().evolve(units=tuple(units)), submitted


@settings(max_examples=150, deadline=None)
@given(st.integers(min_value=0, max_value=2**32))
def test_movement_invariants(seed: int) -> None:
    state, submitted = _random_phase(seed)
    outcome = resolve_movement(std(), state, submitted)
    after = outcome.state
    provinces = [u.province for u in after.units]
    assert len(provinces) == len(set(provinces))  # one unit per province
    assert len(after.units) + len(after.dislodged) == len(state.units)
    for d in after.dislodged:
        attacker = after.unit_in(d.unit.province)
        assert attacker is not None and attacker.power != d.unit.power
        assert d.attacker_from is None or state.unit_in(d.attacker_from) is not None
    assert not after.contested & set(provinces)
    # One result per submission, in order, then one per unit left without an order.
    assert [r.text for r in outcome.results[: len(submitted)]] == [s.text for s in submitted]
    ordered = {r.order.unit.province for r in outcome.results[: len(submitted)]
               if r.outcome is not Outcome.ILLEGAL and isinstance(r.order, Order)}
    extra = outcome.results[len(submitted):]
    assert all(r.reason.startswith("no order: ") for r in extra)
    assert ordered.isdisjoint(r.order.unit.province for r in extra
                              if isinstance(r.order, Order))
    # Every result is explained; a dislodged unit's results say by whom.
    assert all(r.reason for r in outcome.results)
    lost = {d.unit.province for d in after.dislodged}
    for r in outcome.results:
        if r.dislodged_by is not None:
            assert isinstance(r.order, Order) and r.order.unit.province in lost
