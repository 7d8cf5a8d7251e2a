"""A wheel of gm runs the engine's hot modules compiled (setup.py's COMPILED, with mypyc); an
editable install runs them as plain Python. These tests check that the suite runs the sources,
and that the value classes behave as frozen values either way."""

from __future__ import annotations

import ast
import importlib
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

from gm.engine.frozen import replace
from gm.engine.geo import Location
from gm.engine.orders import Disband, Hold, Move, UnitSpec
from gm.engine.phase import Phase, PhaseType
from gm.engine.reasons import Reason
from gm.engine.results import OrderResult, Outcome
from gm.engine.units import Unit, UnitType

ROOT = Path(__file__).resolve().parent.parent.parent


def compiled_paths() -> list[str]:
    """setup.py's COMPILED (read, not run: running setup.py would build)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and [getattr(t, "id", "") for t in node.targets] == [
            "COMPILED"
        ]:
            value = ast.literal_eval(node.value)
            assert isinstance(value, tuple)
            return [str(v) for v in value]
    raise AssertionError("setup.py has no COMPILED")


def test_an_editable_install_runs_the_sources() -> None:
    """The suite runs from an editable install, which compiles nothing (setup.py): every module
    of COMPILED is imported from its .py file, so an edited source takes effect at once, and no
    extension module lies beside the sources to shadow one. The compiled build is a wheel's
    (tests/packaging/test_install.py checks it)."""
    paths = compiled_paths()
    assert "gm/engine/movement.py" in paths and "gm/engine/orders.py" in paths
    for path in paths:
        module = importlib.import_module(path.removesuffix(".py").replace("/", "."))
        assert module.__file__ == str(ROOT / path), module.__file__
    stale = [p for suffix in EXTENSION_SUFFIXES for p in (ROOT / "gm").rglob("*" + suffix)]
    stale += [p for suffix in EXTENSION_SUFFIXES for p in ROOT.glob("gm_native*" + suffix)]
    assert not stale, f"extension modules beside the sources: {stale}"
    assert not hasattr(Location, "__mypyc_attrs__")


def test_values_are_equal_hashed_ordered_and_shown_by_their_fields() -> None:
    spa = Location("Spa", "sc")
    assert spa == Location("Spa", "sc") and hash(spa) == hash(Location("Spa", "sc"))
    assert spa != Location("Spa", "nc") and spa != "Spa/sc"
    assert sorted([spa, Location("Spa"), Location("Spa", "nc")]) == [
        Location("Spa"), Location("Spa", "nc"), spa]
    assert repr(spa) == "Location(province='Spa', coast='sc')"
    army = UnitSpec(UnitType.ARMY, Location("Par"))
    move = Move(army, Location("Bur"))
    assert move == Move(army, Location("Bur"), False)
    assert move != Move(army, Location("Bur"), True)
    assert Hold(army) != Disband(army) and hash(Hold(army)) == hash(Hold(army))
    assert repr(move) == (
        "Move(unit=UnitSpec(type=<UnitType.ARMY: 'A'>, location=Location(province='Par', "
        "coast=None)), dest=Location(province='Bur', coast=None), via_convoy=False)"
    )
    assert {move: 1}[Move(army, Location("Bur"))] == 1
    assert Unit("France", UnitType.ARMY, Location("Par")) < Unit(
        "France", UnitType.FLEET, Location("Bre"))
    assert Phase("Spring", 1901, PhaseType.MOVEMENT) == Phase("Spring", 1901, PhaseType.MOVEMENT)
    match move:
        case Move(unit, dest, via):
            assert (unit, dest, via) == (army, Location("Bur"), False)
        case _:
            raise AssertionError("Move does not match its fields")


def test_replace_copies_a_value_with_fields_changed() -> None:
    army = UnitSpec(UnitType.ARMY, Location("Par"))
    fleet = UnitSpec(UnitType.FLEET, Location("Par"))
    move = Move(army, Location("Bur"), True)
    assert replace(move, unit=fleet) == Move(fleet, Location("Bur"), True)
    result = OrderResult("France", move, "A Par - Bur", Outcome.SUCCEEDS)
    assert replace(result, why=Reason.stated("moved")).reason == "moved"
    try:
        replace(move, target=army)
    except TypeError as e:
        assert "target" in str(e)
    else:
        raise AssertionError("replace accepted a field Move does not have")
