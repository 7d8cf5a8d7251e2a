"""Shared pytest configuration. Server fixtures live in tests/support/fixtures/ as plugins.

Tests marked `slow` (each takes tens of seconds: a wheel build, the 10,000-message fuzzer) run
first: spread over the workers of a parallel run (tests/run, pytest-xdist) from the start, they
do not leave one worker busy long after the others are done."""

import gc
import os

import pytest

# New password hashes at scrypt's lowest allowed cost (gm.store.passwords), in the tests and in
# the gm processes they start: production's n = 2**14 would cost more than the rest of a game
# test. tests/store/test_store_passwords.py checks the default cost without it.
os.environ.setdefault("GM_SCRYPT_LOG2_N", "10")

pytest_plugins: list[str] = [
    # "tests.support.fixtures.<module>" entries are added here as fixture modules land.
    "tests.support.fixtures.postgres",
    "tests.support.fixtures.mailservers",
    "tests.support.fixtures.oauth",
    "tests.support.fixtures.served",
    "tests.support.fixtures.postfix",
]


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: takes tens of seconds; run first")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)  # stable: slow first


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection built (the modules, their tests and parameters: most of a worker's
    objects, and long-lived) is moved out of the cyclic garbage collector's reach, and it looks
    for cycles after 10,000 new objects instead of 700: its collections, each walking all those
    objects, took 4 to 7% of the service tests' CPU, 2 to 3% now. Reference counting frees
    everything else as before."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 20, 20)
