"""A zone name from mail that no file can be called is an unknown zone, never an error."""

from __future__ import annotations

import pytest

from gm.play.zones import zone


@pytest.mark.parametrize("name", ["x" * 400, "../../etc/passwd", "a\x00b", "Nowhere/At_All"])
def test_a_zone_name_no_zone_has_reads_as_utc(name: str) -> None:
    assert str(zone(name)) == "UTC"


def test_a_real_zone_is_read() -> None:
    assert str(zone("Europe/Paris")) == "Europe/Paris"
