"""An order's text is read once, when its mail arrives: a phase played by mail (each power's
orders in two messages, a tick while they come in, ORDERS, PREVIEW, PROCESS) reads each order
line with the order grammar once and never again (the stored orders are read as the values
kept on arrival; benchmarks/bench_parses.py counts the same)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import gm.notation.parser as parser_module
from gm.service.tick import tick
from gm.store.db import Database
from tests.support.mail_table import seven_powers
from tests.support.service_support import SPRING_1901


def count_parses(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts every module's name for the order grammar's entry reads from now on (the
    outermost calls: the entry reads a text again only to read a coast's other spelling)."""
    read: list[str] = []
    original = parser_module.parse_order
    depth = [0]

    def counted(text: str, *args: Any, **kwargs: Any) -> Any:
        if depth[0] == 0:
            read.append(text)
        depth[0] += 1
        try:
            return original(text, *args, **kwargs)
        finally:
            depth[0] -= 1

    entry: Callable[..., Any] = counted
    for module in list(sys.modules.values()):
        if module is not None and getattr(module, "parse_order", None) is original:
            monkeypatch.setattr(module, "parse_order", entry)
    return read


async def test_each_order_line_is_read_once(database: Database, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    table = seven_powers(database, tmp_path, "once")
    await table.start("standard")
    await table.gm("SIGNON GM once gmpass\nPREVIEW")  # the modules it loads, loaded now
    read = count_parses(monkeypatch)
    first = {p: lines[:2] for p, lines in SPRING_1901.items()}
    await table.orders(first)
    tick(database, config=table.config, clock=table.clock)  # not due: who has ordered
    await table.orders({p: lines[2:] for p, lines in SPRING_1901.items()})
    assert "Units without orders: none." in await table.answer("England", "ORDERS")
    await table.gm("SIGNON GM once gmpass\nPREVIEW")
    report = await table.process()
    assert "A Par - Bur" in report and "Fall 1901" in report
    sent = sorted(line for lines in SPRING_1901.values() for line in lines)
    assert sorted(read) == sent  # every line once, on arrival; nothing read again
