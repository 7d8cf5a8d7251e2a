"""Replies and reports as a player or GM reads them, through ingest() and the real command
and order parsers and store: seating with a made password, orders without a SIGNON, late
orders, builds out of season, an order naming the wrong kind of unit, variant aliases, reply
subjects, and the report's layout (counts, plurals, alignment, width). The whole mails of a
game per variant are in tests/golden (tests/play/test_golden_mail.py)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from gm.mail.compose import build_subject
from gm.play.render import render
from gm.play.reports import CentreRow, LateRow, PressRow, ReportView
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.service.sender import draw_pictures
from gm.store import outbound as outbound_repo
from gm.store.db import Database
from gm.variants import get_variant
from gm.variants.chaos2 import chaos_powers
from tests.play.test_golden_mail import mail_faults
from tests.service.test_service_replies import _game, _orders, _send
from tests.support.service_support import GM, PLAYERS, START, maildir_config, message, send_all


def test_add_without_a_password_mails_one_the_player_signs_on_with(database: Database,
                                                                    tmp_path: Path) -> None:
    reply, mail = send_all(database, tmp_path, GM,
                           "CREATE alpha standard gmpass\nADD France fr@example.org\n"
                           "ADD Italy it@example.org itsecret")
    assert "fr@example.org plays France in alpha; a password was made and mailed to them." \
        in reply, reply
    assert "it@example.org plays Italy in alpha; they were mailed the game, the power and " \
        "the password." in reply
    seated = {m.recipients[0]: m.parts[0].text for m in mail}
    assert set(seated) == {"fr@example.org", "it@example.org"}
    france = seated["fr@example.org"]
    assert "The GM of alpha (Standard) has given you France." in france
    assert "The game has not started yet" in france
    made = re.search(r"Your password: (\w+)\n", france)
    assert made is not None and len(made.group(1)) == 10
    assert f"  SIGNON France alpha {made.group(1)}\n" in france
    assert "Your password: itsecret" in seated["it@example.org"]
    assert "SIGNON Ialpha itsecret does too: I is Italy's one-character code." \
        in seated["it@example.org"]
    # the made password works; the GM never saw it
    assert made.group(1) not in reply
    answer = _send(database, tmp_path, "fr@example.org", f"SIGNON France alpha {made.group(1)}")
    assert "Signed on as France in alpha." in answer, answer


def test_add_to_a_running_game_gives_the_phase_and_deadline(database: Database,
                                                            tmp_path: Path) -> None:
    _game(database, tmp_path)
    _, mail = send_all(database, tmp_path, GM, "SIGNON GM alpha gmpass\n"
                       "ADD Turkey new@example.org")
    [notice] = [m.parts[0].text for m in mail if m.recipients == ("new@example.org",)]
    assert "The current phase is Spring 1901, Movement; its deadline is Wed 2026-03-04 " \
        "12:00 UTC." in notice, notice


def test_orders_without_a_signon_say_which_power_the_sender_plays(database: Database,
                                                                   tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _send(database, tmp_path, PLAYERS["Italy"], "A Ven - Tyr\nA Rom - Ven")
    assert reply.count("is not a command. Before a SIGNON line") == 1, reply  # explained once
    assert 'line 2: "A Rom - Ven" is not a command either.' in reply
    assert "You play Italy in alpha: begin your message with the line SIGNON Italy alpha " \
           "<password>, then one order a line." in reply
    stranger = _send(database, tmp_path, "nobody@example.org", "A Ven - Tyr")
    assert "Orders need a SIGNON line first: SIGNON <power> <game> <password>" in stranger
    assert "You play" not in stranger


def test_late_orders_say_what_happens_to_the_phase_now(database: Database,
                                                       tmp_path: Path) -> None:
    _game(database, tmp_path)
    late = FixedClock(START + timedelta(days=3, minutes=1))
    reply = _send(database, tmp_path, PLAYERS["Germany"],
                  "SIGNON Germany alpha pwgermany\nA Ber - Sil\nA Mun - Ruh", clock=late)
    assert "Spring 1901, Movement is processed shortly with the orders that were in by the " \
           "deadline (units without orders hold); until then the GM can still let late " \
           "orders in (SET GRACE)." in reply, reply
    assert reply.count("processed shortly") == 1


def test_a_build_in_a_movement_phase_names_the_next_adjustment_phase(database: Database,
                                                                     tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "France", "Build A Par", "Build A Pic")
    for order in ("Build A Par", "Build A Pic"):  # on a unit of its own or an empty space
        assert f'"{order}": refused, a build order is not possible in a movement phase; this ' \
               "phase takes moves (A Par - Bur), holds (H), supports (S) and convoys (C). " \
               "Builds and removals are ordered in the adjustment phase (next: Winter " \
               "1901)." in reply, reply
    assert "has no unit to order" not in reply


def test_an_order_naming_the_wrong_kind_of_unit_is_read_and_said(database: Database,
                                                                 tmp_path: Path) -> None:
    _game(database, tmp_path)
    reply = _orders(database, tmp_path, "France", "F Mar - Pie", "A Bre - MAO", "Par - Bur")
    assert "  F Mar - Pie  ->  A Mar - Pie  (the unit in Mar is an army)" in reply, reply
    assert "  A Bre - MAO  ->  F Bre - MAO  (the unit in Bre is a fleet)" in reply
    assert "  Par - Bur  ->  A Par - Bur\n" in reply  # no kind named: nothing to say


@pytest.mark.parametrize(("written", "title"), [
    ("standard", "Standard"), ("classic", "Standard"), ("diplomacy", "Standard"),
    ("std", "Standard"), ("deluge", "Deluge II"), ("Deluge2", "Deluge II"),
    ("chaos", "Chaos II"), ("Chaos2", "Chaos II"), ("geo", "Geophysical Diplomacy"),
    ("abstraction", "Abstraction2"), ("sahara", "Sahara")])
def test_variants_take_their_usual_names(written: str, title: str) -> None:
    assert get_variant(written).title == title


def test_create_takes_an_alias(database: Database, tmp_path: Path) -> None:
    reply = _send(database, tmp_path, GM, "CREATE flood deluge gmpass")
    assert "Game flood (Deluge II) created; you are its GM." in reply, reply


def test_a_reply_carries_the_game_tag_once(database: Database, tmp_path: Path) -> None:
    _game(database, tmp_path)
    config = maildir_config(tmp_path)
    for sent, expected in (("Re: [alpha] Spring 1901, Movement: results",
                            "[alpha] Re: Spring 1901, Movement: results"),
                           ("[alpha]: Re: Re: orders", "[alpha] Re: orders"),
                           ("orders", "[alpha] Re: orders")):
        result = ingest(database, message(PLAYERS["France"], "SIGNON France alpha pwfrance",
                                          subject=sent), config=config, clock=FixedClock(START))
        assert result.outcome is Disposition.ANSWERED
        with database.read() as s:
            [reply] = [o for o in outbound_repo.list_outbound(s)
                       if o.message_id == result.reply_message_id]
        assert dict(reply.headers)["Subject"] == expected, reply.headers


def test_deluge2_tables_spell_liverpool_as_the_board_does() -> None:
    variant = get_variant("deluge2")
    assert variant.map.lookup("Liverpool") == "Lvp"
    assert "Den, Lvp" in variant.help and "Lpl" not in variant.help


def test_the_chaos2_start_mail_gives_the_opening_build_and_the_code(database: Database,
                                                                    tmp_path: Path) -> None:
    powers = chaos_powers()
    setup = ["CREATE kaos chaos gmpass"] + [
        f"ADD {p.name} chaos-{p.code.lower()}@example.org pw{p.code}" for p in powers] + ["START"]
    _, mail = send_all(database, tmp_path, GM, "\n".join(setup))
    stp = next(p for p in powers if p.name == "St Petersburg")
    [message_] = [m for m in mail
                  if m.recipients == (f"chaos-{stp.code.lower()}@example.org",)
                  and dict(m.headers)["Subject"].endswith("the game has started")]
    start = message_.parts[0].text
    assert "You play St Petersburg." in start, start
    # the starting board: a PNG every mail client shows, and the SVG to zoom
    png, svg, event = draw_pictures(message_)[0].attachments  # the PNG as the sender draws it
    assert (event.filename, event.content_type) == ("deadline.ics", "text/calendar")
    assert (png.filename, png.content_type) == ("kaos-winter-1900-adjustment.png", "image/png")
    assert png.data.startswith(b"\x89PNG") and png.drawn
    assert (svg.filename, svg.content_type) == ("kaos-winter-1900-adjustment.svg",
                                                "image/svg+xml")
    assert b"StP" in svg.data
    assert "The board as the game starts is attached (kaos-winter-1900-adjustment.png;" \
        in start.replace("\n", " ")
    assert "Chaos II opens with builds in Winter 1900: the board starts empty." in start
    assert "build 1 unit on your home centre StP" in start
    assert f"SIGNON {stp.code}kaos <your password> signs you on too ({stp.code} is St " \
           "Petersburg's" in start.replace("\n", " ")
    assert not mail_faults(start)


def _view(**changes: object) -> ReportView:
    """A report of a Chaos II sized game: long power names, long lists."""
    names = [p.name for p in chaos_powers()]
    base = ReportView(
        game="kaos", title="Chaos II", phase="Spring 1901, Movement",
        processed="Thu 2026-03-05 12:00 UTC", played=(), dislodged=(),
        centres=(CentreRow("Constantinople", 1, ("Con",), 1),
                 CentreRow("Paris", 2, ("Bel", "Par"), 1, dislodged=1),
                 CentreRow("Rome", 12, tuple(f"C{i:02d}" for i in range(12)), 9, builds=3,
                           build_sites=("Rom",))),
        eliminated=(), finished=False, winners=(), next_phase="Spring 1901, Retreat",
        deadline="Fri 2026-03-06 12:00 UTC", awaiting=tuple(names), no_choice=tuple(names),
        late=tuple(LateRow(n, False) for n in names), service="Judge", picture="k.svg")
    return ReportView(**{**base.__dict__, **changes})  # type: ignore[arg-type]


def test_a_report_is_78_columns_with_plurals_and_aligned_counts() -> None:
    text = render("report/phase-body.txt.j2", r=_view())
    assert not mail_faults(text), mail_faults(text)
    lines = text.splitlines()
    con = next(line for line in lines if line.startswith("  Constantinople:"))
    par = next(line for line in lines if line.startswith("  Paris:"))
    rome = next(line for line in lines if line.startswith("  Rome:"))
    assert con == "  Constantinople:  1 centre,   1 unit  [Con]"
    assert par == "  Paris:           2 centres,  1 unit + 1 dislodged [Bel Par]"
    assert rome.startswith("  Rome:           12 centres,  9 units; builds 3 (sites: Rom)")
    # the centres that do not fit, under the counts
    assert lines[lines.index(rome) + 1] == " " * 18 + "[" + " ".join(
        f"C{i:02d}" for i in range(12)) + "]"
    due = next(i for i, line in enumerate(lines) if line.startswith("Orders are due from: "))
    assert lines[due + 1].startswith("  ") and lines[due + 4].endswith("Warsaw.")  # wrapped
    assert "sent no orders: their units held." in text


def test_the_gm_report_notes_press_only_when_there_was_press() -> None:
    late = (LateRow("Paris", False),)
    view = _view(late=late)
    plain = render("report/phase-gm.txt.j2", r=view, body="BODY")
    assert "GM: the late-order policy was applied to Paris." in plain
    assert "grey press" not in plain
    with_press = render("report/phase-gm.txt.j2", body="BODY",
                        r=_view(late=late, press=(PressRow(None, (), "hello"),)))
    assert with_press.index("late-order policy") < with_press.index("names every sender")
    assert build_subject("results", game="kaos", phase="Spring 1901, Movement") == \
        "[kaos] Spring 1901, Movement: results"
