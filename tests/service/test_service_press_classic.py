"""Press as the classic judges (njudge, DPjudge) end and address it, and their spellings of
commands gm has, through ingest(): one message in, the reply and the mail it queues out; on
SQLite and PostgreSQL. Press is never lost for want of its ENDPRESS, and the orders after an
ENDBROADCAST are taken."""

from __future__ import annotations

from pathlib import Path

from gm.commands.catalog.help import WIDTH
from gm.store import games as games_repo
from gm.store import outbound as outbound_repo
from gm.store import phases as phases_repo
from gm.store import powers as powers_repo
from gm.store import press as press_repo
from gm.store import submissions as orders_repo
from gm.store.db import Database
from gm.store.rows import OutboundRecord
from gm.store.statuses import PowerStatus
from tests.support.service_support import GM, PLAYERS, observe, send_all

FRANCE = "SIGNON France alpha pwfrance\n"


def _send(db: Database, tmp_path: Path, sender: str, body: str) -> str:
    return send_all(db, tmp_path, sender, body)[0]


def _game(db: Database, tmp_path: Path, *settings: str, start: bool = True) -> None:
    lines = ["CREATE alpha standard gmpass"]
    lines += [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
    lines += list(settings)
    if start:
        lines.append("START")
    reply = _send(db, tmp_path, GM, "\n".join(lines))
    assert ("alpha has started" in reply) == start, reply


def _by_recipient(mail: list[OutboundRecord]) -> dict[str, str]:
    out: dict[str, str] = {}
    for m in mail:
        assert len(m.recipients) == 1  # one message each: addresses stay private
        out[m.recipients[0]] = m.parts[0].text
    return out


def _orders_of(db: Database, power: str) -> list[str]:
    with db.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        phase = phases_repo.current_phase(s, game.id)
        assert phase is not None
        found = orders_repo.latest_valid_orders(s, phase.id).get(power)
        return [] if found is None else [str(o.canonical) for o in found.lines]


# --------------------------------------------------------------------------------------------
# Where press ends


def test_orders_after_endbroadcast_are_taken(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "BROADCAST\nHello all.\nENDBROADCAST\nA Par-Bur\n")
    assert "Press sent to Austria, England, Germany, Italy, Russia, Turkey, the GM." in reply
    assert "had no ENDPRESS" not in reply
    assert "Orders of France for Spring 1901, Movement:\n  A Par - Bur\n" in reply
    assert len(mail) == 7 and all("Hello all." in m.parts[0].text for m in mail)
    assert all("A Par-Bur" not in m.parts[0].text for m in mail)


def test_press_with_no_end_is_sent_and_its_orders_are_quoted(database: Database,
                                                               tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO England\nShall we?\nA Par-Bur\nF Bre - MAO\n")
    assert "Press sent to England." in reply
    flat = " ".join(reply.split())
    assert ("The press of line 2 had no ENDPRESS line: it ran to the end of the message, and"
            " all its lines were sent as press.") in flat
    assert ('These lines in it read as orders and were sent as press, not taken as orders:'
            ' "A Par-Bur", "F Bre - MAO". To order, send them again after a line ENDPRESS'
            in flat)
    sent = _by_recipient(mail)
    assert set(sent) == {PLAYERS["England"]}  # no SET ALL PRESS: the GM gets no copy
    assert "Shall we?\nA Par-Bur\nF Bre - MAO" in sent[PLAYERS["England"]]
    assert _orders_of(database, "France") == []


def test_press_with_no_end_ends_at_signoff(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "BROADCAST\nGreetings.\nSIGNOFF\nJean, Paris\n")
    assert "Press sent to Austria, England" in reply  # SIGNOFF ended the mail's text
    assert "read as orders" not in reply
    assert all(m.parts[0].text.count("Greetings.") == 1 and "Jean" not in m.parts[0].text
               for m in mail)


def test_press_with_no_end_ends_at_a_signon_whose_orders_are_taken(
        database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO Italy\nA word.\nSIGNON France alpha pwfrance\n"
                           "A Par-Bur\n")
    assert "Press sent to Italy." in reply
    assert "the SIGNON on line 4 ended it" in " ".join(reply.split())
    assert "Orders of France for Spring 1901, Movement:\n  A Par - Bur\n" in reply
    assert all("pwfrance" not in m.parts[0].text and "SIGNON" not in m.parts[0].text
               for m in mail)
    assert _orders_of(database, "France") == ["A Par - Bur"]


def test_a_heading_line_inside_a_press_is_sent_to_its_recipients(database: Database,
                                                                  tmp_path: Path) -> None:
    # njudge copies every line up to ENDPRESS, "ignoring any orders or other command keywords":
    # private press never leaks to a power named on a line inside it
    _game(database, tmp_path)
    body = ("Secret for Germany only: I attack Russia next fall.\n"
            "Press to Russia should say we are friends\nBROADCAST\nA Par-Bur\n")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\n" + body + "ENDPRESS\n")
    assert "Press sent to Germany." in reply
    assert "Orders of France" not in reply
    sent = _by_recipient([m for m in mail if GM not in m.recipients])
    assert list(sent) == [PLAYERS["Germany"]]
    assert body.strip() in sent[PLAYERS["Germany"]]
    assert _orders_of(database, "France") == []


def test_under_an_unreadable_heading_nothing_is_sent_or_taken(database: Database,
                                                              tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, _ = send_all(database, tmp_path, PLAYERS["France"], FRANCE + "A Par-Bur\n")
    assert _orders_of(database, "France") == ["A Par - Bur"]
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G FAKE PARTIAL\nplus list body\nA Par H\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert 'Cannot read "PRESS TO G FAKE PARTIAL"' in flat
    assert "nothing under it (lines 3 to 5) was sent or taken as orders or commands" in flat
    assert mail == []
    assert _orders_of(database, "France") == ["A Par - Bur"]
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS\nI will play\nF Bre-MAO\nSET WAIT\n")
    assert "nothing under it (lines 3 to 5) was sent or taken" in " ".join(reply.split())
    assert mail == []
    assert _orders_of(database, "France") == ["A Par - Bur"]
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        france = next(p for p in powers_repo.list_powers(s, game.id) if p.name == "France")
        assert not france.wait


# --------------------------------------------------------------------------------------------
# Addressing: one-letter codes, ALL BUT, partial press, fake press


def test_press_to_letter_codes_and_to_all_but(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO ERG\nHi three.\nENDPRESS\n"
                           "PRESS TO ALL BUT Russia, Turkey\nHi four.\nENDPRESS\n")
    assert "Press sent to England, Russia, Germany." in reply
    assert "Press sent to Austria, England, Germany, Italy, the GM." in reply
    got = {to for m in mail for to in m.recipients if "Hi four." in m.parts[0].text}
    assert got == {PLAYERS[p] for p in ("Austria", "England", "Germany", "Italy")} | {GM}
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO EQ\nHi.\nENDPRESS\n")
    assert "'EQ' is not a power of alpha" in reply and mail == []


def test_no_partial_press(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "SET NO PARTIAL")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO Italy\nPsst.\nENDPRESS\n"
                           "PRESS TO ALL BUT Italy\nPsst.\nENDPRESS\n")
    assert reply.count("refused, this game allows no partial press (SET NO PARTIAL)") == 2
    assert mail == []
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "BROADCAST\nHello.\nENDPRESS\nPRESS TO GM\nHi.\nENDPRESS\n")
    assert "Press sent to Austria, England" in reply and "Press sent to the GM." in reply
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET PARTIAL")
    assert "Partial press in alpha: allowed" in reply
    reply = _send(database, tmp_path, PLAYERS["France"],
                  FRANCE + "PRESS TO Italy\nPsst.\nENDPRESS\n")
    assert "Press sent to Italy." in reply
    reply = _send(database, tmp_path, PLAYERS["France"], FRANCE + "SET NO PARTIAL\n")
    assert "SET NO PARTIAL: refused, only the game's GM may do this" in reply


def test_fake_press_needs_the_gm_and_tells_the_gm_the_truth(database: Database,
                                                             tmp_path: Path) -> None:
    # njudge (data/press): FAKE fakes whom the press is shown as sent to, never its sender
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO England FAKE TO EG\nI will take Belgium.\n"
                           "ENDPRESS\n")
    assert "refused, this game allows no fake press (the GM allows it with SET FAKE)" in reply
    assert mail == []
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET FAKE\nSET ALL PRESS")
    assert "Fake press in alpha: allowed" in reply
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO England FAKE TO EG\nI will take Belgium.\n"
                           "ENDPRESS\nPRESS TO Italy FAKE BROADCAST\nPeace to all.\nENDPRESS\n"
                           "PRESS FAKE TO G\nTo all, shown as to Germany.\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert ("Fake press sent to England. Its recipients see it as sent to England, Germany."
            " The GM gets a copy (SET ALL PRESS).") in flat
    assert "Fake press sent to Italy. Its recipients see it as sent to everyone." in flat
    assert ("Fake press sent to Austria, England, Germany, Italy, Russia, Turkey, the GM. Its"
            " recipients see it as sent to Germany.") in flat
    england = [m.parts[0].text for m in mail if PLAYERS["England"] in m.recipients]
    assert "Press from France in alpha to England, Germany:" in england[0]  # sender named
    italy = [m.parts[0].text for m in mail if PLAYERS["Italy"] in m.recipients]
    assert "Press from France in alpha to everyone:" in italy[0]
    assert "Press from France in alpha to Germany:" in italy[1]
    to_gm = [m.parts[0].text for m in mail if GM in m.recipients]
    assert any("(Fake press: sent by France to England.)" in t for t in to_gm)
    assert any("(Fake press: sent by France to Italy.)" in t for t in to_gm)
    assert any("(Fake press: sent by France to everyone.)" in t for t in to_gm)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO England FAKE Germany\nx\nENDPRESS\n"
                           "PRESS TO England FAKE TO Prussia\nx\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert "never its sender: white press always names its sender" in flat
    assert "refused, \"Prussia\" (after FAKE) is not a power" in flat
    assert mail == []


