"""Every way the variants' rule texts phrase an order is read by that variant's order reader.

The wordings are transcribed from the rule texts (rules/<variant>.txt), sentence by sentence,
each with the sentence it comes from; each is read by gm.notation.parse_orders (what the service
reads an order line with) on the variant's starting map with the variant's order kinds, and
must give the order written on the right.
"""

from __future__ import annotations

import pytest

from gm.engine.errors import ErrorKind, OrderError
from gm.notation import parse_orders
from gm.notation.kinds import KIND_FORMS
from gm.variants.registry import get_variant

# variant -> (the rule sentence, the wording as a player writes it, the order(s) it gives)
WORDINGS: dict[str, list[tuple[str, str, str]]] = {
    "deluge2": [
        ('rule 1: "Russia may build F(StP)nc"', "Build F(StP)nc", "Build F StP/nc"),
        ('rule 2: "be ordered to turn into a fleet"', "A Bre turns into a fleet",
         "A Bre transforms"),
        ('rule 2: "be ordered to turn into a fleet"', "A Bre turn into a fleet",
         "A Bre transforms"),
        ('rule 2: "be ordered to turn into a fleet"', "A Bre turns into fleet",
         "A Bre transforms"),
        ('rule 2: "Such a transformation"', "A Bre transforms into a fleet", "A Bre transforms"),
        ('rule 2: "Such a transformation"', "A Bre transforms", "A Bre transforms"),
        ('rule 2: "Such a transformation"', "A Bre transforms to F", "A Bre transforms"),
        ('rule 2: "Such a transformation" (a coast named)', "A Spa turns into a fleet Spa/sc",
         "A Spa transforms to F Spa/sc"),
        ('rule 2: "turn into a fleet"', "A Bre becomes a fleet", "A Bre transforms"),
        ('rule 7: "Players may build units in any vacant supply centre"', "Build A in Par",
         "Build A Par"),
        ('rule 8: "all Abstraction A/F convoy rules apply"', "A Lon boards F ENG",
         "A Lon boards F ENG"),
    ],
    "sahara": [
        ('rule 2: "its owner has not specified to the contrary ... that it not may change"',
         "F EMS not may change", "F EMS no change"),
        ('rule 2: "that it not may change"', "F EMS may not change", "F EMS no change"),
        ('rule 2: "If the owner has specified that it won\'t change, it disbands"',
         "F EMS won't change", "F EMS no change"),
        ('rule 2: "it won\'t change"', "F EMS will not change", "F EMS no change"),
        ('rule 2: "it changes into an army"', "F EMS will not change into an army",
         "F EMS no change"),
        ('rule 2: "it changes into an army"', "F EMS won't change into an army",
         "F EMS no change"),
        ('rule 2: "it changes into an army"', "F EMS does not change into an army",
         "F EMS no change"),
        ('rule 2: "no change results"', "F EMS no change", "F EMS no change"),
        ('rule 2 (RULINGS: "ordered that season that it must not change")',
         "F EMS must not change", "F EMS no change"),
        ('rule 2: "it won\'t change" (it stays what it is)', "F EMS remains a fleet",
         "F EMS no change"),
        ('rule 2: "it won\'t change" (it stays what it is)', "F EMS stays a fleet",
         "F EMS no change"),
        ('rule 4: "allowed to build in any unoccupied centre they own"', "Build F in Lon",
         "Build F Lon"),
    ],
    "geophysical": [
        ('rule 1b: "stabilize any one given space"', "Stabilize Mos", "Stabilize Mos"),
        ('rule 1b: "or boundary"', "Stabilize Mun-Ber", "Stabilize Mun-Ber"),
        ('rule 1b: "or boundary"', "Stabilize the boundary Mun-Ber", "Stabilize Mun-Ber"),
        ('rule 1b: "any one given space"', "Stabilise space Mos", "Stabilize Mos"),
        ('rule 2a: "MARINE PLATFORM UPLIFT"', "Marine platform uplift NTH", "Uplift NTH"),
        ('rule 2a: "converts a sea space"', "Uplift NTH", "Uplift NTH"),
        ('rule 2b: "EROSION"', "Erosion Mos", "Erode Mos"),
        ('rule 2b: "EROSION"', "Erosion of Mos", "Erode Mos"),
        ('rule 2c: "OROGENISIS"', "Orogenisis Bur", "Orogenesis Bur"),
        ('rule 2c: "OROGENISIS"', "Orogenesis Bur", "Orogenesis Bur"),
        ('rule 2d: "EARTHQUAKE : along a specified border"', "Earthquake along Mun-Ber",
         "Earthquake Mun-Ber"),
        ('rule 2d: "along a specified border"', "Earthquake along the border Mun-Ber",
         "Earthquake Mun-Ber"),
        ('rule 2d: "Earthquake along a ravine"', "Earthquake along the ravine Mun-Ber",
         "Earthquake Mun-Ber"),
        ('rule 2d: "EARTHQUAKE"', "Earthquake Mun-Ber", "Earthquake Mun-Ber"),
        ('rule 2e: "ICE ADVANCE"', "Ice advance NWG", "Ice advance NWG"),
        ('rule 2e: "Ice Advance can only be ordered in a space"', "Ice advance in NWG",
         "Ice advance NWG"),
        ('rule 2e: "ICE RETREAT"', "Ice retreat NWG", "Ice retreat NWG"),
        ('rule 2e: "Ice Retreat can be ordered on any iced up space"', "Ice retreat on NWG",
         "Ice retreat NWG"),
        ('rule 3: "AUSTRIA : Support TURKISH Erode Mos"', "Support TURKISH Erode Mos",
         "Support TURKISH Erode Mos"),
        ('rule 3: "support another player\'s geophysical move"', "Supports Turkey's Erode Mos",
         "Support Turkey Erode Mos"),
        ('rule 3: "support another player\'s geophysical move"',
         "Support Turkey's Erosion of Mos", "Support Turkey Erode Mos"),
        ('rule 3: "RUSSIA : 2 Stabilize Mos"', "2 Stabilize Mos", "2 Stabilize Mos"),
        ('rule 3: "stabilize a space or boundary more than once"', "Stabilize Mos twice",
         "2 Stabilize Mos"),
        ('rule 3: "more than once"', "Stabilize Mos 3 times", "3 Stabilize Mos"),
        ('rule 3: "TURKEY : Erode Mos"', "Erode Mos", "Erode Mos"),
        ('rule 7: "create a new s.c. in any space"', "Create new s.c. in Bur",
         "Create centre Bur"),
        ('rule 7: "create a new s.c. in any space"', "Create a new s.c. in Bur",
         "Create centre Bur"),
        ('rule 7: "create a new s.c. in any space"', "Create s.c. in Bur", "Create centre Bur"),
        ('rule 7: "create a new s.c." (supply centre)', "Create a new supply centre in Bur",
         "Create centre Bur"),
        ('rule 7: "create a new s.c."', "Create centre Bur", "Create centre Bur"),
        ('rule 9: "F(BUR) C A(Bel)-Mar"', "F(BUR) C A(Bel)-Mar", "F Bur C A Bel - Mar"),
        ('rule 9: "Remember to specify coasts when ordering builds"', "Build F StP/nc",
         "Build F StP/nc"),
    ],
    "chaos2": [
        ('rule 3: "each player builds a unit on his center"', "Build A Par", "Build A Par"),
        ('rule 4: "erect two conquered supply centers into \'home\' supply centers"',
         "Erect Bel into a 'home' supply center", "Home Bel"),
        ('rule 4: "erect ... into \'home\' supply centers"', "Erect Bel into a home supply centre",
         "Home Bel"),
        ('rule 4: "transform a conquered center into a home center"',
         "Transform Bel into a home center", "Home Bel"),
        ('rule 4: "a new home supply center"', "Designate Bel as home centre", "Home Bel"),
        ('rule 4: "a new home supply center"', "Designate Bel as a home supply centre",
         "Home Bel"),
        ('rule 4: "a new home supply center"', "Home Bel", "Home Bel"),
        ('rule 4: "a new home supply center"', "Home centre Bel", "Home Bel"),
        ('rule 6: "a formal declaration of alliance"',
         "Formal declaration of alliance Paris, Berlin", "Alliance Paris Berlin"),
        ('rule 6: "a declaration giving the complete list of all the other powers"',
         "Declaration of alliance Paris Berlin", "Alliance Paris Berlin"),
        ('rule 6: "declaration of alliance"', "Alliance Paris Berlin", "Alliance Paris Berlin"),
        ('rule 6: "all the other powers of the alliance"', "Alliance with Paris and Berlin",
         "Alliance Paris Berlin"),
    ],
    "abstraction2": [
        ('rule 3: "For example, A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por"',
         "A(Lon) boards F(ENG), A/F(ENG)-MAO, A disembarks Por",
         "A Lon boards F ENG | A/F ENG - MAO | A/F ENG disembarks Por"),
        ('rule 3: "An army may embark on to a fleet"', "A Lon embarks on to F ENG",
         "A Lon boards F ENG"),
        ('rule 3: "an army may board a fleet in an adjacent sea space"', "A Lon board F ENG",
         "A Lon boards F ENG"),
        ('rule 3: "For example, A/F(TYS) disembarks A(Tun), F(TYS)-WMS"',
         "A/F(TYS) disembarks A(Tun), F(TYS)-WMS", "A/F TYS disembarks Tun | A/F TYS - WMS"),
        ('rule 3: "For example A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)"',
         "A/F(ENG) disembarks A(ENG)-Bre S by F(ENG)",
         "A/F ENG disembarks Bre | A/F ENG S A ENG - Bre"),
        ('rule 3: "the A/F may then move to an adjacent sea space"', "A/F ENG moves to MAO",
         "A/F ENG - MAO"),
        ('rule 3: "a regular single space convoy is referred to as a \\"Fast Ferry\\" (\\"FF\\")"',
         "F ENG FF A Lon - Bre", "F ENG C A Lon - Bre"),
        ('rule 3: "Fast Ferry"', "F ENG Fast Ferry A Lon - Bre", "F ENG C A Lon - Bre"),
        ('rule 3: "If a fleet attempts to FF an army"', "F ENG FF army Lon to Bre",
         "F ENG C A Lon - Bre"),
        ('rule 3: "An army may retreat on to an adjacent fleet in a sea space"',
         "A Pic retreats on to F ENG", "A Pic boards F ENG"),
        ('rule 5: "Russia may build either fleets or armies in Archangel"', "Build F in Arc",
         "Build F Arc"),
        ('rule 5: "build ... armies in Archangel"', "Build army in Arc", "Build A Arc"),
        ('rule 6: "Any two Powers may exchange ownership of supply centres"',
         "Exchange ownership of Bel for Hol with Germany", "Exchange Bel for Hol with Germany"),
        ('rule 6: "exchange ... supply centres"', "Exchange Bel for Hol with Germany",
         "Exchange Bel for Hol with Germany"),
    ],
}

