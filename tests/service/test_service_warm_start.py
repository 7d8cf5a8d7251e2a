"""The running service loads what answering mail needs at its start, before the first message
comes: the first answer after a start does not wait for the command grammar to be built."""

from __future__ import annotations

import asyncio
import dataclasses
from pathlib import Path

from gm.commands import parse
from gm.service.clock import FixedClock
from gm.service.serve import Service
from gm.store.db import Database
from tests.support.service_support import (
    PLAYERS,
    START,
    WAIT,
    deliver,
    maildir_config,
    message,
    until,
)


async def test_the_command_grammar_is_built_before_the_first_message(
        database: Database, tmp_path: Path) -> None:
    parse._parser.cache_clear()  # as in a service process just started
    config = dataclasses.replace(maildir_config(tmp_path), poll_interval=0.05)
    outbox = config.maildir.outbox / "new"
    service = Service(database, config, clock=FixedClock(START), tick_every=None)
    task = asyncio.create_task(service.run())
    try:
        await until(lambda: parse._parser.cache_info().currsize == 1, "command grammar")
        assert not outbox.exists() or not any(outbox.iterdir())  # no mail came yet
        # and the service answers as always with it
        deliver(config.maildir.inbox, message(PLAYERS["France"], "HELP"))
        await until(lambda: outbox.exists() and any(outbox.iterdir()), "reply")
    finally:
        service.stop()
        await asyncio.wait_for(task, WAIT)
    assert parse._parser.cache_info().misses == 1  # built once, at the start
