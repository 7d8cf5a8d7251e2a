"""Password hashing with scrypt (hashlib): salted, parameters stored with the hash.

Stored form: `scrypt$<log2 n>$<r>$<p>$<salt, base64>$<key, base64>`. Verification recomputes the
key with the stored parameters and compares in constant time, so the parameters can be raised
later without invalidating old hashes (`needs_rehash` tells when to store a new one).

scrypt is slow on purpose (tens of milliseconds), and every order message signs on, so a
password that verified is remembered for the life of the process: as an HMAC of the stored hash
and the password under a random per-process key, never the password itself. A wrong password
always costs the full scrypt; a hash that changes (a new password) no longer matches.

The cost of new hashes is n = 2**14 unless GM_SCRYPT_LOG2_N (10 to 20) says otherwise: higher
on a server with memory and time to spare, 10 in the test suite (as Devise's `stretches` or
Rails' `min_cost` are lowered for tests), where a game's eight hashes would otherwise cost more
than the rest of the test. Hashes keep the cost they were made with (`needs_rehash`).

Passwords are Unicode-normalised (NFC) before they are hashed, so a password typed with
composed accents matches one typed with combining ones. A hash made before from a password as it
was typed still verifies (the password is tried as typed and decomposed too), and
`upgraded_hash` gives its NFC hash to store at that sign-on.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import threading
import unicodedata

SCHEME = "scrypt"
LOG2_N = 14  # the default cost, n = 16384: 16 MiB of memory with r = 8
COST_VARIABLE = "GM_SCRYPT_LOG2_N"
MIN_LOG2_N, MAX_LOG2_N = 10, 20  # what COST_VARIABLE may say
R = 8
P = 1
SALT_BYTES = 16
KEY_BYTES = 32
_MAXMEM = 64 * 1024 * 1024
_VERIFIED_MAX = 10_000  # remembered successful verifications (about 1 MB)
_verified_key = os.urandom(32)
_verified: dict[bytes, None] = {}  # insertion-ordered: the oldest is dropped first
_verified_lock = threading.Lock()
_checking: dict[bytes, _Check] = {}  # checks in progress, by the same token


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.b64decode(text + "=" * (-len(text) % 4))


def _derive(password: str, salt: bytes, log2_n: int, r: int, p: int, length: int) -> bytes:
    return hashlib.scrypt(
        password.encode("utf-8"), salt=salt, n=1 << log2_n, r=r, p=p, maxmem=_MAXMEM, dklen=length
    )


def cost() -> int:
    """log2 of scrypt's n for new hashes: GM_SCRYPT_LOG2_N, or LOG2_N when it is unset; a
    ValueError naming the variable and what it may be when it is anything else."""
    given = os.environ.get(COST_VARIABLE, "").strip()
    if not given:
        return LOG2_N
    if not given.isdigit() or not MIN_LOG2_N <= int(given) <= MAX_LOG2_N:
        raise ValueError(f"{COST_VARIABLE} must be a whole number from {MIN_LOG2_N} to "
                         f"{MAX_LOG2_N} (scrypt's n is 2 to that power; {LOG2_N} when unset), "
                         f"not {given!r}")
    return int(given)


def _forms(password: str) -> list[str]:
    """The forms a password is checked in: NFC (as hashed now), then as typed and NFD (as a
    hash made before normalising may hold it); one form for plain ASCII."""
    return list(dict.fromkeys([unicodedata.normalize("NFC", password), password,
                               unicodedata.normalize("NFD", password)]))


def hash_password(password: str) -> str:
    """A new salted hash of `password` (NFC-normalised), for storing."""
    salt = os.urandom(SALT_BYTES)
    log2_n = cost()
    key = _derive(unicodedata.normalize("NFC", password), salt, log2_n, R, P, KEY_BYTES)
    return f"{SCHEME}${log2_n}${R}${P}${_b64(salt)}${_b64(key)}"


def verify_password(password: str, stored: str | None) -> bool:
    """Whether `password` matches the stored hash (False for no hash or a malformed one), in any
    of its Unicode forms (`_forms`)."""
    return any(_verify(form, stored) for form in _forms(password))


def upgraded_hash(password: str, stored: str) -> str | None:
    """For a `password` that verified against `stored`: its NFC hash, to store in place of a
    hash made from another form of it; None when `stored` is the NFC form's already."""
    if len(_forms(password)) == 1 or _verify(unicodedata.normalize("NFC", password), stored):
        return None
    return hash_password(password)


def _verify(password: str, stored: str | None) -> bool:
    if not stored:
        return False
    parts = stored.split("$")
    if len(parts) != 6 or parts[0] != SCHEME:
        return False
    try:
        log2_n, r, p = int(parts[1]), int(parts[2]), int(parts[3])
        salt, key = _unb64(parts[4]), _unb64(parts[5])
    except ValueError:
        return False
    if not (1 <= log2_n <= 20 and 1 <= r <= 32 and 1 <= p <= 16 and key):
        return False
    token = hmac.digest(_verified_key, stored.encode() + b"\0" + password.encode("utf-8"),
                        "sha256")
    if token in _verified:
        return True
    with _verified_lock:
        check = _checking.get(token)
        mine = check is None
        if check is None:
            check = _checking[token] = _Check()
    if not mine:  # another thread is checking the same password: its answer is this one's
        check.done.wait()
        return check.matched
    try:
        check.matched = hmac.compare_digest(_derive(password, salt, log2_n, r, p, len(key)), key)
    finally:
        with _verified_lock:
            if check.matched:
                _verified[token] = None
                while len(_verified) > _VERIFIED_MAX:
                    del _verified[next(iter(_verified))]
            del _checking[token]
        check.done.set()
    return check.matched


def remembered(password: str, stored: str) -> bool:
    """Whether `password` (in any of its forms) verified against `stored` already in this
    process (no scrypt)."""
    return any(hmac.digest(_verified_key, stored.encode() + b"\0" + form.encode("utf-8"),
                           "sha256") in _verified for form in _forms(password))


class _Check:
    """A check in progress: threads asking for the same one wait for its answer."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.matched = False


def needs_rehash(stored: str) -> bool:
    """Whether the hash was made with other parameters than today's (re-hash at next login)."""
    return not stored.startswith(f"{SCHEME}${cost()}${R}${P}$")
