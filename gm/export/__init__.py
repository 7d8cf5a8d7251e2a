"""A game's full record, exported: as one JSON document, and as scenario-format test cases."""

from gm.export.record import game_record
from gm.export.scenario import scenario_text

__all__ = ["game_record", "scenario_text"]
