"""JOIN <game> <password> PREFER <powers> through ingest(): preferences are kept until START,
which seats the players by them (random order, each taking their first free preference), the
GM's ADD still seating whom it names."""

from __future__ import annotations

import re
from pathlib import Path

from gm.store import audit, join_requests
from gm.store import games as games_repo
from gm.store import powers as powers_repo
from gm.store.db import Database
from tests.support.service_support import GM, PLAYERS, send_all

ALL = list(PLAYERS)


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    return send_all(db, tmp_path, sender, body)[0]


def _seats(db: Database) -> dict[str, tuple[str, ...]]:
    with db.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        return {p.name: p.addresses for p in powers_repo.list_powers(s, game.id)}


def test_start_seats_players_by_their_preferences(database: Database, tmp_path: Path) -> None:
    _send(database, tmp_path, GM, "CREATE alpha standard gmpass")
    # each player's first choice is their own power (the list rotated): no contest
    for n, power in enumerate(ALL):
        prefs = ALL[n:] + ALL[:n]
        reply, mail = send_all(database, tmp_path, PLAYERS[power],
                               f"JOIN alpha pw{power.lower()} PREFER {', '.join(prefs)}")
        assert f"You joined alpha; at START you get a power by your preferences: {power}," in reply
        assert [m.recipients for m in mail] == [(GM,)]
    assert all(not a for a in _seats(database).values())  # nobody seated before START
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")
    assert "alpha has started" in reply
    assert "Seated by preference, in random order: " in reply
    assert "(1st preference)" in reply and "at random" not in reply
    assert _seats(database) == {p: (a,) for p, a in PLAYERS.items()}
    started = {m.recipients[0]: m.parts[0].text for m in mail}
    assert "You play France." in started[PLAYERS["France"]]
    # each signs on with the password given at JOIN
    assert "Signed on as France in alpha." in _send(database, tmp_path, PLAYERS["France"],
                                                    "SIGNON France alpha pwfrance")
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert join_requests.requests_for(s, game.id) == []
        (entry,) = audit.audit_log(s, game_id=game.id, action="seat by preference")
        assert {d["address"] for d in entry.details["order"]} == set(PLAYERS.values())


def test_contested_preferences_and_the_gm_choice(database: Database, tmp_path: Path) -> None:
    _send(database, tmp_path, GM, "CREATE alpha standard gmpass\n"
          + "\n".join(f"ADD {p} {PLAYERS[p]} pw" for p in ALL[:4]))  # Austria..Germany seated
    a, b, c = "a@example.net", "b@example.net", "c@example.net"
    _send(database, tmp_path, a, "JOIN alpha pwa PREFER France Italy")  # France is taken
    _send(database, tmp_path, b, "JOIN alpha pwb PREFER Italy, Russia")
    reply = _send(database, tmp_path, c, "join alpha pwc prefer Italy")
    assert "at START you get a power by your preferences: Italy." in reply
    # full: three free powers, three promised
    assert "JOIN: every power in alpha is taken or promised to a player" in _send(
        database, tmp_path, "d@example.net", "JOIN alpha pwd PREFER Turkey")
    assert "JOIN: every power in alpha is taken or promised to players" in _send(
        database, tmp_path, "d@example.net", "JOIN alpha pwd")
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")
    assert "Seated by preference, in random order: " in reply
    seats = _seats(database)
    who = {addrs[0]: p for p, addrs in seats.items() if addrs}
    assert set(who) == {*[PLAYERS[p] for p in ALL[:4]], a, b, c}
    # Italy went to one of its three fans; each got a preference that was free at their turn
    assert who[a] in ("Italy", "Russia", "Turkey")
    assert who[b] in ("Italy", "Russia", "Turkey") and who[c] in ("Italy", "Russia", "Turkey")
    assert "Italy" in {who[a], who[b], who[c]}
    order = re.search(r"Seated by preference, in random order: (.*)\.", reply)
    assert order is not None
    first = order.group(1).split("; ")[0]
    assert first.startswith("Italy: ")  # whoever is drawn first gets Italy
    assert f"Italy: {a} (2nd preference)" in reply or f"{a} (2nd preference)" not in reply


def test_join_prefer_refusals_and_the_gm_add(database: Database, tmp_path: Path) -> None:
    _send(database, tmp_path, GM, "CREATE alpha standard gmpass")
    reply = _send(database, tmp_path, "a@example.net", "JOIN alpha pwa PREFER France Narnia")
    assert ("line 1: JOIN alpha ****** PREFER France Narnia: 'Narnia' is not a power of alpha "
            "(powers: Austria, England, France, Germany, Italy, Russia, Turkey); nothing was "
            "done.") in reply
    assert "pwa" not in reply
    reply = _send(database, tmp_path, "a@example.net", "JOIN alpha pwa PREFER")
    assert 'Cannot read "JOIN alpha ****** PREFER": JOIN needs a game and a password' in reply
    _send(database, tmp_path, "a@example.net", "JOIN alpha pwa PREFER Turkey")
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")
    assert ("START: these powers have no player yet: Austria, England, France, Germany, "
            "Italy, Russia, Turkey (1 joined with preferences") in reply
    # the GM's ADD seats the player where the GM says, preferences dropped
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nADD Austria a@example.net pwx\n"
          + "\n".join(f"ADD {p} {PLAYERS[p]} pw" for p in ALL[1:]))
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSTART")
    assert "alpha has started" in reply and "Seated by preference" not in reply
    assert _seats(database)["Austria"] == ("a@example.net",)
    assert "JOIN: alpha has started" in _send(database, tmp_path, "z@example.net",
                                              "JOIN alpha pwz PREFER Italy")


def test_signon_question_mark_joins_as_the_classic_judges_do(database: Database,
                                                             tmp_path: Path) -> None:
    _send(database, tmp_path, GM, "CREATE alpha standard gmpass")
    reply = _send(database, tmp_path, "a@example.net", "SIGNON ?alpha pwa")
    assert "You joined alpha as Austria. Sign on with: SIGNON Austria alpha" in reply
    assert "Signed on as Austria in alpha." in _send(database, tmp_path, "a@example.net",
                                                     "SIGNON Austria alpha pwa")
