"""`gm shunt list|replay`: a message whose handling failed is kept, listed, and replayed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gm.config import load_config
from gm.service.clock import FixedClock
from gm.service.ingest import Disposition, ingest
from gm.store import games as games_repo
from gm.store import inbound as inbound_repo
from gm.store import outbound as outbound_repo
from gm.store.db import open_database
from gm.store.passwords import hash_password
from gm.store.statuses import InboundStatus
from tests.support.bounce_mail import postfix_bounce
from tests.support.environment import clean_env
from tests.support.service_support import GM, START, maildir_config, message


def _gm(config: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = clean_env()
    return subprocess.run([sys.executable, "-m", "gm", "shunt", *args, "--config", str(config)],
                          capture_output=True, text=True, env=env, timeout=120)


def test_a_shunted_message_is_listed_and_replayed_once_fixed(migrated_url: str,
                                                             tmp_path: Path) -> None:
    config = tmp_path / "gm.toml"
    config.write_text(f'database_url = "{migrated_url}"\naddress = "judge@example.org"\n'
                      f'[maildir]\ninbox = "{tmp_path / "in"}"\noutbox = "{tmp_path / "out"}"\n')
    db = open_database(migrated_url)
    try:
        # a game stored with a variant this gm does not know: its START fails and is kept
        with db.transaction() as s:
            games_repo.create_game(s, name="broken", variant="no-such-variant", gm_address=GM,
                                   gm_password_hash=hash_password("gmpass"), now=START)
        raw = message(GM, "SIGNON GM broken gmpass\nSTART", subject="start it")
        kept = ingest(db, raw, config=maildir_config(tmp_path), clock=FixedClock(START))
        assert kept.outcome is Disposition.SHUNTED

        listed = _gm(config, "list")
        assert listed.returncode == 0, listed.stderr
        assert f"{kept.inbound_id}\t" in listed.stdout and "start it" in listed.stdout
        assert "no-such-variant" in listed.stdout
        assert "gmpass" not in listed.stdout

        # replaying before the cause is fixed keeps it shunted
        again = _gm(config, "replay", str(kept.inbound_id))
        assert again.returncode == 1 and f"{kept.inbound_id}: shunted" in again.stdout

        # the operator fixes the game; the replay now handles the message as new
        with db.transaction() as s:
            game = games_repo.find_game(s, "broken")
            assert game is not None
            games_repo.delete_game(s, game.id)
            games_repo.create_game(s, name="broken", variant="standard", gm_address=GM,
                                   gm_password_hash=hash_password("gmpass"), now=START)
        fixed = _gm(config, "replay", "--all")
        assert fixed.returncode == 0, fixed.stdout + fixed.stderr
        assert f"{kept.inbound_id}: answered" in fixed.stdout
        with db.read() as s:
            stored = inbound_repo.get_inbound(s, kept.inbound_id)
            assert stored.status is InboundStatus.PROCESSED
        assert "no shunted messages" in _gm(config, "list").stdout
        # a message that is not shunted is not replayed
        twice = _gm(config, "replay", str(kept.inbound_id))
        assert twice.returncode == 1 and "not replayed" in twice.stdout
    finally:
        db.dispose()


def test_held_messages_are_listed_and_replayed_once(migrated_url: str, tmp_path: Path) -> None:
    """Messages over the sender's rate limit are held; `gm shunt list` marks them HELD and
    `gm shunt replay --held` handles each exactly once."""
    config = tmp_path / "gm.toml"
    config.write_text(f'database_url = "{migrated_url}"\naddress = "judge@example.org"\n'
                      "rate_limit = 2\nrate_window = 3600\n"
                      f'[maildir]\ninbox = "{tmp_path / "in"}"\noutbox = "{tmp_path / "out"}"\n')
    service = load_config(config, {})
    db = open_database(migrated_url)
    try:
        clock = FixedClock(START)
        done = [ingest(db, message(GM, "LIST", subject=f"list {n}"), config=service, clock=clock)
                for n in range(4)]
        assert [d.outcome for d in done] == [Disposition.ANSWERED] * 2 + [Disposition.HELD] * 2
        held = [d.inbound_id for d in done[2:]]

        listed = _gm(config, "list")
        assert listed.returncode == 0, listed.stderr
        for inbound_id in held:
            assert f"{inbound_id}\tHELD\t" in listed.stdout
        assert "list 2" in listed.stdout and "more than 2 messages" in listed.stdout
        assert f"{done[0].inbound_id}\t" not in listed.stdout

        replayed = _gm(config, "replay", "--held")
        assert replayed.returncode == 0, replayed.stdout + replayed.stderr
        assert all(f"{i}: answered" in replayed.stdout for i in held)
        assert "no shunted messages, no held messages" in _gm(config, "list").stdout
        again = _gm(config, "replay", str(held[0]))
        assert again.returncode == 1 and "not replayed" in again.stdout
        with db.read() as s:
            assert all(inbound_repo.get_inbound(s, i).status is InboundStatus.PROCESSED
                       for i in held)
            outbound = outbound_repo.list_outbound(s, limit=100)
        # one answer each (and the one notice, queued when the first was held)
        answers = [o for o in outbound if "You have sent more than" not in o.parts[0].text]
        assert sorted(o.inbound_id or 0 for o in answers) == sorted(d.inbound_id for d in done)
        assert len(outbound) == len(answers) + 1
    finally:
        db.dispose()


def test_a_bouncing_gm_address_is_listed_for_the_operator(migrated_url: str,
                                                          tmp_path: Path) -> None:
    config = tmp_path / "gm.toml"
    config.write_text(f'database_url = "{migrated_url}"\naddress = "judge@example.org"\n'
                      f'[maildir]\ninbox = "{tmp_path / "in"}"\noutbox = "{tmp_path / "out"}"\n')
    db = open_database(migrated_url)
    try:
        created = ingest(db, message(GM, "CREATE gamma standard gmpass"),
                         config=maildir_config(tmp_path), clock=FixedClock(START))
        assert created.outcome is Disposition.ANSWERED
        with db.read() as s:
            (reply,) = outbound_repo.list_outbound(s)
        assert reply.bounce_token is not None
        bounce = ingest(db, postfix_bounce(reply.bounce_token, GM),
                        config=maildir_config(tmp_path), clock=FixedClock(START))
        assert bounce.outcome is Disposition.AUTOMATIC
        with db.read() as s:  # nobody to tell by mail: the GM is the one who cannot be reached
            assert len(outbound_repo.list_outbound(s)) == 1
        listed = _gm(config, "list")
        assert listed.returncode == 0, listed.stderr
        assert f"GM BOUNCING\t2026-03-01 12:00 UTC\t{GM}\tGM of gamma" in listed.stdout
        assert "550 5.1.1 <master@example.org>: Recipient address rejected" in listed.stdout
    finally:
        db.dispose()
