"""The replies players and GMs get for what they get wrong, through ingest() (the real command
and order parsers, the real store): each quotes the input and says what would be accepted.
And the phase reports' "coming" section, which warns of the variant's scheduled events."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from sqlalchemy import event

from gm.engine.errors import OrderError
from gm.engine.map import GameMap
from gm.engine.phase import Phase, PhaseType
from gm.notation import parse_orders
from gm.play.coming import coming_events
from gm.play.render import template
from gm.service.clock import FixedClock
from gm.store import games as games_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
from gm.variants import registry
from gm.variants.maps import standard_map
from tests.support.service_support import GM, PLAYERS, START, send_all, unwrapped


def _send(db: Database, tmp_path: Path, sender: str, body: str,
          clock: FixedClock | None = None) -> str:
    return send_all(db, tmp_path, sender, body, clock)[0]


def _game(db: Database, tmp_path: Path, name: str = "alpha", variant: str = "standard") -> str:
    """A started game with every power seated; the GM's reply."""
    lines = [f"CREATE {name} {variant} gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines.append("START")
    reply = _send(db, tmp_path, GM, "\n".join(lines))
    assert f"{name} has started" in reply, reply
    return reply


def _orders(db: Database, tmp_path: Path, power: str, *lines: str) -> str:
    return _send(db, tmp_path, PLAYERS[power],
                 "\n".join([f"SIGNON {power} alpha pw{power.lower()}", *lines]))


def _process(db: Database, tmp_path: Path, game: str = "alpha") -> list[OutboundRecord]:
    reply, mail = send_all(db, tmp_path, GM, f"SIGNON GM {game} gmpass\nPROCESS")
    assert "refused" not in reply, reply
    return mail


# --------------------------------------------------------------------------------------------
# Order errors: the line of the message, the column in it, the words of the phase


def test_an_unreadable_order_names_its_line_in_the_message_and_the_column_there(
        database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "France",
                    "A Par - Bur", "A Mar  --   Spa", "A Par - Bur,  A Mar -- Spa",
                    "   A Par @ Bur")
    # the line as the player wrote it (two and three spaces kept); the second '-' is column 9
    assert ('line 3: Cannot read "A Mar  --   Spa" at column 9: expected a province name '
            'after "A Mar -", not "-".') in reply
    # several orders on a line: the whole line is quoted, the column counted along it
    assert 'line 4: Cannot read "A Par - Bur,  A Mar -- Spa" at column 22: ' in reply
    assert 'line 5: Cannot read "A Par @ Bur" at column 7: ' in reply
    assert "at line 1" not in reply
    assert "Orders of France for Spring 1901, Movement:\n  A Par - Bur\n" in reply


def test_a_movement_phase_offers_only_movement_words(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "France", "A Par @ Bur", "A Mar suports A Par")
    # Rulebook: R (retreat) and D (disband) are not orders of a movement phase
    assert ('line 2: Cannot read "A Par @ Bur" at column 7: expected \'-\', \'H\', \'S\' or '
            '\'C\' after "A Par", not "@".') in reply
    assert "expected '-', 'H', 'S' or 'C' after \"A Mar\", not \"suports\" (did you mean " \
           "'supports'?)" in reply
    reply = _orders(database, tmp_path, "France", "F Bre R MAO")
    assert ('line 2: "F Bre R MAO": refused, a retreat order is not possible in a movement '
            "phase; this phase takes moves (A Par - Bur), holds (H), supports (S) and convoys "
            "(C).") in reply


def test_a_retreat_phase_offers_only_retreat_words(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _orders(database, tmp_path, "Germany", "A Mun - Bur")
    _process(database, tmp_path)  # Spring 1901
    _orders(database, tmp_path, "France", "A Par - Bur", "A Mar S A Par - Bur")
    _process(database, tmp_path)  # Fall 1901: the German army in Burgundy is dislodged
    reply = _orders(database, tmp_path, "Germany", "A Bur @ Ruh")
    # Rulebook: a dislodged unit retreats or disbands; no support, convoy or hold words
    assert ('line 2: Cannot read "A Bur @ Ruh" at column 7: expected \'-\', \'R\' or \'D\' '
            'after "A Bur", not "@".') in reply
    reply = _orders(database, tmp_path, "Germany", "A Bur R Ruh via convoy")
    assert "Cannot read" in reply or "refused" in reply
    assert "'via'" not in reply and "'by'" not in reply


def _standard() -> GameMap:
    return standard_map()


def test_an_adjustment_phase_offers_only_its_own_words() -> None:
    gmap = _standard()
    unread = parse_orders("A Par @ Bur", gmap, PhaseType.ADJUSTMENT)
    assert isinstance(unread, OrderError)
    assert "expected 'D' after \"A Par\"" in unread.message  # a disband there is a removal
    short = parse_orders("Build", gmap, PhaseType.MOVEMENT)
    assert isinstance(short, OrderError) and "'waive'" not in short.message
    short = parse_orders("Build", gmap, PhaseType.ADJUSTMENT)
    assert isinstance(short, OrderError) and "'waive'" in short.message
    # without a phase every order's words are offered, as before
    free = parse_orders("A Par @ Bur", gmap)
    assert isinstance(free, OrderError) and "'R' or 'D'" in free.message


# --------------------------------------------------------------------------------------------
# LIST and CREATE


def test_list_names_variants_as_players_know_them(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _send(database, tmp_path, GM, "CREATE flood deluge2 gmpass")
    reply = _send(database, tmp_path, GM, "LIST")
    assert "  alpha: Standard, active\n" in reply
    assert "  flood: Deluge II (deluge2), forming\n" in reply
    reply = _send(database, tmp_path, GM, "LIST alpah")
    assert "LIST: there is no game called 'alpah'; did you mean alpha?" in reply


def test_create_without_a_password_says_the_password_is_missing(
        database: Database, tmp_path: Path) -> None:
    reply = _send(database, tmp_path, GM, "CREATE beta standard")
    assert ('line 1: Cannot read "CREATE beta standard": the password is missing; CREATE needs a '
            "game name, a variant and a password: CREATE beta standard secret") in reply
    # `II` would be read as the password: the variant's whole name shows it is missing
    reply = _send(database, tmp_path, GM, "CREATE beta Deluge II")
    assert ("line 1: CREATE beta Deluge II: the password is missing; write it after the "
            "variant: CREATE beta Deluge II secret.") in reply
    reply = _send(database, tmp_path, GM, "CREATE beta Standrd secret")
    assert "line 1: CREATE beta Standrd ******: there is no variant called 'Standrd' (did " \
           "you mean Standard? variants: Standard, Abstraction2, Chaos II (chaos2), Deluge II" \
           " (deluge2), Geophysical Diplomacy (geophysical), Sahara)" in reply
    assert "secret" not in reply.replace("Deluge II secret", "")
    with database.read() as s:
        assert games_repo.find_game(s, "beta") is None


# --------------------------------------------------------------------------------------------
# What players get wrong


def test_orders_for_another_powers_unit_say_whose_it_is(database: Database,
                                                         tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "France", "F Kie - Den", "A Lon H", "A Ruh H")
    assert 'line 2: "F Kie - Den": refused, France has no unit to order in Kie: F Kie is ' \
           "Germany's." in reply
    assert "line 3: \"A Lon H\": refused, France has no unit to order in Lon: A Lon" not in reply
    assert "France has no unit to order in Lon: F Lon is England's." in reply
    assert 'line 4: "A Ruh H": refused, France has no unit to order in Ruh.' in reply


def test_orders_after_the_deadline_name_their_lines(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    late = FixedClock(START + timedelta(days=5))
    reply = _send(database, tmp_path, PLAYERS["France"],
                  "SIGNON France alpha pwfrance\nA Par - Bur\nA Mar H", clock=late)
    assert '  line 2: "A Par - Bur": refused, the deadline (Wed 2026-03-04 12:00:00 UTC) has ' \
           "passed." in reply
    assert '  line 3: "A Mar H": refused, too late.' in reply  # the deadline is said once


def test_a_misspelt_game_power_or_topic_gets_the_closest_name(database: Database,
                                                                 tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["France"], "SIGNON France alpah pwfrance\nA Par H")
    assert reply.startswith("There is no game called 'alpah'; did you mean alpha? (LIST shows "
                            "the games). Signon refused;")
    reply = _send(database, tmp_path, PLAYERS["France"], "SIGNON Frence alpha pwfrance\nA Par H")
    assert reply.startswith("'Frence' is not a power of alpha; did you mean France? (powers: "
                            "Austria, England,")
    reply = _send(database, tmp_path, PLAYERS["France"], "JOIN alpah secret")
    assert "JOIN: there is no game called 'alpah'; did you mean alpha?" in reply
    reply = _send(database, tmp_path, PLAYERS["France"], "HELP ordres")
    assert reply.startswith('There is no help on "ordres" (did you mean HELP ORDERS?); here '
                            "are the topics.")
    reply = _send(database, tmp_path, PLAYERS["France"], "HELP Deluge")
    assert "Deluge II" in reply.splitlines()[0]
    reply = _send(database, tmp_path, PLAYERS["France"], "HELP zzzz")
    assert reply.startswith('There is no help on "zzzz"; here are the topics.')


def test_empty_and_signature_only_messages_say_there_were_no_commands(
        database: Database, tmp_path: Path) -> None:
    for body in ("", "-- \nJean Dupont\nParis\n"):
        reply = _send(database, tmp_path, PLAYERS["France"], body)
        assert reply.startswith("Your message held no commands. Send HELP for the list of "
                                "commands."), body


def test_press_to_a_power_not_in_the_game_names_the_powers(database: Database,
                                                            tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                            "SIGNON France alpha pwfrance\nPRESS TO Spain\nHola\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert ("line 2: PRESS TO Spain: refused, 'Spain' is not a power of alpha (powers: Austria, "
            "England, France, Germany, Italy, Russia, Turkey, or their letters; M or GM the GM,"
            " O the observers). The headings read are PRESS TO <powers>") in flat
    assert "the press was not sent." in flat
    assert mail == []


# --------------------------------------------------------------------------------------------
# Reports: what the map will do (Deluge II rules 3-6)


def test_deluge2_reports_warn_of_the_coming_winters_changes(database: Database,
                                                             tmp_path: Path) -> None:
    _game(database, tmp_path, "alpha", "Deluge II")
    # Deluge II rule 1: Winter 1900 builds in every home centre
    _orders(database, tmp_path, "England", "Build F Lon", "Build F Edi", "Build A Lvp")
    _orders(database, tmp_path, "Italy", "Build A Ven")
    mail = _process(database, tmp_path)
    reports = [unwrapped(m.parts[0].text) for m in mail if m.recipients == (PLAYERS["England"],)]
    assert len(reports) == 1
    report = reports[0]
    coming = report[report.index("Coming: what the map will do"):]
    # Table 1 (rule 3), the Winter 1901 line, with the units that stand there now; Table 2
    # (rule 5) and rule 6
    assert ("  At the end of Winter 1901, after its adjustments:\n"
            "    London, Holland, Belgium, Gascony, Venice and Livonia will be submerged: they "
            "become sea, armies there drown, fleets stay at sea and supply centres there are "
            "destroyed (standing there now: F Lon (England), A Ven (Italy)).\n"
            "    Wales, Ruhr and Tyrolia will become supply centres.\n"
            "    Iceland will become passable.\n") in coming
    assert "Winter 1902" not in coming  # a year ahead, no more
    html = next(m for m in mail if m.recipients == (PLAYERS["England"],)).parts
    assert any(">Coming: what the map will do</h2>" in p.text for p in html)


def test_a_standard_report_has_no_coming_section(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    mail = _process(database, tmp_path)
    report = next(m.parts[0].text for m in mail if m.recipients == (PLAYERS["France"],))
    assert "results of Spring 1901, Movement" in report and "Coming:" not in report


def _sahara_words(phase: Phase) -> list[str]:
    """The coming section's sentences for a Sahara position at `phase` (the template's own
    macro, templates/report/coming.j2)."""
    variant = registry.get_variant("sahara")
    state = variant.start_state().evolve(phase=phase)
    sentence = template("report/coming.j2").module.sentence  # type: ignore[attr-defined]
    return [f"{e.when}: {sentence(e)}" for e in coming_events(variant, state)]


def test_sahara_coming_changes_in_words() -> None:
    # RULINGS: Sahara; rules 2, 3 and 5: a season's changes follow its moves and retreats
    words = _sahara_words(Phase("Fall", 1902, PhaseType.MOVEMENT))
    assert words[:2] == [
        "Fall 1902: the Eastern Mediterranean and the Ionian Sea will become land.",
        "Spring 1903: the Aegean Sea, the Tyrrhenian Sea and the Western Mediterranean will "
        "become land."]
    assert all(not w.startswith("Fall 1903") for w in words)  # a year ahead, no more
    # A11 (rule 3), in the seasons' names from 1905 (RULINGS: Sahara)
    words = _sahara_words(Phase("Spring", 1911, PhaseType.MOVEMENT))
    assert "Late Summer 1911: every supply centre except Iceland will stop being one." in words


def test_two_orders_for_one_unit_in_a_message_say_which_one_counts(database: Database,
                                                                   tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "France",
                    "A Par - Bur", "A Mar H", "A Par - Pic", "A Mar H")
    assert "Two orders for A Par in this message: kept the later, A Par - Pic " \
           "(not A Par - Bur)." in reply
    assert "Two orders for A Mar" not in reply  # the same order twice changes nothing
    assert "Orders of France for Spring 1901, Movement:\n  A Par - Pic\n  A Mar H\n" in reply
    # an order that replaces one of an earlier message is the usual way to change orders
    again = _orders(database, tmp_path, "France", "A Par - Bur")
    assert "Two orders" not in again
    assert "  A Par - Bur\n" in again


# --------------------------------------------------------------------------------------------
# Order taking: what a message's orders read


def test_a_message_of_orders_reads_the_powers_stored_orders_once(
        database: Database, tmp_path: Path) -> None:
    """Geophysical events are judged by adjudicating them with the power's other orders, each
    as it is read (gm.commands.handlers.order_taking): the stored orders are read once for the
    message all the same, and stored once, with the orders it adds."""
    _game(database, tmp_path, variant="geophysical")
    _orders(database, tmp_path, "Russia", "A Mos - Ukr")  # stored before the message below
    reads: list[str] = []

    def count(conn: object, cursor: object, statement: str, *rest: object) -> None:
        if "LEFT OUTER JOIN order_lines" in statement:  # a power's latest set with its lines
            reads.append(statement)

    event.listen(database.engine, "before_cursor_execute", count)
    try:
        reply = _orders(database, tmp_path, "Russia",
                        "2 Stabilize Mos", "Ice advance NWG", "A War - Gal", "F Sev - BLA")
    finally:
        event.remove(database.engine, "before_cursor_execute", count)
    assert "refused" not in reply, reply
    assert "Orders of Russia for Spring 1901" in reply and "A Mos - Ukr" in reply, reply
    assert len(reads) == 1, reads
