"""Passwords in memory (gm.secret): one `Secret` for the configuration and for commands, whose
value shows only where it is asked for."""

from __future__ import annotations

from gm.commands.catalog.signon import SignOn
from gm.commands.parse import parse_message
from gm.config import load_config
from gm.secret import MASK, Secret


def test_a_secret_shows_its_value_only_when_asked() -> None:
    secret = Secret("hunter2")
    assert secret.reveal() == secret.value == "hunter2"
    assert "hunter2" not in f"{secret} {secret!r} {[secret]}"
    assert str(secret) == MASK and repr(secret) == "Secret('********')"
    assert repr(Secret("")) == "Secret('')" and not Secret("") and secret


def test_secrets_compare_and_hash_by_value() -> None:
    assert Secret("a") == Secret("a") and Secret("a") != Secret("b") and Secret("a") != "a"
    assert len({Secret("a"), Secret("a"), Secret("b")}) == 2


def test_the_configuration_and_the_commands_hold_the_same_kind_of_secret() -> None:
    config = load_config(None, {"GM_IMAP_HOST": "imap.example.org", "GM_IMAP_USER": "gm",
                                "GM_IMAP_PASSWORD": "imap-pw"})
    assert config.imap is not None and isinstance(config.imap.password, Secret)
    assert config.imap.password.reveal() == "imap-pw" and "imap-pw" not in repr(config)
    commands = parse_message("SIGNON France mygame my-pw\n")
    signon = commands[0]
    assert isinstance(signon, SignOn) and isinstance(signon.password, Secret)
    assert signon.password.reveal() == "my-pw" and "my-pw" not in repr(signon)
