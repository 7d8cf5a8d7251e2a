"""Shared pytest configuration. Server fixtures live in tests/fixtures/ as plugins."""

pytest_plugins: list[str] = [
    # "tests.fixtures.<module>" entries are added here as fixture modules land.
    "tests.fixtures.postgres",
    "tests.fixtures.mailservers",
]
