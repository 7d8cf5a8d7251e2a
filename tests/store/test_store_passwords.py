"""Passwords: salted scrypt hashes with their parameters, checked in constant time."""

from __future__ import annotations

import hashlib

import pytest

from gm.store.passwords import (
    COST_VARIABLE,
    hash_password,
    needs_rehash,
    upgraded_hash,
    verify_password,
)
from tests.support.old_hashes import unnormalised_hash


def test_a_hash_verifies_its_password_only() -> None:
    stored = hash_password("s3cret")
    assert verify_password("s3cret", stored)
    assert not verify_password("s3cret ", stored)
    assert not verify_password("S3cret", stored)
    assert not verify_password("", stored)


def test_hashes_are_salted_and_do_not_contain_the_password() -> None:
    a, b = hash_password("same"), hash_password("same")
    assert a != b
    assert "same" not in a
    assert verify_password("same", a) and verify_password("same", b)


def test_the_stored_form_names_scrypt_and_its_parameters(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(COST_VARIABLE, raising=False)  # the cost a server runs with by default
    scheme, log2_n, r, p, salt, key = hash_password("x").split("$")
    assert (scheme, log2_n, r, p) == ("scrypt", "14", "8", "1")
    assert len(salt) >= 20 and len(key) >= 40  # 16 and 32 bytes in base64
    stored = "$".join((scheme, log2_n, r, p, salt, key))
    assert key == base64_key("x", stored)  # n = 2**14 in earnest, not just so named


def base64_key(password: str, stored: str) -> str:
    """The key scrypt derives for `password` with the parameters and salt of `stored`."""
    import base64

    _, log2_n, r, p, salt, _ = stored.split("$")
    raw = hashlib.scrypt(password.encode(), salt=base64.b64decode(salt + "=" * (-len(salt) % 4)),
                         n=1 << int(log2_n), r=int(r), p=int(p), maxmem=64 << 20, dklen=32)
    return base64.b64encode(raw).decode().rstrip("=")


def test_the_cost_of_new_hashes_is_set_by_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(COST_VARIABLE, "11")
    eleven = hash_password("pw")
    assert eleven.startswith("scrypt$11$8$1$") and eleven.split("$")[5] == base64_key("pw", eleven)
    assert not needs_rehash(eleven)
    monkeypatch.delenv(COST_VARIABLE)
    assert verify_password("pw", eleven)  # a hash keeps its cost: it verifies at any setting
    assert needs_rehash(eleven)  # and is made again at today's cost at the next chance


@pytest.mark.parametrize("given", ["9", "21", "fourteen", "-12", "14.0"])
def test_a_cost_out_of_range_is_refused_with_what_it_may_be(
        monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    monkeypatch.setenv(COST_VARIABLE, given)
    with pytest.raises(ValueError) as refused:
        hash_password("pw")
    assert str(refused.value) == (
        "GM_SCRYPT_LOG2_N must be a whole number from 10 to 20 (scrypt's n is 2 to that "
        f"power; 14 when unset), not {given!r}")


def test_stored_parameters_are_used_so_they_can_change_later() -> None:
    """A hash made with other parameters (as an older gm might have) still verifies."""
    import base64

    salt = b"0123456789abcdef"
    key = hashlib.scrypt(b"old", salt=salt, n=1 << 10, r=4, p=2, dklen=24)
    old = "scrypt$10$4$2${}${}".format(
        base64.b64encode(salt).decode().rstrip("="), base64.b64encode(key).decode().rstrip("=")
    )
    assert verify_password("old", old)
    assert not verify_password("new", old)
    assert needs_rehash(old)
    assert not needs_rehash(hash_password("new"))


def test_malformed_or_missing_hashes_never_verify() -> None:
    for stored in (None, "", "plain", "scrypt$14$8$1$!!$!!", "md5$1$2$3$4$5", "scrypt$99$8$1$a$b"):
        assert not verify_password("anything", stored)


def test_a_remembered_verification_changes_no_answer() -> None:
    # a password that verified once is remembered (gm.store.passwords): the answers stay right
    stored = hash_password("right")
    assert verify_password("right", stored) and verify_password("right", stored)
    assert not verify_password("wrong", stored)
    assert not verify_password("right ", stored) and not verify_password("Right", stored)
    other = hash_password("other")  # a new password: the old one no longer verifies
    assert not verify_password("right", other) and verify_password("other", other)
    log2_n = stored.split("$")[1]
    assert not verify_password("right", stored.replace(f"scrypt${log2_n}$",
                                                       f"scrypt${int(log2_n) + 1}$"))


NFC, NFD = "caf\u00e9-m\u00fc", "cafe\u0301-mu\u0308"  # one password, composed and decomposed


def test_passwords_are_unicode_normalised() -> None:
    assert NFC != NFD
    for typed in (NFC, NFD):
        stored = hash_password(typed)
        assert verify_password(NFC, stored) and verify_password(NFD, stored)
        assert upgraded_hash(NFD, stored) is None and upgraded_hash(NFC, stored) is None
        assert not verify_password("cafe-mu", stored)


def test_an_unnormalised_hash_verifies_and_is_upgraded() -> None:
    old = unnormalised_hash(NFD)  # set in NFD before normalising
    assert verify_password(NFC, old) and verify_password(NFD, old)
    new = upgraded_hash(NFC, old)
    assert new is not None and new != old
    assert verify_password(NFC, new) and verify_password(NFD, new)
    assert upgraded_hash(NFC, new) is None
    assert upgraded_hash("ascii-only", hash_password("ascii-only")) is None
