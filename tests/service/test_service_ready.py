"""gm serve telling systemd it is ready (sd_notify READY=1, for a Type=notify unit): to the
socket NOTIFY_SOCKET names, a path or an abstract name; nothing without it; a socket nobody
reads is logged, never fatal. The whole service's readiness (after its LMTP listener listens)
is in test_service_postfix.py."""

from __future__ import annotations

import os
import socket
from pathlib import Path

import pytest

from gm.service.ready import notify_ready


def test_ready_is_sent_to_a_socket_path(tmp_path: Path) -> None:
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(tmp_path / "notify"))
        assert notify_ready({"NOTIFY_SOCKET": str(tmp_path / "notify")})
        assert sock.recv(4096).split(b"\n")[0] == b"READY=1"


def test_ready_is_sent_to_an_abstract_socket() -> None:
    name = f"gm-test-notify-{os.getpid()}"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind("\0" + name)
        assert notify_ready({"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(4096).startswith(b"READY=1")


def test_without_systemd_nothing_is_sent_and_a_dead_socket_is_only_logged(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    assert not notify_ready({})
    assert not notify_ready({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert "could not tell systemd the service is ready" in caplog.text