CASES = [(variant, *row) for variant, rows in WORDINGS.items() for row in rows]


@pytest.mark.parametrize(("variant", "sentence", "wording", "expected"), CASES,
                         ids=[f"{c[0]}: {c[2]}" for c in CASES])
def test_the_rule_texts_wordings_are_read(
    variant: str, sentence: str, wording: str, expected: str
) -> None:
    v = get_variant(variant)
    gmap = v.map_for(v.start_state())
    orders = parse_orders(wording, gmap, None, v.order_kinds)
    assert not isinstance(orders, OrderError), f"{sentence}: {orders.message}"
    assert " | ".join(str(o) for o in orders) == expected, sentence


def test_every_variant_has_its_rule_texts_wordings() -> None:
    assert set(WORDINGS) == {"deluge2", "sahara", "geophysical", "chaos2", "abstraction2"}
    assert all(len(rows) >= 10 for rows in WORDINGS.values())


# A refused special order lists the forms it is accepted in (the rule texts' own among them).
@pytest.mark.parametrize(("variant", "text", "kind"), [
    ("deluge2", "A Bre turns into a navy", "transform"),
    ("sahara", "F EMS remains a navy", "keep fleet"),
    ("geophysical", "Create a new s.c. in", "geo"),
    ("geophysical", "Stabilize Mos four times", "geo"),
    ("chaos2", "Designate Bel as my home", "home"),
    ("chaos2", "Declaration of alliance", "alliance"),
    ("abstraction2", "Exchange Bel with Germany", "exchange"),
    ("abstraction2", "A Lon boards ENG Bre", "af"),
])
def test_a_refused_special_order_lists_the_accepted_forms(
    variant: str, text: str, kind: str
) -> None:
    v = get_variant(variant)
    error = parse_orders(text, v.map_for(v.start_state()), None, v.order_kinds)
    assert isinstance(error, OrderError)
    assert error.kind is not ErrorKind.UNKNOWN_PROVINCE, error.message
    assert f'"{text}"' in error.message
    assert "Accepted forms: " + "; ".join(KIND_FORMS[kind]) in error.message


def test_the_accepted_forms_are_read() -> None:
    """Every form a refusal offers is itself read, in a variant that has the kind."""
    where = {"af": "abstraction2", "transform": "deluge2", "keep fleet": "sahara",
             "exchange": "abstraction2", "home": "chaos2", "alliance": "chaos2",
             "geo": "geophysical"}
    for kind, forms in KIND_FORMS.items():
        v = get_variant(where[kind])
        gmap = v.map_for(v.start_state())
        for form in forms:
            assert not isinstance(parse_orders(form, gmap, None, v.order_kinds), OrderError), form


def test_a_standard_order_that_fails_lists_no_variant_forms() -> None:
    v = get_variant("deluge2")
    error = parse_orders("A Par @ Bur", v.map_for(v.start_state()), None, v.order_kinds)
    assert isinstance(error, OrderError) and "Accepted forms" not in error.message
