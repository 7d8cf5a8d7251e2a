"""gm: a play-by-email gamemaster for Diplomacy and its dynamic-map variants."""

__version__ = "0.1.0"
