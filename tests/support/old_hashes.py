"""Password hashes as an older gm stored them, for the tests of their upgrade."""

from __future__ import annotations

import base64
import hashlib


def unnormalised_hash(password: str) -> str:
    """A hash as gm made it before passwords were Unicode-normalised: of the password as
    typed."""
    salt = b"fedcba9876543210"
    key = hashlib.scrypt(password.encode(), salt=salt, n=1 << 10, r=8, p=1, dklen=32)
    return "scrypt$10$8$1${}${}".format(
        base64.b64encode(salt).decode().rstrip("="), base64.b64encode(key).decode().rstrip("="))
