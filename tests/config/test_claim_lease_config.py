"""`[imap] claim_lease`: how long a process's claim on a message of a shared folder lasts
(gm.service.mail_claims), from the file or GM_IMAP_CLAIM_LEASE, two minutes unless set."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.config import ConfigError, load_config

IMAP = {"GM_IMAP_HOST": "imap.example.org", "GM_IMAP_USER": "judge",
        "GM_IMAP_PASSWORD": "secret"}


def test_the_lease_is_two_minutes_unless_set() -> None:
    config = load_config(None, IMAP)
    assert config.imap is not None and config.imap.claim_lease == 120


def test_the_lease_is_read_from_the_file_and_the_environment(tmp_path: Path) -> None:
    path = tmp_path / "gm.toml"
    path.write_text("[imap]\nclaim_lease = 15\n")
    config = load_config(path, IMAP)
    assert config.imap is not None and config.imap.claim_lease == 15
    config = load_config(path, {**IMAP, "GM_IMAP_CLAIM_LEASE": "4.5"})
    assert config.imap is not None and config.imap.claim_lease == 4.5


@pytest.mark.parametrize(("value", "said"), [
    ("1", "from 2 to 3600, got 1.0"), ("3601", "from 2 to 3600, got 3601.0"),
    ("soon", "got 'soon'")])
def test_a_lease_out_of_bounds_is_refused_with_what_is_accepted(value: str, said: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(None, {**IMAP, "GM_IMAP_CLAIM_LEASE": value})
    assert "GM_IMAP_CLAIM_LEASE: expected a number of seconds" in str(caught.value)
    assert str(caught.value).endswith(said)
