"""Mailbox claims on SQLite and PostgreSQL: a message claimed by one process is held from the
others while its lease runs, taken over once it lapsed or its holder is gone, reported done once
stored, and free again when its holder releases it."""

from __future__ import annotations

from datetime import timedelta

from gm.store import inbound
from gm.store.db import Database
from gm.store.holders import this_process
from gm.store.mailbox_claims import claim_mail, prune_mail_claims, release_mail, renew_mail
from tests.support.store_samples import T0

SOURCE, FOLDER = "imap:gm@127.0.0.1:143/INBOX", "INBOX"
OTHER = "otherhost - 4242 99"  # a process on another host: checked by its lease alone
UIDS = [(7, 1), (7, 2), (7, 3)]


def _claim(db: Database, uids: list[tuple[int, int]], holder: str, minutes: float = 0):
    with db.transaction() as s:
        return claim_mail(s, SOURCE, FOLDER, uids, holder=holder,
                          now=T0 + timedelta(minutes=minutes))


def test_a_claimed_message_is_held_from_another_process_until_its_lease_lapses(
        database: Database) -> None:
    me = this_process().key
    first = _claim(database, UIDS[:2], OTHER)
    assert first.mine == {(7, 1), (7, 2)} and not first.held and not first.done

    second = _claim(database, UIDS, me)
    assert second.mine == {(7, 3)}
    assert second.held == {(7, 1), (7, 2)}
    assert second.lapse is not None and second.lapse > T0

    again = _claim(database, UIDS, me)  # its own claims stay its own
    assert again.mine == {(7, 3)} and again.held == {(7, 1), (7, 2)}

    later = _claim(database, UIDS, me, minutes=3)  # the other's lease (2 minutes) lapsed
    assert later.mine == set(UIDS) and not later.held


def test_a_gone_holder_s_claims_are_taken_at_once(database: Database) -> None:
    here = this_process()
    gone = f"{here.host} {here.namespace or '-'} 999999999 -"  # this host, no such PID
    assert _claim(database, UIDS, gone).mine == set(UIDS)
    assert _claim(database, UIDS, here.key).mine == set(UIDS)


def test_a_stored_message_is_done_not_fetched_again(database: Database) -> None:
    assert _claim(database, UIDS, OTHER).mine == set(UIDS)
    with database.transaction() as s:
        inbound.receive_inbound(s, raw=b"Message-ID: <a@x>\r\n\r\nhi", sender="a@x", now=T0,
                                message_id="<a@x>", subject=None, mailbox=FOLDER,
                                uidvalidity=7, uid=2)
    taken = _claim(database, UIDS, this_process().key, minutes=3)
    assert taken.done == {(7, 2)}
    assert taken.mine == {(7, 1), (7, 3)}


def test_released_claims_are_free_and_old_ones_pruned(database: Database) -> None:
    me = this_process().key
    _claim(database, UIDS, me)
    with database.transaction() as s:
        assert release_mail(s, SOURCE, me) == 3
    assert _claim(database, UIDS, OTHER).mine == set(UIDS)
    with database.transaction() as s:
        assert prune_mail_claims(s, T0 + timedelta(hours=1)) == 0
        assert prune_mail_claims(s, T0 + timedelta(days=2)) == 3


def test_a_renewed_claim_stays_held_past_its_first_lease(database: Database) -> None:
    _claim(database, UIDS, OTHER)
    with database.transaction() as s:
        assert renew_mail(s, SOURCE, OTHER, now=T0 + timedelta(minutes=1.5)) == 3
    assert _claim(database, UIDS, this_process().key, minutes=3).held == set(UIDS)
    assert _claim(database, UIDS, this_process().key, minutes=4).mine == set(UIDS)
