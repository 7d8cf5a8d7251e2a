"""A refused order line keeps the power not ready for early processing until a clean message
(njudge `data/deadlines`: "An error free set of orders will be required to set the 'has
submitted orders' status"), by mail through the real service (Maildir inbox and outbox,
`Service.once`, the tick), on SQLite and PostgreSQL."""

from __future__ import annotations

import dataclasses
from datetime import timedelta
from pathlib import Path

from gm.service.tick import Why
from gm.store.db import Database
from tests.service.test_service_gm_control import Mail, _reply_to
from tests.support.service_support import GM, PLAYERS, SPRING_1901

EARLY = "\n".join(
    ["CREATE theta standard gmpass"]
    + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    + ["START"]  # processed early once every power is ready (the early delay: none here)
)
NOT_READY = "France is not counted as ready: 1 order line of this message was not accepted."


async def _france(mail: Mail, *lines: str) -> str:
    out = await mail.send(PLAYERS["France"], "\n".join(["SIGNON France theta pwfrance", *lines]))
    return _reply_to(out, PLAYERS["France"])


async def test_a_refused_line_keeps_the_power_not_ready_until_a_clean_message(
        database: Database, tmp_path: Path) -> None:
    mail = Mail(database, tmp_path)
    assert "theta has started" in _reply_to(await mail.send(GM, EARLY), GM)
    for power, orders in SPRING_1901.items():
        if power != "France":
            body = "\n".join([f"SIGNON {power} theta pw{power.lower()}", *orders])
            await mail.send(PLAYERS[power], body)
    assert (await mail.tick()).adjudicated == []
    # every unit ordered, but one line refused: the orders stand, France is not ready
    reply = await _france(mail, *SPRING_1901["France"], "A Par-Mun")
    assert "Units without orders: none." in reply
    assert (NOT_READY + " The orders shown stand, but the phase is not processed early on "
            "them: send your orders again with every line accepted (or CLEAR) to be counted "
            "as ready.") in reply
    assert (await mail.tick()).adjudicated == []
    # a message of refused lines only: still not ready
    reply = await _france(mail, "F Bre-Mun")
    assert NOT_READY in reply
    assert (await mail.tick()).adjudicated == []
    # a clean message (one accepted line is enough) makes France ready: processed early
    reply = await _france(mail, "A Mar-Spa")
    assert "not counted as ready" not in reply
    assert (await mail.tick()).adjudicated == [("theta", "Spring 1901, Movement", Why.EARLY)]


async def test_a_refused_line_after_clean_orders_in_the_same_message_counts(
        database: Database, tmp_path: Path) -> None:
    """The message is judged whole: a refused line in a later run of orders (after another
    command) keeps the power not ready, though the first run was clean."""
    mail = Mail(database, tmp_path)
    await mail.send(GM, EARLY)
    for power, orders in SPRING_1901.items():
        if power != "France":
            await mail.send(PLAYERS[power],
                            "\n".join([f"SIGNON {power} theta pw{power.lower()}", *orders]))
    reply = await _france(mail, *SPRING_1901["France"], "SET WAIT", "SET NOWAIT", "A Par-Mun")
    assert NOT_READY in reply
    assert (await mail.tick()).adjudicated == []
    mail.clock.advance(timedelta(days=3, minutes=1))
    # at the deadline the orders that stand are processed
    assert (await mail.tick()).adjudicated == [("theta", "Spring 1901, Movement", Why.DEADLINE)]


async def test_early_processing_waits_the_early_delay_after_the_last_orders(
        database: Database, tmp_path: Path) -> None:
    """njudge's "delay" (`data/deadlines`): once every power is ready the phase is processed
    `early_delay` seconds after the last orders, so a correction sent just after counts."""
    mail = Mail(database, tmp_path)
    mail.config = dataclasses.replace(mail.config, early_delay=60)
    await mail.send(GM, EARLY)
    for power, orders in SPRING_1901.items():
        await mail.send(PLAYERS[power],
                        "\n".join([f"SIGNON {power} theta pw{power.lower()}", *orders]))
    last = mail.clock.now()
    summary = await mail.tick()
    assert summary.adjudicated == [] and summary.early_at == last + timedelta(seconds=60)
    mail.clock.advance(timedelta(seconds=59))
    # a correction within the delay counts, and the delay runs again from it
    reply = await _france(mail, "A Par-Gas")
    assert "A Par - Gas" in reply and "not counted as ready" not in reply
    assert (await mail.tick()).adjudicated == []
    mail.clock.advance(timedelta(seconds=59))
    assert (await mail.tick()).adjudicated == []
    mail.clock.advance(timedelta(seconds=2))
    assert (await mail.tick()).adjudicated == [("theta", "Spring 1901, Movement", Why.EARLY)]
