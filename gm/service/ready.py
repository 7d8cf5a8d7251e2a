"""Tell systemd the service is ready (sd_notify's READY=1), for a unit with `Type=notify`.

With LMTP the service is ready once it listens: it then runs `[lmtp] flush` itself
(gm.mail.lmtp), so Postfix hands over what it queued while gm was down to a listener that is
there (flushed any sooner, Postfix finds nobody listening and defers that mail again, by its
backoff time). Without NOTIFY_SOCKET (not run by systemd, or another Type) nothing is sent.
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
