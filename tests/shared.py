"""Where the shared specification and reference data live: ../shared beside the checkout."""

from __future__ import annotations

import os
from pathlib import Path

SHARED = Path(os.environ.get("GM_SHARED") or Path(__file__).resolve().parents[2] / "shared")
REFERENCE = SHARED / "reference"
