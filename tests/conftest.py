"""Shared pytest configuration. Server fixtures live in tests/support/fixtures/ as plugins."""

pytest_plugins: list[str] = [
    # "tests.support.fixtures.<module>" entries are added here as fixture modules land.
    "tests.support.fixtures.postgres",
    "tests.support.fixtures.mailservers",
    "tests.support.fixtures.oauth",
    "tests.support.fixtures.served",
    "tests.support.fixtures.postfix",
]
