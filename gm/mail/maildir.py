"""Local Maildirs: the embedded default inbox (a MailSource) and outbox (a MailSink).

Inbox: a message in new/ is unprocessed; `mark_processed` moves it to cur/ with the Seen flag
(":2,S"), so what is in cur/ is never offered again, and what is still in new/ after a restart
is offered again. Outbox: each sent message is written to tmp/, synced, and renamed into new/
(atomic on one filesystem, as the Maildir convention requires), new/ synced after it (once a
batch, for a batch the sender marks sent together: `MaildirSink.send_all`). A message
with a Message-ID gets a file name derived from it, so sending it again (a retry after a
crash) writes nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import logging
import os
import socket
import threading
import time
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from pathlib import Path

from gm.mail.compose import to_raw
from gm.mail.errors import MaildirError
from gm.mail.pieced import lf_pieces
from gm.mail.source_keys import maildir_key
from gm.mail.transport import (
    Backoff,
    InboundMail,
    OutgoingMessage,
    PolledSource,
    RawMessage,
    SendReport,
)

log = logging.getLogger(__name__)
_counter = itertools.count()


def ensure_maildir(path: Path) -> None:
    """Create path/{tmp,new,cur} if missing."""
    try:
        for sub in ("tmp", "new", "cur"):
            (path / sub).mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise MaildirError(f"cannot create Maildir {path}: {exc.strerror}") from None


def _key(name: str) -> str:
    """The unique part of a Maildir file name (before the ":2,FLAGS" info)."""
    return name.split(":", 1)[0]


def _unique_name() -> str:
    host = socket.gethostname().replace("/", "\\057").replace(":", "\\072")
    return f"{time.time_ns()}.P{os.getpid()}Q{next(_counter)}.{host}"


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_out(fd: int, pieces: Sequence[bytes]) -> None:
    """Write `pieces` to `fd`, one writev(2) for all of them where it takes them whole."""
    left = [memoryview(piece) for piece in pieces if piece]
    while left:
        done = os.writev(fd, left[:_IOV_MAX])
        while left and done >= len(left[0]):
            done -= len(left.pop(0))
        if done:
            left[0] = left[0][done:]


_IOV_MAX = 1024  # pieces one writev(2) takes (Linux's IOV_MAX)


class MaildirSource(PolledSource):
    """Unprocessed messages from a Maildir's new/, oldest first, polled every `poll_interval`."""

    def __init__(
        self,
        path: Path,
        *,
        max_bytes: int | None = None,
        poll_interval: float = 5.0,
        backoff: Backoff | None = None,
    ) -> None:
        super().__init__(backoff=backoff)
        self.path = path
        self.key = maildir_key(path)
        self.max_bytes = max_bytes
        self.poll_interval = poll_interval
        self._offered: dict[str, str] = {}  # key -> file name in new/

    def _scan(self) -> list[tuple[str, str, int, float]]:
        ensure_maildir(self.path)
        entries: list[tuple[float, str, int]] = []
        try:
            with os.scandir(self.path / "new") as it:
                for entry in it:
                    if entry.name.startswith("."):
                        continue
                    try:
                        stat = entry.stat()
                    except FileNotFoundError:
                        continue
                    entries.append((stat.st_mtime, entry.name, stat.st_size))
        except OSError as exc:
            raise MaildirError(f"cannot read Maildir {self.path}: {exc.strerror}") from None
        entries.sort()
        return [(_key(name), name, size, mtime) for mtime, name, size in entries]

    def _read(self, name: str) -> bytes | None:
        limit = -1 if self.max_bytes is None else self.max_bytes + 1
        try:
            with (self.path / "new" / name).open("rb") as fh:
                return fh.read(limit)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise MaildirError(f"cannot read {self.path / 'new' / name}: {exc.strerror}") from None

    async def pending(self) -> AsyncIterator[InboundMail]:
        for key, name, size, mtime in await asyncio.to_thread(self._scan):
            if key in self._offered or self._closed:
                continue
            raw = await asyncio.to_thread(self._read, name)
            if raw is None:
                continue
            self._offered[key] = name
            # delivered when the delivery agent wrote the file (gm.mail.arrival)
            yield InboundMail(id=key, raw=raw, size=size,
                              arrived_at=datetime.fromtimestamp(mtime, UTC))

    async def wait_for_mail(self) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._interrupt.wait(), self.poll_interval)
        self._interrupt.clear()

    def _move_to_cur(self, mail_id: str) -> None:
        name = self._offered.get(mail_id)
        candidates = [name] if name else []
        candidates += [n for n in os.listdir(self.path / "new") if _key(n) == mail_id]
        for candidate in candidates:
            source = self.path / "new" / candidate
            info = candidate.split(":", 1)[1] if ":" in candidate else "2,"
            flags = "".join(sorted(set(info[2:]) | {"S"})) if info.startswith("2,") else "S"
            try:
                os.rename(source, self.path / "cur" / f"{mail_id}:2,{flags}")
            except FileNotFoundError:
                continue
            except OSError as exc:
                raise MaildirError(f"cannot move {source} to cur/: {exc.strerror}") from None
            _fsync_dir(self.path / "cur")
            return
        if not any(_key(n) == mail_id for n in os.listdir(self.path / "cur")):
            log.warning("Maildir %s: message %s to mark as processed is gone", self.path, mail_id)

    async def mark_processed(self, mail_id: str) -> None:
        if "/" in mail_id or mail_id.startswith("."):
            raise MaildirError(f"not a Maildir message id: {mail_id!r}")
        await asyncio.to_thread(self._move_to_cur, mail_id)
        self._offered.pop(mail_id, None)


