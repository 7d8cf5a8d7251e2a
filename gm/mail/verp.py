"""Per-message envelope senders (VERP): `judge+b.<token>@domain` for the service address
`judge@domain`, so a bounce, sent to the envelope sender, names the message it reports.

The token is random and stored with the message (gm.store.outbound), so nobody can make one
up; a bounce whose token names no message gm sent marks nothing.
"""

from __future__ import annotations

import re
from email.message import Message
from email.utils import getaddresses

MARK = "+b."
_TOKEN = re.compile(r"^[0-9a-f]{8,32}$")
# where a delivered bounce names the address it was sent to (Postfix, Exim, qmail, Dovecot)
RECIPIENT_HEADERS = ("Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To", "To")


def envelope_sender(service_address: str, token: str | None) -> str:
    """The envelope sender for a message with `token` (the service address when None)."""
    local, at, domain = service_address.rpartition("@")
    if not token or not at:
        return service_address
    return f"{local}{MARK}{token}@{domain}"


def token_of(address: str, service_address: str) -> str | None:
    """The token in `address` when it is one of the service's envelope senders, else None."""
    local, _, domain = address.strip().lower().rpartition("@")
    own_local, _, own_domain = service_address.strip().lower().rpartition("@")
    prefix = own_local + MARK
    if domain != own_domain or not local.startswith(prefix):
        return None
    token = local[len(prefix):]
    return token if _TOKEN.match(token) else None


def token_in(message: Message, service_address: str) -> str | None:
    """The first envelope-sender token among the addresses `message` was delivered to."""
    for name in RECIPIENT_HEADERS:
        try:
            values = [str(v) for v in message.get_all(name) or []]
        except Exception:  # a header the email package cannot read
            continue
        for _, address in getaddresses(values):
            token = token_of(address, service_address)
            if token:
                return token
    return None
