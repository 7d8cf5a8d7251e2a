"""`gm serve` loads the LMTP source (and aiosmtpd) only when its configuration names LMTP: a
service reading IMAP or a Maildir starts without it, and tells an LMTP source as one. Its sender
worker starts without the bounce notices (gm.service.bounces, jinja2)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from pathlib import Path

from gm.config import LmtpConfig
from gm.mail.connect import make_source
from gm.service.serve import _lmtp
from tests.support.service_support import maildir_config

_LOADED = """
import json, sys
import gm.service.serve
print(json.dumps(sorted(m for m in sys.modules
                        if m == "gm.mail.lmtp" or m.split(".")[0] == "aiosmtpd")))
"""


def test_the_service_loads_no_lmtp_server_until_one_is_configured() -> None:
    done = subprocess.run([sys.executable, "-c", _LOADED], capture_output=True, check=True,
                          text=True)
    assert json.loads(done.stdout) == []


def test_an_lmtp_source_is_told_as_one(tmp_path: Path) -> None:
    config = maildir_config(tmp_path)
    assert _lmtp(make_source(config)) is None  # a Maildir inbox
    lmtp = make_source(dataclasses.replace(config, lmtp=LmtpConfig(path=tmp_path / "s.sock")))
    assert _lmtp(lmtp) is lmtp


_WORKER_LOADED = """
import json, sys
import gm.cli.serve, gm.cli.service_setup, gm.mail.connect, gm.service.send_worker
print(json.dumps(sorted(m for m in sys.modules
                        if m == "gm.service.bounces" or m.split(".")[0] == "jinja2")))
"""


def test_the_sender_worker_starts_without_the_bounce_notices_and_their_templates() -> None:
    """The worker loads gm.service.bounces (and jinja2 with it, some 0.1 s of its start) only
    when a relay refuses a recipient or accepts a failing one (tests/service/
    test_service_bounces.py)."""
    done = subprocess.run([sys.executable, "-c", _WORKER_LOADED], capture_output=True,
                          check=True, text=True)
    assert json.loads(done.stdout) == []
