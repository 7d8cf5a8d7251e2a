"""A standard game played through `gm tick` with orders the `diplomacy` package draws (seeded,
legal by that package's rules; no convoys, no supports naming a coast, the orders where it
departs from the DATC, tests/data/differential/README.md), and the replay of gm's record of it
by that package."""

from __future__ import annotations

import itertools
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from diplomacy import Game
from diplomacy.utils.export import from_saved_game_format
from diplomacy.utils.game_phase_data import GamePhaseData

from gm.play.mila import Reader, mila_record
from gm.play.played_game import played_game
from gm.service.clock import FixedClock
from gm.service.tick import tick
from gm.store import phases as phases_repo
from gm.store.db import Database
from tests.support.service_support import maildir_config
from tests.support.tick_support import new_game, submit

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def draw_orders(game: Game, rng: random.Random) -> dict[str, list[str]]:
    """Each power's orders for the package's current phase, in its words."""
    possible = game.get_all_possible_orders()
    phase = game.get_current_phase()
    out: dict[str, list[str]] = {}
    occupied = {u.split()[1][:3] for p in game.powers.values() for u in p.units}
    for power in game.powers.values():
        locs = game.get_orderable_locations(power.name)
        chosen: list[str] = []
        if phase.endswith("A"):
            count = len(power.centers) - len(power.units)
            if count > 0:
                sites = [loc for loc in locs if possible.get(loc)]
                rng.shuffle(sites)
                taken: set[str] = set()
                for loc in sites:
                    if len(chosen) >= count or loc[:3] in taken:
                        continue
                    builds = [o for o in possible[loc] if o.endswith(" B")]
                    if builds:
                        chosen.append(rng.choice(sorted(builds)))
                        taken.add(loc[:3])
            elif count < 0:
                units = sorted(power.units)
                rng.shuffle(units)
                chosen = [f"{u} D" for u in units[:-count]]
        else:
            picked: dict[str, str] = {}
            for loc in locs:
                options = sorted(o for o in possible.get(loc, ())
                                 if " C " not in o and "VIA" not in o
                                 and not (" S " in o and "/" in o.split(" S ")[1]))
                moves = [o for o in options if " - " in o or " R " in o]
                plain = [o for o in options if " S " not in o]
                attacks = [o for o in moves if o.split()[-1][:3] in occupied]
                if attacks and rng.random() < 0.5:
                    picked[loc] = rng.choice(attacks)
                elif moves and rng.random() < 0.7:
                    picked[loc] = rng.choice(moves)
                elif plain:
                    picked[loc] = rng.choice(plain)
            chosen = list(picked.values())
        if chosen:
            out[power.name] = chosen
    if not phase.endswith("M"):
        return out
    given = {" ".join(o.split()[:2]): o for lines in out.values() for o in lines}
    for lines in out.values():  # some units support what another unit really does
        for i, order in enumerate(lines):
            if rng.random() > 0.45:
                continue
            loc = order.split()[1]
            fits = sorted(o for o in possible.get(loc, ()) if " S " in o
                          and "/" not in o.split(" S ")[1] and _fits(o.split(" S ")[1], given))
            if fits:
                lines[i] = rng.choice(fits)
    return out


def _fits(supported: str, given: dict[str, str]) -> bool:
    """Whether a support of `supported` (`A PAR - BUR`, `A PAR`) matches the orders given."""
    unit = " ".join(supported.split()[:2])
    order = given.get(unit, f"{unit} H")
    if " - " in supported:
        return order == supported
    return " - " not in order


def gm_words(order: str, adjusting: bool) -> str:
    """The package's order as gm reads it: builds, removals and waives in gm's words."""
    if order == "WAIVE":
        return "Waive"
    if adjusting and order.endswith(" B"):
        return f"Build {order[:-2]}"
    if adjusting and order.endswith(" D"):
        return f"Remove {order[:-2]}"
    return order


def play(db: Database, tmp_path: Path, name: str, last_year: int, seed: int) -> int:
    """The game `name` played until its phase of `last_year`'s end: its id."""
    game = new_game(db, name, opened=T0, deadline=T0 + timedelta(hours=1))
    config = maildir_config(tmp_path)
    rng = random.Random(seed)
    now = T0
    while True:
        with db.read() as s:
            phase = phases_repo.current_phase(s, game)
            assert phase is not None
            if phase.phase.year > last_year or phase.state.finished:
                return game
            record = mila_record(played_game(s, game), Reader("gm"))
        mila = from_saved_game_format(record)
        adjusting = mila.get_current_phase().endswith("A")
        orders = draw_orders(mila, rng)
        submit(db, game, {power.title(): [gm_words(o, adjusting) for o in lines]
                          for power, lines in orders.items()}, now)
        now += timedelta(days=3)
        assert len(tick(db, config=config, clock=FixedClock(now)).adjudicated) == 1


def replay(record: dict[str, Any]) -> list[str]:
    """Each phase of `record` adjudicated again by the package from its state and orders:
    the phases where the package reaches another position than the record's next phase."""
    disagreements: list[str] = []
    phases = record["phases"]
    for before, after in itertools.pairwise(phases):
        game = Game(record["id"], map_name=record["map"], rules=["SOLITAIRE", *record["rules"]])
        game.set_phase_data(GamePhaseData.from_dict(before))
        game.clear_orders()
        for power, orders in before["orders"].items():
            game.set_orders(power, orders)
        game.process()
        expected = after["state"]
        got_units = {p: sorted(u) for p, u in game.get_units().items()}
        want_units = {p: sorted(u) for p, u in expected["units"].items()}
        got_centres = {p: sorted(c) for p, c in game.get_centers().items()}
        want_centres = {p: sorted(c) for p, c in expected["centers"].items()}
        if after["name"] != "COMPLETED" and game.get_current_phase() != after["name"]:
            disagreements.append(f"{before['name']}: next phase {game.get_current_phase()}, "
                                 f"gm {after['name']}")
        if got_units != want_units:
            disagreements.append(f"{before['name']}: units {got_units} != {want_units}")
        if got_centres != want_centres:
            disagreements.append(f"{before['name']}: centres {got_centres} != {want_centres}")
    return disagreements
