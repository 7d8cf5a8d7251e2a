"""Passwords: salted scrypt hashes with their parameters, checked in constant time."""

from __future__ import annotations

import hashlib

from gm.store.passwords import hash_password, needs_rehash, verify_password


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


def test_the_stored_form_names_scrypt_and_its_parameters() -> None:
    scheme, log2_n, r, p, salt, key = hash_password("x").split("$")
    assert (scheme, log2_n, r, p) == ("scrypt", "14", "8", "1")
    assert len(salt) >= 20 and len(key) >= 40  # 16 and 32 bytes in base64


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
    assert not verify_password("right", stored.replace("scrypt$14", "scrypt$13"))