class MaildirSink:
    """Writes sent messages into a Maildir's new/, atomically (tmp/ then rename).

    Each file is written (its pieces in one writev(2): gm.mail.pieced) and synced in tmp/ and
    renamed into new/; the rename is made durable by syncing new/ itself: at once (`send`), or,
    for a batch the caller marks sent together (`send_all`), once for all of them, before the
    caller marks any sent; a batch's files already there are looked for once for the batch."""

    # a message with a Message-ID sent again writes nothing: its file is there already
    resends_nothing = True

    def __init__(self, path: Path) -> None:
        self.path = path
        self._ready = False  # tmp/, new/ and cur/ made
        self._unsynced = False  # a file renamed into new/ since new/ was last synced
        self._syncing = threading.Lock()

    def _name(self, message: RawMessage) -> str:
        message_id = " ".join(message.message_id.split())
        if not message_id:
            return _unique_name()
        return "gm." + hashlib.sha256(message_id.encode("utf-8", "replace")).hexdigest()[:40]

    def _make_ready(self) -> None:
        """Make tmp/, new/ and cur/ unless made already."""
        if not self._ready:
            ensure_maildir(self.path)
            self._ready = True

    def _already_there(self, name: str) -> bool:
        return name in self._present([name])

    def _present(self, names: Sequence[str]) -> set[str]:
        """Those of `names` in the outbox already: in new/, or moved to cur/ since, as
        NAME:2,FLAGS, by a mail reader (each looked for in new/ first, then cur/ listed once
        for all of those not there)."""
        there = {n for n in names if os.path.exists(os.path.join(self.path, "new", n))}
        if len(there) < len(set(names)):
            with os.scandir(os.path.join(self.path, "cur")) as entries:
                moved = {e.name.split(":", 1)[0] for e in entries if ":" in e.name}
            there.update(n for n in names if n in moved)
        return there

    def _write(self, name: str, pieces: tuple[bytes, ...], sync: bool = True) -> bool:
        """Write the file `name` of `pieces` into new/ (False: it is there already); with
        `sync`, its entry in new/ synced too, else left to `_sync_new`."""
        self._make_ready()
        try:
            if self._already_there(name):
                return False
            fd = self._put(name, pieces)
            try:
                os.fsync(fd)  # the file complete on disk before it is in new/
            finally:
                os.close(fd)
            os.rename(self._tmp(name), os.path.join(self.path, "new", name))
            if sync:
                _fsync_dir(self.path / "new")
            else:
                self._unsynced = True
        except OSError as exc:
            raise self._failed(name, exc) from None
        return True

    def _tmp(self, name: str) -> str:
        return os.path.join(self.path, "tmp", name)

    def _put(self, name: str, pieces: tuple[bytes, ...]) -> int:
        """Write `pieces` into tmp/`name`; the file, open (to sync)."""
        fd = os.open(self._tmp(name), os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_CLOEXEC,
                     0o644)
        try:
            _write_out(fd, pieces)
        except BaseException:
            os.close(fd)
            raise
        return fd

    def _failed(self, name: str, exc: OSError) -> MaildirError:
        """The error of a file `name` that could not be written (its tmp/ file removed)."""
        with contextlib.suppress(OSError):
            os.unlink(self._tmp(name))
        return self._error(exc)

    def _error(self, exc: OSError) -> MaildirError:
        """The error of a write the Maildir refused (its folders made again next time)."""
        self._ready = False  # made again next time, should it have been removed
        return MaildirError(f"cannot write to Maildir {self.path}: {exc.strerror}")

    def _sync_new(self) -> None:
        """Sync new/ if a file was renamed into it since it was last synced."""
        with self._syncing:
            if not self._unsynced:
                return
            self._unsynced = False  # a rename after this is synced by the next call
            try:
                _fsync_dir(self.path / "new")
            except OSError as exc:
                self._unsynced = True
                raise MaildirError(
                    f"cannot sync Maildir {self.path}: {exc.strerror}") from None

    async def send(self, message: OutgoingMessage, *,
                   envelope_from: str | None = None) -> SendReport:
        """Write `message`; its envelope sender (`envelope_from`, else its From) heads it as
        Return-Path, as a delivery agent writes it."""
        name, pieces, report = self._file(message, envelope_from)
        if not await asyncio.to_thread(self._write, name, pieces):
            log.info("Maildir %s: %s is already in the outbox", self.path, name)
        return report

    async def send_all(self, messages: Sequence[tuple[OutgoingMessage, str | None]]
                       ) -> list[SendReport | MaildirError]:
        """Write each of `messages` (with its envelope sender) as `send` does, all in one
        hand-off to a thread, and sync new/ once after the last of them: for a batch marked
        sent together, after this returns. Each message's report, or the error that kept it
        out (none of them durable if new/ could not be synced)."""
        files = [self._file(message, envelope_from) for message, envelope_from in messages]
        outcomes = await asyncio.to_thread(self._write_all, [(n, p) for n, p, _ in files])
        reports: list[SendReport | MaildirError] = []
        for (name, _, report), outcome in zip(files, outcomes, strict=True):
            if outcome is False:
                log.info("Maildir %s: %s is already in the outbox", self.path, name)
            reports.append(outcome if isinstance(outcome, MaildirError) else report)
        return reports

    def _file(self, message: OutgoingMessage, envelope_from: str | None
              ) -> tuple[str, tuple[bytes, ...], SendReport]:
        """The file name and contents (LF line ends) `message` is stored as, and its report."""
        if not isinstance(message, RawMessage):
            message = to_raw(message)  # no Bcc, as an SMTP server would not show it
        return_path = f"Return-Path: <{envelope_from or message.sender}>\r\n".encode().replace(
            b"\r\n", b"\n")
        return (self._name(message), (return_path, *lf_pieces(message)),
                SendReport(message_id=message.message_id or None, accepted=message.recipients))

    def _write_all(self, files: list[tuple[str, tuple[bytes, ...]]]
                   ) -> list[bool | MaildirError]:
        """Write each of `files` into new/, as `_write` does, and sync new/ once after them:
        whether each was written (False: there already), or the error that kept it out.
        Every file is written into tmp/ first, then each synced, then each renamed into new/
        (synced before it is there, as one at a time, with less of the kernel's work: about
        a fifth less CPU time for a report's eight copies)."""
        try:
            self._make_ready()
            there = self._present([name for name, _ in files])  # looked for once for all
        except OSError as exc:
            return [self._error(exc)] * len(files)
        except MaildirError as exc:
            return [exc] * len(files)
        outcomes: list[bool | MaildirError] = []
        places: dict[str, int] = {}  # each file's place among `files`, the first time
        again: list[tuple[int, int]] = []  # the same message again in the batch: written once
        written: list[tuple[int, str, int]] = []  # its place, name and open file in tmp/
        for name, pieces in files:
            place = len(outcomes)
            outcomes.append(name not in there)
            if name in places:
                again.append((place, places[name]))
            elif name not in there:
                places[name] = place
                try:
                    written.append((place, name, self._put(name, pieces)))
                except OSError as exc:
                    outcomes[place] = self._failed(name, exc)
        synced: list[tuple[int, str]] = []
        for place, name, fd in written:  # the file complete on disk before it is in new/
            try:
                try:
                    os.fsync(fd)
                finally:
                    os.close(fd)
            except OSError as exc:
                outcomes[place] = self._failed(name, exc)
            else:
                synced.append((place, name))
        for place, name in synced:
            try:
                os.rename(self._tmp(name), os.path.join(self.path, "new", name))
            except OSError as exc:
                outcomes[place] = self._failed(name, exc)
            else:
                self._unsynced = True
        for place, first in again:
            outcome = outcomes[first]
            outcomes[place] = outcome if isinstance(outcome, MaildirError) else False
        try:
            self._sync_new()
        except MaildirError as exc:  # none of them durable: each is sent again
            return [exc] * len(files)
        return outcomes

    async def close(self) -> None:
        """Nothing to close: each message is its own file."""
