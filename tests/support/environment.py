"""The environment the tests give the `gm` processes they start."""

from __future__ import annotations

import os

from gm.store.passwords import COST_VARIABLE


def clean_env() -> dict[str, str]:
    """This process's environment without the GM_* settings a test run may carry (a stray
    GM_CONFIG or GM_DATABASE_URL would point the process elsewhere), keeping the test cost of
    password hashes (tests/conftest.py)."""
    return {k: v for k, v in os.environ.items()
            if not k.startswith("GM_") or k == COST_VARIABLE}
