"""Tell systemd the service is ready (sd_notify's READY=1), for a unit with `Type=notify`.

With LMTP the service is ready once it listens: systemd then runs the unit's ExecStartPost,
where `postqueue -f` has Postfix hand over the mail it queued while gm was down. Flushed any
sooner, Postfix finds nobody listening and defers that mail again, by its backoff time (300
seconds by default), past `[lmtp] settle`. Without NOTIFY_SOCKET (not run by systemd, or
another Type) nothing is sent.
"""

from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


def notify_ready(environ: dict[str, str] | None = None) -> bool:
    """Send READY=1 to the socket NOTIFY_SOCKET names; whether it was sent."""
    where = (os.environ if environ is None else environ).get("NOTIFY_SOCKET", "")
    if not where:
        return False
    address = "\0" + where[1:] if where.startswith("@") else where  # abstract namespace
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(address)
            sock.sendall(b"READY=1\nSTATUS=taking mail")
    except OSError as exc:  # systemd's start times out and says so; gm goes on
        log.warning("could not tell systemd the service is ready (%s): %s", where, exc)
        return False
    return True
