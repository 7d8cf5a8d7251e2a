"""The acknowledgement of a player's orders as a mail client shows it: the orders are taken by
the real service (ingest), the reply composed for sending as the sender does (its PNG drawn),
and its multipart/related part (the HTML and the picture it shows by Content-ID) opened in
headless Chromium, as tests/pictures/test_report_chromium.py opens a report. The DOM has the
reply's lines and the picture; the screenshot shows the map (its seas: the image loaded)."""

from __future__ import annotations

from email import message_from_bytes
from email.message import EmailMessage
from email.policy import SMTP
from pathlib import Path

from gm.mail.transport import RawMessage
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.service.sender import compose, draw_pictures
from gm.store import migrate
from gm.store import outbound as outbound_repo
from gm.store.db import Database, open_database
from tests.pictures.test_report_chromium import _chromium, sea_seen
from tests.support.service_support import GM, PLAYERS, START, maildir_config, message


def _reply(db: Database, tmp_path: Path, sender: str, body: str) -> object:
    """The reply the service queues to `body`, composed for sending (its picture drawn), read
    as a mail client reads it (an acknowledgement is written as bytes: gm.mail.compose_direct)."""
    config = maildir_config(tmp_path)
    result = ingest(db, message(sender, body), config=config, clock=FixedClock(START))
    assert result.outcome is Disposition.ANSWERED
    with db.read() as s:
        [record] = [r for r in outbound_repo.list_outbound(s, limit=100)
                    if r.message_id == result.reply_message_id]
    composed = compose(draw_pictures(record)[0], config)
    if isinstance(composed, RawMessage):
        return message_from_bytes(composed.data, policy=SMTP)
    return composed


def test_the_acknowledgement_opens_in_chromium_with_its_picture(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'gm.sqlite3'}"
    migrate.upgrade(url)
    db = open_database(url)
    _reply(db, tmp_path, GM, "\n".join(
        ["CREATE seen standard gmpass"]
        + [f"ADD {power} {addr} pw{power.lower()}" for power, addr in PLAYERS.items()]
        + ["START"]))
    reply = _reply(db, tmp_path, PLAYERS["Germany"],
                   "SIGNON Germany seen pwgermany\nA Ber - Sil\nA Mun - Bur")
    assert isinstance(reply, EmailMessage)
    related = reply.get_body(preferencelist=("related",))
    assert isinstance(related, EmailMessage), "the HTML part shows no inline picture"
    page = tmp_path / "ack.mhtml"  # a multipart/related document, as MHTML is
    page.write_bytes(related.as_bytes())
    dom = _chromium(tmp_path, "--dump-dom", page.as_uri()).stdout.decode()
    assert dom.count("<img ") == 1
    assert 'src="cid:seen-spring-1901-movement-germany-orders.png@picture.gm"' in dom
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in dom
    assert "A Ber - Sil  -&gt;  A Ber - Sil" in dom  # the reply's lines, as in its text
    assert "Units without orders: F Kie." in dom
    assert "seen: Spring 1901, Movement, the orders of Germany as they stand" in dom

    shot = tmp_path / "shot.png"
    _chromium(tmp_path, "--window-size=800,1100", f"--screenshot={shot}", page.as_uri())
    seen = sea_seen(shot, top=300, rows=1100)
    # the map's seas cover about a third of the picture; a broken image shows none
    assert seen > 0.1 * (160 * 156), seen
