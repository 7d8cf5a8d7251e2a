"""The tests' Dovecot (tests/support/fixtures/mailservers.py) in a parallel run: a port it was
given but another process took meanwhile (free_port only found it free) does not stop it: the
first start moves to new ports; a restart keeps the ports its clients know."""

from __future__ import annotations

import shutil
import socket
import tempfile
from pathlib import Path

import pytest

from tests.support.fixtures.mailservers import DovecotServer


def test_a_first_start_on_a_taken_port_moves_to_free_ones() -> None:
    root = Path(tempfile.mkdtemp(prefix="gm-dovecot-ports-"))
    root.chmod(0o755)
    server = DovecotServer(root)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        server.imap_port = port  # as if another process had bound it since free_port
        server._write_config()
        try:
            server.start()
            assert server.imap_port != port
            with socket.create_connection(("127.0.0.1", server.imap_port), 5) as imap:
                assert imap.recv(200).startswith(b"* OK")
            server.stop()
            server.imap_port = port
            server._write_config()
            with pytest.raises(RuntimeError, match="Address already in use"):
                server.start()  # a restart keeps its ports
        finally:
            server.stop()
            shutil.rmtree(root, ignore_errors=True)