# --------------------------------------------------------------------------------------------
# The classic judges' words for commands gm has


def test_watch_withdraw_holiday_and_predict(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, "watcher@example.org", "WATCH alpha")
    assert "observe alpha" in reply.lower(), reply
    reply = _send(database, tmp_path, PLAYERS["Italy"],
                  "SIGNON Italy alpha pwitaly\nSET HOLIDAY 2026-03-08 TO 2026-03-09")
    assert "Italy is away from 2026-03-08 to 2026-03-09" in reply
    reply = _send(database, tmp_path, PLAYERS["France"], FRANCE + "PREDICT")
    assert ("PREDICT: refused, only the game's GM may do this (it shows what processing now"
            " would give, and every power's orders).") in " ".join(reply.split())
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPREDICT")
    assert "No orders yet from:" in reply, reply
    reply = _send(database, tmp_path, PLAYERS["Turkey"], "SIGNON Turkey alpha pwturkey\nWITHDRAW")
    assert "You resigned Turkey in alpha" in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        turkey = powers_repo.get_power(s, game.id, "Turkey")
        assert turkey is not None and turkey.status is PowerStatus.RESIGNED


def test_process_names_the_current_phase(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS F1901M")
    assert ("PROCESS F1901M: refused, the current phase of alpha is Spring 1901, Movement;"
            " nothing was processed") in " ".join(reply.split())
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPROCESS S1901M")
    assert "Spring 1901, Movement of alpha processed" in reply


def test_signon_question_mark_joins(database: Database, tmp_path: Path) -> None:
    _send(database, tmp_path, GM, "CREATE alpha standard gmpass")
    reply = _send(database, tmp_path, "new@example.org", "SIGNON ? alpha mysecret")
    assert "alpha" in reply and "mysecret" not in reply
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        seated = [p for p in powers_repo.list_powers(s, game.id)
                  if "new@example.org" in p.addresses]
        assert len(seated) == 1
    reply = _send(database, tmp_path, "other@example.org", "SIGNON ? mysecret")
    assert ('Cannot read "SIGNON ? ******": SIGNON ? joins a forming game and needs its name'
            in " ".join(reply.split()))


# --------------------------------------------------------------------------------------------
# HELP, wrapped once at 78 columns


def test_help_replies_are_wrapped_once(database: Database, tmp_path: Path) -> None:
    for topic in ("", "SIGNON", "ORDERS", "PRESS", "SET", "GAMES", "GM", "DEADLINES",
                  "RULEBOOK", "WATCH", "WITHDRAW", "HOLIDAY", "PREDICT", "FAKE"):
        send_all(database, tmp_path, "someone@example.org", f"HELP {topic}".strip())
    with database.read() as s:
        replies = [o.parts[0].text for o in outbound_repo.list_outbound(s)]
    assert len(replies) == 14
    for text in replies:
        lines = text.split("\n")
        assert all(len(line) <= WIDTH for line in lines), text
    press = next(t for t in replies if t.startswith("HELP PRESS"))
    assert ("line, its text follows on the next lines, and a line ENDPRESS ends it\n"
            "(ENDBROADCAST, the classic judges' word, too):\n") in press
    index = next(t for t in replies if t.startswith("HELP: the commands"))
    assert ("Write one command per line. Upper or lower case does not matter. To play,\n"
            "start with your SIGNON line; your orders follow it, one per line.") in index


def test_refused_press_with_no_end_still_quotes_its_orders(database: Database,
                                                           tmp_path: Path) -> None:
    _game(database, tmp_path, "SET PRESS NONE")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO Italy\nDeal?\nA Mar S A Par-Bur\n")
    flat = " ".join(reply.split())
    assert "refused, this game allows no press (SET PRESS NONE); the press was not sent." in flat
    assert ('These lines in it read as orders and were taken as its text, not taken as orders:'
            ' "A Mar S A Par-Bur".') in flat
    assert mail == []


def test_withdraw_from_a_forming_game_frees_the_power(database: Database,
                                                      tmp_path: Path) -> None:
    _send(database, tmp_path, GM, "CREATE alpha standard gmpass")
    assert "You joined alpha as France." in _send(database, tmp_path, "new@example.org",
                                                  "JOIN France alpha mysecret")
    reply = _send(database, tmp_path, "new@example.org",
                  "SIGNON France alpha mysecret\nWITHDRAW")
    assert "You withdrew from alpha, which has not started: France is free again" in reply
    reply = _send(database, tmp_path, "new@example.org", "SIGNON France alpha mysecret")
    assert "Signed on" not in reply
    assert "You joined alpha as France." in _send(database, tmp_path, "other@example.org",
                                                  "JOIN France alpha theirs")
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        france = powers_repo.get_power(s, game.id, "France")
        assert france is not None and france.addresses == ("other@example.org",)
        assert france.status is PowerStatus.PLAYING


# --------------------------------------------------------------------------------------------
# njudge's headings, who reads press, press while paused


def _recipients_of(mail: list[OutboundRecord], text: str) -> set[str]:
    return {to for m in mail for to in m.recipients if text in m.parts[0].text}


def test_a_press_line_inside_press_to_g_reaches_only_germany(database: Database,
                                                             tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\nPress to Russia should say we are friends\n"
                           "ENDPRESS\n")
    assert "Press sent to Germany." in reply
    assert _recipients_of(mail, "Press to Russia should say we are friends") == {
        PLAYERS["Germany"]}


def test_plus_list_goes_to_its_powers_and_takes_no_orders(database: Database,
                                                          tmp_path: Path) -> None:
    _game(database, tmp_path)
    send_all(database, tmp_path, PLAYERS["France"], FRANCE + "A Par-Bur\n")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS +GR\nplus list body\nA Par H\nENDPRESS\n")
    assert "Press sent to Germany, Russia." in reply
    assert _recipients_of(mail, "plus list body\nA Par H") == {PLAYERS["Germany"],
                                                               PLAYERS["Russia"]}
    assert _orders_of(database, "France") == ["A Par - Bur"]
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS -GRO\nminus list body\nENDPRESS\n"
                           "BROADCAST TO I\nto Italy\nENDPRESS\nPRESS GREY\nall grey\nENDPRESS\n")
    assert _recipients_of(mail, "minus list body") == {
        PLAYERS[p] for p in ("Austria", "England", "Italy", "Turkey")} | {GM}
    assert _recipients_of(mail, "to Italy") == {PLAYERS["Italy"]}
    assert "Grey press sent to Austria, England, Germany, Italy, Russia, Turkey, the GM." in reply


