"""Passwords checked ahead of the ingest (gm.service.check_ahead): a right password is then
remembered and the ingest signs on as always; a wrong one is not remembered and the ingest
refuses it as always; threads checking the same password at once agree; on SQLite and
PostgreSQL with the real parser."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from gm.service.check_ahead import check_ahead, stored_hashes
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.store.passwords import hash_password, remembered, verify_password
from tests.support.service_support import GM, PLAYERS, START, maildir_config, message


def _game(db: Database, tmp_path: Path) -> None:
    lines = ["CREATE ahead standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}-{tmp_path.name}"
              for power, addr in PLAYERS.items()]
    raw = message(GM, "\n".join(lines))
    assert ingest(db, raw, config=maildir_config(tmp_path),
                  clock=FixedClock(START)).outcome is Disposition.ANSWERED


def _reply(db: Database, inbound_id: int) -> str:
    with db.read() as s:
        return next(o for o in outbound_repo.list_outbound(s, limit=1000)
                    if o.inbound_id == inbound_id).parts[0].text


def test_a_right_password_is_remembered_and_signs_on(database: Database,
                                                      tmp_path: Path) -> None:
    _game(database, tmp_path)
    config = maildir_config(tmp_path)
    password = f"pwitaly-{tmp_path.name}"
    raw = message(PLAYERS["Italy"], f"SIGNON Italy ahead {password}\nA Ven H")
    [(given, stored)] = stored_hashes(database, raw, config)
    assert given == password and stored.startswith("scrypt$")
    assert not remembered(password, stored)
    assert check_ahead(database, raw, config) is True  # checked now
    assert remembered(password, stored)
    assert check_ahead(database, raw, config) is False  # nothing new the second time
    done = ingest(database, raw, config=config, clock=FixedClock(START))
    assert "Signed on as Italy in ahead." in _reply(database, done.inbound_id)


def test_a_wrong_password_is_not_remembered_and_refused(database: Database,
                                                         tmp_path: Path) -> None:
    _game(database, tmp_path)
    config = maildir_config(tmp_path)
    raw = message(PLAYERS["France"], "SIGNON France ahead not-the-password\nA Par H")
    assert check_ahead(database, raw, config) is True
    [(given, stored)] = stored_hashes(database, raw, config)
    assert not remembered(given, stored)
    done = ingest(database, raw, config=config, clock=FixedClock(START))
    assert "Wrong password for France in ahead." in _reply(database, done.inbound_id)


def test_nothing_to_check(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    config = maildir_config(tmp_path)
    for raw in (message(PLAYERS["France"], "LIST"),
                message(PLAYERS["France"], "SIGNON France nosuchgame pw"),
                message(PLAYERS["France"], "SIGNON France ahead pw",
                        headers={"Auto-Submitted": "auto-replied"})):
        assert stored_hashes(database, raw, config) == []
        assert check_ahead(database, raw, config) is False


def test_threads_checking_the_same_password_agree() -> None:
    stored = hash_password("together")
    with ThreadPoolExecutor(4) as pool:
        right = list(pool.map(lambda _: verify_password("together", stored), range(4)))
        wrong = list(pool.map(lambda _: verify_password("apart", stored), range(4)))
    assert right == [True] * 4 and wrong == [False] * 4
    assert remembered("together", stored) and not remembered("apart", stored)
