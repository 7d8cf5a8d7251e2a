"""GameState's JSON form is lossless (issue: engine, "JSON round-trip is lossless")."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from gm.engine.geo import Location, Terrain
from gm.engine.phase import Phase, PhaseType
from gm.engine.state import Dislodged, GameState
from gm.engine.units import Unit, UnitType
from gm.variants.maps import standard_map

MAP = standard_map()
PROVINCES = sorted(MAP.provinces)
POWERS = ["Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"]

locations = st.one_of(
    st.sampled_from(PROVINCES).map(Location),
    st.sampled_from(["Spa/nc", "Spa/sc", "StP/nc", "StP/sc", "Bul/ec", "Bul/sc"]).map(
        Location.parse
    ),
)
units = st.builds(Unit, st.sampled_from(POWERS), st.sampled_from(list(UnitType)), locations)
phases = st.builds(
    Phase,
    st.sampled_from(["Spring", "Fall", "Winter", "July", "Early Summer"]),
    st.integers(1900, 1920),
    st.sampled_from(list(PhaseType)),
)
borders = st.tuples(st.sampled_from(PROVINCES), st.sampled_from(PROVINCES)).map(
    lambda b: (min(b), max(b))
)
states = st.builds(
    GameState,
    variant=st.sampled_from(["standard", "deluge2", "geophysical"]),
    phase=phases,
    units=st.lists(units, max_size=12).map(tuple),
    dislodged=st.lists(
        st.builds(Dislodged, units, st.one_of(st.none(), st.sampled_from(PROVINCES))), max_size=3
    ).map(tuple),
    contested=st.frozensets(st.sampled_from(PROVINCES), max_size=3),
    owners=st.dictionaries(st.sampled_from(sorted(MAP.centres)), st.sampled_from(POWERS)),
    homes=st.dictionaries(
        st.sampled_from(POWERS), st.lists(st.sampled_from(PROVINCES), max_size=4).map(tuple)
    ),
    terrain=st.dictionaries(st.sampled_from(PROVINCES), st.sampled_from(list(Terrain))),
    iced=st.frozensets(st.sampled_from(PROVINCES), max_size=3),
    cut_borders=st.frozensets(borders, max_size=3),
    centres=st.one_of(st.none(), st.frozensets(st.sampled_from(PROVINCES))),
    extra=st.dictionaries(st.text(max_size=8), st.text(max_size=8), max_size=3),
    winners=st.lists(st.sampled_from(POWERS), max_size=2).map(tuple),
    finished=st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(states)
def test_json_round_trip_is_lossless(state: GameState) -> None:
    text = state.dumps()
    back = GameState.loads(text)
    # units and dislodged units are stored sorted: compare them as sets, the rest exactly
    assert set(back.units) == set(state.units)
    assert set(back.dislodged) == set(state.dislodged)
    assert back.evolve(units=state.units, dislodged=state.dislodged) == state
    assert back.dumps() == text
    json.loads(text)  # plain JSON


def test_a_known_state_has_the_documented_form() -> None:
    state = GameState(
        "standard",
        Phase("Fall", 1901, PhaseType.RETREAT),
        units=(Unit("France", UnitType.FLEET, Location("Spa", "sc")),),
        dislodged=(Dislodged(Unit("Italy", UnitType.ARMY, Location("Pie")), "Mar"),),
        owners={"Spa": "France"},
    )
    data = state.to_json()
    assert data["phase"] == {"season": "Fall", "year": 1901, "type": "Retreat"}
    assert data["units"] == [{"power": "France", "type": "F", "location": "Spa/sc"}]
    assert data["dislodged"] == [
        {"power": "Italy", "type": "A", "location": "Pie", "attacker_from": "Mar"}
    ]
    assert GameState.from_json(data) == state
