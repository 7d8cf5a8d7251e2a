"""Mail for the service tests: raw messages as players send them, and the game they play."""

from __future__ import annotations

from datetime import UTC, datetime
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path

from gm.mail.config import Config, MaildirConfig

GM = "master@example.org"
SERVICE = "judge@example.org"
PLAYERS = {
    "Austria": "austria@example.org",
    "England": "england@example.org",
    "France": "france@example.org",
    "Germany": "germany@example.org",
    "Italy": "italy@example.org",
    "Russia": "russia@example.org",
    "Turkey": "turkey@example.org",
}
START = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

# Spring 1901 orders, one set per power (every unit ordered).
SPRING_1901 = {
    "Austria": ["A Vie - Gal", "A Bud - Ser", "F Tri - Alb"],
    "England": ["F Lon - NTH", "F Edi - NWG", "A Lvp - Yor"],
    "France": ["A Par - Bur", "A Mar - Spa", "F Bre - MAO"],
    "Germany": ["A Ber - Kie", "A Mun - Ruh", "F Kie - Den"],
    "Italy": ["A Ven - Pie", "A Rom - Apu", "F Nap - ION"],
    "Russia": ["A Mos - Ukr", "A War - Gal", "F Sev - BLA", "F StP/sc - BOT"],
    "Turkey": ["A Con - Bul", "A Smy - Arm", "F Ank - BLA"],
}


def message(sender: str, body: str, *, subject: str = "commands",
            message_id: str | None = None, headers: dict[str, str] | None = None) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVICE
    msg["Subject"] = subject
    msg["Date"] = format_datetime(START)
    msg["Message-ID"] = message_id or make_msgid(domain="example.org")
    for name, value in (headers or {}).items():
        msg[name] = value
    msg.set_content(body)
    return bytes(msg)


def maildir_config(root: Path) -> Config:
    return Config(data_dir=root, address=SERVICE, display_name="Judge",
                  maildir=MaildirConfig(inbox=root / "inbox", outbox=root / "outbox"))
