"""What the fixtures of the test servers (Dovecot, Postfix) share: a folder of their own and
a start that is always followed by a stop."""

from __future__ import annotations

import contextlib
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Protocol, TypeVar


class Server(Protocol):
    def start(self) -> None: ...
    def stop(self) -> None: ...


S = TypeVar("S", bound=Server)


@contextlib.contextmanager
def server_folder(prefix: str) -> Iterator[Path]:
    """A new temporary folder that the server's unprivileged processes can read (mode 0755:
    its passwd file, certificate, configuration), removed with all in it afterwards."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    root.chmod(0o755)
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@contextlib.contextmanager
def started(server: S) -> Iterator[S]:
    """`server`, started, and stopped afterwards however the block ends."""
    server.start()
    try:
        yield server
    finally:
        server.stop()
