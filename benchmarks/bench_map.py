"""How long deriving the standard map's movement graph takes after a terrain change.

Run: .venv/bin/python benchmarks/bench_map.py
"""

from __future__ import annotations

import statistics
import time

from gm.engine.geo import Terrain
from gm.engine.map import Overlay
from gm.engine.topology import RingTopology
from gm.variants.maps import standard_map

PROVINCES = ("Hol", "Bel", "Gas", "Lon", "Ven", "Lvn", "Yor", "Pic", "Apu", "Rum")


def main() -> None:
    topology = standard_map().deriver
    assert isinstance(topology, RingTopology)
    samples = []
    for round_ in range(20):
        for i, p in enumerate(PROVINCES):
            overlay = Overlay(terrain={p: Terrain.SEA, "CAS": Terrain.LAKE if (i + round_) % 2
                                       else Terrain.LAND})
            start = time.perf_counter()
            topology.derive(overlay) if round_ == 0 else topology._derive(topology._key(overlay))
            samples.append(time.perf_counter() - start)
    print(f"standard map derivation after a terrain change: median "
          f"{statistics.median(samples) * 1000:.2f} ms, max {max(samples) * 1000:.2f} ms "
          f"over {len(samples)} derivations (goal: under 5 ms)")


if __name__ == "__main__":
    main()
