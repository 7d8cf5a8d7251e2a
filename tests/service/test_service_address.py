"""SET ADDRESS through ingest(): asked after a SIGNON from the old address, nothing changes
until the new address confirms with the code mailed to it; then every game follows, with the
same passwords."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from gm.service.clock import FixedClock
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from tests.support.service_support import GM, PLAYERS, START, send_all

NEW = "france-new@example.net"


def _send(db: Database, tmp_path: Path, sender: str, body: str,
          clock: FixedClock | None = None) -> str:
    return send_all(db, tmp_path, sender, body, clock)[0]


def _game(db: Database, tmp_path: Path, name: str) -> None:
    lines = [f"CREATE {name} standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines.append("START")
    assert f"{name} has started" in _send(db, tmp_path, GM, "\n".join(lines))


def _players(db: Database, game: str, power: str) -> tuple[str, ...]:
    with db.read() as s:
        record = games_repo.find_game(s, game)
        assert record is not None
        seat = powers_repo.get_power(s, record.id, power)
        assert seat is not None
        return seat.addresses


def test_set_address_moves_every_game_once_confirmed(database: Database,
                                                     tmp_path: Path) -> None:
    _game(database, tmp_path, "alpha")
    _game(database, tmp_path, "beta")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           f"SIGNON France alpha pwfrance\nSET ADDRESS {NEW}")
    assert f"SET ADDRESS: a confirmation code went to {NEW}. Nothing changes until" in reply
    assert "France in alpha, France in beta" in reply
    (confirm,) = mail
    assert confirm.recipients == (NEW,)
    text = confirm.parts[0].text
    code = re.search(r"SET ADDRESS CONFIRM (\S+)", text)
    assert code is not None and code.group(1) not in reply  # the code goes to the new address only
    assert _players(database, "alpha", "France") == (PLAYERS["France"],)  # not yet
    # a wrong code, or the right code from another address, changes nothing
    reply = _send(database, tmp_path, NEW, "SET ADDRESS CONFIRM wrongcode")
    assert ("line 1: SET ADDRESS CONFIRM ******: no address change to "
            f"{NEW} is waiting for that code") in reply
    reply = _send(database, tmp_path, "mallory@example.com",
                  f"SET ADDRESS CONFIRM {code.group(1)}")
    assert "no address change to mallory@example.com is waiting" in reply
    assert _players(database, "beta", "France") == (PLAYERS["France"],)
    reply, mail = send_all(database, tmp_path, NEW, f"SET ADDRESS CONFIRM {code.group(1)}")
    assert (f"Confirmed: what {PLAYERS['France']} had here (France in alpha, France in beta) "
            f"is {NEW}'s now; your passwords are unchanged.") in reply
    told = {m.recipients[0]: m.parts[0].text for m in mail}
    assert set(told) == {PLAYERS["France"], GM}
    assert f"now goes to {NEW}" in told[PLAYERS["France"]]
    assert f"moved from {PLAYERS['France']} to {NEW}" in told[GM]
    assert _players(database, "alpha", "France") == (NEW,)
    assert _players(database, "beta", "France") == (NEW,)
    # the same password, from the new address, with no "registered elsewhere" copy
    reply, mail = send_all(database, tmp_path, NEW, "SIGNON France beta pwfrance\nA Par-Bur")
    assert "Signed on as France in beta." in reply and "registered" not in reply
    assert mail == []
    # the code is used up
    assert "no address change" in _send(database, tmp_path, NEW,
                                        f"SET ADDRESS CONFIRM {code.group(1)}")


def test_set_address_refusals(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "alpha")
    assert "SET ADDRESS: refused, sign on first" in _send(
        database, tmp_path, PLAYERS["France"], f"SET ADDRESS {NEW}")
    reply = _send(database, tmp_path, "elsewhere@example.com",
                  f"SIGNON France alpha pwfrance\nSET ADDRESS {NEW}")
    assert ("SET ADDRESS: refused, send it from the address you are France with; "
            "elsewhere@example.com is not registered for it.") in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  f"SIGNON France alpha pwfrance\nSET ADDRESS {PLAYERS['France'].upper()}")
    assert "is the address you play with already; nothing to change." in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nSET ADDRESS nowhere")
    assert 'Cannot read "SET ADDRESS nowhere": SET ADDRESS needs your new e-mail address' in reply
    # a code older than a week no longer works
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           f"SIGNON France alpha pwfrance\nSET ADDRESS {NEW}")
    code = re.search(r"SET ADDRESS CONFIRM (\S+)", mail[0].parts[0].text)
    assert code is not None
    late = FixedClock(START + timedelta(days=8))
    assert "no address change" in _send(database, tmp_path, NEW,
                                        f"SET ADDRESS CONFIRM {code.group(1)}", late)
    assert _players(database, "alpha", "France") == (PLAYERS["France"],)


def test_the_gm_moves_too(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "alpha")
    moved = "master-new@example.net"
    reply, mail = send_all(database, tmp_path, GM, f"SIGNON GM alpha gmpass\nSET ADDRESS {moved}")
    assert f"SET ADDRESS: a confirmation code went to {moved}." in reply
    code = re.search(r"SET ADDRESS CONFIRM (\S+)", mail[0].parts[0].text)
    assert code is not None
    reply = _send(database, tmp_path, moved, f"SET ADDRESS CONFIRM {code.group(1)}")
    assert f"Confirmed: what {GM} had here (the GM of alpha) is {moved}'s now" in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None and game.gm_address == moved
