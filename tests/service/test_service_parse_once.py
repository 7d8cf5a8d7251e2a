"""ingest() parses an inbound message's bytes once: the bounce reader (gm.service.bounces) reads
the message the decoder parsed (gm.mail.decode.DecodedMessage.parsed), whole."""

from __future__ import annotations

import email
from email.message import Message
from pathlib import Path

import pytest

from gm.mail.decode import decode_message
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.store.db import Database
from tests.support.service_support import PLAYERS, START, maildir_config, message

# a robot's mail (a vacation reply): the bounce reader looks at it before it is left unanswered
VACATION = message(PLAYERS["Italy"], "I am away until Monday.\n" + "Lorem ipsum.\n" * 40,
                   subject="Out of office", headers={"Auto-Submitted": "auto-replied"})


def test_the_decoder_keeps_the_whole_message_it_parsed() -> None:
    decoded = decode_message(VACATION)
    assert decoded.parsed is not None and decoded.parsed["Subject"] == "Out of office"
    assert "I am away" in str(decoded.parsed.get_payload())
    too_large = decode_message(VACATION, max_bytes=100)  # only its headers are read
    assert too_large.too_large and too_large.parsed is None


def test_ingest_parses_the_bytes_once(database: Database, tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    parsed: list[int] = []
    real = email.message_from_bytes

    def counting(raw: bytes, *args: object, **kwargs: object) -> Message:
        if b"Lorem ipsum." in raw:  # the whole message, not its header block
            parsed.append(len(raw))
        return real(raw, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(email, "message_from_bytes", counting)
    result = ingest(database, VACATION, config=maildir_config(tmp_path),
                    clock=FixedClock(START))
    assert result.outcome is Disposition.AUTOMATIC
    assert len(parsed) == 1