def test_an_unknown_list_sends_nothing_and_takes_nothing(database: Database,
                                                         tmp_path: Path) -> None:
    _game(database, tmp_path)
    send_all(database, tmp_path, PLAYERS["France"], FRANCE + "A Par-Bur\n")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO XYZQ\nA Par H\nSET WAIT\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert "line 2: PRESS TO XYZQ: refused, 'XYZQ' is not a power of alpha" in flat
    assert "The headings read are PRESS TO <powers>" in flat and "PRESS +<letters>" in flat
    assert "the press was not sent. Nothing under it was taken as orders or commands" in flat
    assert mail == []
    assert _orders_of(database, "France") == ["A Par - Bur"]


def test_unended_press_quotes_its_command_lines(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\nHello\nSET WAIT\n-- \nQuai d'Orsay\n")
    flat = " ".join(reply.split())
    assert "it ran to the end of the message" in flat  # the signature line ends the mail
    assert ('These lines in it read as commands and were sent as press text, not taken as'
            ' commands: "SET WAIT". To give them, send them again after a line ENDPRESS.'
            ) in flat
    assert _recipients_of(mail, "Hello\nSET WAIT") == {PLAYERS["Germany"]}
    assert _recipients_of(mail, "Quai d'Orsay") == set()


def test_the_gm_reads_partial_press_only_under_set_all_press(database: Database,
                                                             tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\nprivate one\nENDPRESS\n")
    assert "Press sent to Germany." in reply and "copy" not in reply
    assert _recipients_of(mail, "private one") == {PLAYERS["Germany"]}
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET ALL PRESS")
    assert "gets a copy of all partial press between players" in reply
    told = _recipients_of(mail, "From now on the GM of alpha gets a copy of all partial press")
    assert {PLAYERS[p] for p in PLAYERS} <= told
    # told once: no second mail of the settings' announcement for the same change
    assert not [m for m in mail if "the GM changed the settings" in dict(m.headers)["Subject"]]
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G GREY\nprivate two\nENDPRESS\n")
    assert "Grey press sent to Germany. The GM gets a copy (SET ALL PRESS)." in reply
    assert "the GM reads partial press (SET ALL PRESS)" in _send(
        database, tmp_path, PLAYERS["Italy"], "SUMMARY alpha")
    assert "the GM reads partial press (SET ALL PRESS)" in " ".join(_send(
        database, tmp_path, PLAYERS["Italy"], "LIST alpha").split())
    (gm_copy,) = [m.parts[0].text for m in mail if GM in m.recipients]
    assert "sent by France" in gm_copy and "private two" in gm_copy
    (germany,) = [m.parts[0].text for m in mail if PLAYERS["Germany"] in m.recipients]
    assert "France" not in germany
    reply, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET NORMAL PRESS")
    assert {PLAYERS[p] for p in PLAYERS} <= _recipients_of(mail, "no longer gets a copy")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\nprivate three\nENDPRESS\n")
    assert _recipients_of(mail, "private three") == {PLAYERS["Germany"]}
    with database.read() as s:
        game = games_repo.find_game(s, "alpha")
        assert game is not None
        assert [p.to_powers for p in press_repo.list_press(s, game.id)] == [
            ("Germany",), ("Germany", "GM copy"), ("Germany",)]


def test_press_to_gm_is_the_gm_alone_and_m_o_are_read(database: Database,
                                                      tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply, _ = observe(database, tmp_path, "watcher@example.org", "alpha")
    assert "You observe alpha" in reply
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO GM\nfor the GM\nENDPRESS\n"
                           "PRESS TO G M\nfor G and M\nENDPRESS\n"
                           "PRESS TO GO\nfor G and O\nENDPRESS\nBROADCAST\nfor all\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert ("Press sent to the GM. PRESS TO GM goes to the GM alone (on njudge it is Germany and"
            " the Master): for press to Germany and the GM, write PRESS TO G M") in flat
    assert _recipients_of(mail, "for the GM") == {GM}
    assert _recipients_of(mail, "for G and M") == {PLAYERS["Germany"], GM}
    assert _recipients_of(mail, "for G and O") == {PLAYERS["Germany"], "watcher@example.org"}
    assert "watcher@example.org" in _recipients_of(mail, "for all")  # when sent


def test_press_while_paused_goes_to_the_gm_alone(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nPAUSE")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\nwhile paused\nENDPRESS\n"
                           "PRESS TO GM GREY\nwhen do we resume?\nENDPRESS\n")
    flat = " ".join(reply.split())
    assert ("PRESS TO G: refused, alpha is paused: until the GM resumes it, press goes to the GM"
            " alone (PRESS TO GM), as on njudge; the press was not sent.") in flat
    assert _recipients_of(mail, "while paused") == set()
    assert _recipients_of(mail, "when do we resume?") == {GM}
    assert "Press sent to the GM. PRESS TO GM goes to the GM alone" in flat
    assert "Press to the GM alone is always signed (as on njudge): sent with your name." in flat
    (to_gm,) = [m.parts[0].text for m in mail if "when do we resume?" in m.parts[0].text]
    assert "Press from France in alpha to the GM:" in to_gm
    reply, mail = send_all(database, tmp_path, GM,
                           "SIGNON GM alpha gmpass\nBROADCAST\nback soon\nENDPRESS\n")
    assert PLAYERS["Germany"] in _recipients_of(mail, "back soon")


def test_njudge_press_settings(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path, "SET GREY")
    reply, mail = send_all(database, tmp_path, PLAYERS["France"],
                           FRANCE + "PRESS TO G\ngrey by default\nENDPRESS\n"
                           "PRESS TO G WHITE\nsigned\nENDPRESS\n")
    assert "Grey press sent to Germany." in reply
    assert "this game allows only grey press (SET PRESS GREY)" in reply
    assert _recipients_of(mail, "signed") == set()
    reply = _send(database, tmp_path, GM, "SIGNON GM alpha gmpass\nSET NO PRESS\nSET WHITE")
    assert "Press in alpha: NONE" in reply and "Press in alpha: WHITE" in reply
