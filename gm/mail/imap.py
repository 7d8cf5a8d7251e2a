"""The IMAP inbox poller (a MailSource), on aioimaplib.

One connection: log in (TLS, STARTTLS, or plain on loopback; LOGIN with the password, or
AUTHENTICATE XOAUTH2 / OAUTHBEARER with an access token from gm.mail.signin, replaced and
tried once more when the server refuses it), select the folder, search for
messages without the `$GmDone` keyword, fetch them by UID, many per command (their sizes first,
then batches of up to FETCH_BATCH messages and FETCH_BYTES bytes, each fetched while the one
before it is handled; BODY.PEEK, so nothing is flagged by reading), then wait with IDLE when
the server offers it, or poll. A dropped connection or any server error ends the pass; the
source's loop backs off and reconnects.

Marking: `mark_processed(id)` stores `\\Seen $GmDone` on the message (and moves it to the
processed folder when one is configured); `mark_processed_many(ids)` does so for many messages
in one command. The search skips anything with the keyword, so a processed message is never
offered again; one not marked is offered again after a reconnect or a restart. If the
connection is down when a message is marked, the mark is kept and stored right after the next
login, before anything is fetched.

Shared folders: given a `claim` (the service's: gm.service.mail_claims), the source claims
each batch before fetching it and fetches only what it was given; what was stored already is
only marked, and what another process holds is left to it. A pass that left messages to others
records nothing of how far it read (`reached` is None) and the next pass comes after
HELD_RECHECK seconds instead of an IDLE, so that a holder's lapsed claim is taken over; a
message found held is not asked for again for HELD_SKIP seconds (it is usually marked
processed by then, and gone from the search).

Ids are "UIDVALIDITY:UID". When the folder's UIDVALIDITY changes (the folder was recreated),
old UIDs mean nothing: marks still pending for the old value are dropped, and everything
without the keyword is offered again under new ids (the caller's Message-ID dedup absorbs it).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import re
import ssl
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import aioimaplib

from gm.config import Auth, ImapConfig, Security
from gm.mail.arrival import internaldate
from gm.mail.errors import (
    ImapConnectionError,
    ImapError,
    ImapLoginError,
    ImapProtocolError,
)
from gm.mail.signin import SignInError, TokenSource, advice, password, sasl_response
from gm.mail.source_keys import imap_key
from gm.mail.transport import Backoff, InboundMail, PolledSource

log = logging.getLogger(__name__)

PROCESSED_KEYWORD = "$GmDone"
_MARK_BATCH = 200
FETCH_BATCH = 50  # messages fetched by one UID FETCH ...
FETCH_BYTES = 8 * 1024 * 1024  # ... holding at most this many bytes (one larger message alone)
_SIZE_BATCH = 500  # UIDs whose sizes one UID FETCH asks for
_CHANGE_RE = re.compile(rb"^\* \d+ (EXISTS|RECENT)\b", re.IGNORECASE)
_BYE_RE = re.compile(rb"^\* BYE\b", re.IGNORECASE)
_FETCH_RE = re.compile(rb"^\d+ FETCH \(", re.IGNORECASE)
_UID_RE = re.compile(rb"\bUID (\d+)", re.IGNORECASE)
_SIZE_RE = re.compile(rb"\bRFC822\.SIZE (\d+)", re.IGNORECASE)
_UIDVALIDITY_RE = re.compile(rb"\[UIDVALIDITY (\d+)\]", re.IGNORECASE)
_PERMANENTFLAGS_RE = re.compile(rb"\[PERMANENTFLAGS \(([^)]*)\)\]", re.IGNORECASE)
HELD_RECHECK = 1.0  # seconds until the next pass after one that left messages to others
HELD_SKIP = 5.0  # seconds a message found held elsewhere is not claimed again (nor sized)


@dataclass(frozen=True)
class Claimed:
    """A claim's answer for a batch of message ids: `mine` to fetch, `done` (stored already)
    to mark processed only, `held` by another process (left to it)."""

    mine: frozenset[str]
    done: frozenset[str] = frozenset()
    held: frozenset[str] = frozenset()


Claimer = Callable[[list[str]], Awaitable[Claimed]]


class _RedactLogin(logging.Filter):
    """aioimaplib logs what it sends at DEBUG and masks the password only when it appears
    verbatim, which a password with quotes or backslashes does not: mask LOGIN lines whole."""

    _LOGIN_RE = re.compile(r"(\bLOGIN\s+(?:\"(?:[^\"\\]|\\.)*\"|\S+)\s+).*?(\\r\\n|'$|$)",
                           re.IGNORECASE)

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str) and "LOGIN" in record.msg.upper():
            record.msg = self._LOGIN_RE.sub(r'\1"********"\2', record.msg)
        return True


logging.getLogger("aioimaplib.aioimaplib").addFilter(_RedactLogin())


class _FetchCommand(aioimaplib.FetchCommand):  # type: ignore[misc]
    """aioimaplib's FETCH, telling whether the response's last message is complete (its
    parentheses matched) by reading each response line once: the library's looks over every
    line received so far, for each line, to find where the last message begins (quadratic in
    the messages one FETCH brings: 500 sizes or 50 bodies took 40 and 2 ms). The same answer:
    lines are only appended, and the last message begins at the last line that starts one."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._last_start = 0  # the index of the last line that begins a message's data
        self._read_to = 0  # lines looked at so far

    def wait_data(self) -> bool:
        lines = self._resp_lines
        for index in range(self._read_to, len(lines)):
            line = lines[index]
            if isinstance(line, bytes) and self.FETCH_MESSAGE_DATA_RE.match(line):
                self._last_start = index
        self._read_to = len(lines)
        last = b"".join(x for x in lines[self._last_start:] if isinstance(x, bytes))
        return bool(last.count(b"(") != last.count(b")"))


class _Protocol(aioimaplib.IMAP4ClientProtocol):  # type: ignore[misc]
    """aioimaplib's protocol, also noting untagged EXISTS/RECENT (new mail) and BYE, and
    fetching with `_FetchCommand`.

    aioimaplib drops untagged responses that arrive during other commands; without this a
    message arriving during a SEARCH would be reported there and never again during IDLE.
    """

    def __init__(self, loop: asyncio.AbstractEventLoop,
                 conn_lost_cb: Callable[[Exception | None], None] | None) -> None:
        super().__init__(loop, conn_lost_cb)
        self.changed = asyncio.Event()
        self.bye = asyncio.Event()

    def _untagged_response(self, line: bytes) -> Any:
        if _CHANGE_RE.match(line):
            self.changed.set()
        elif _BYE_RE.match(line):
            self.bye.set()
        return super()._untagged_response(line)

    async def fetch(self, message_set: str, message_parts: str, by_uid: bool = False,
                    timeout: float | None = None) -> Any:
        return await self.execute(
            _FetchCommand(self.new_tag(), message_set, message_parts,
                          prefix="UID" if by_uid else "", loop=self.loop, timeout=timeout))


class _Authenticate(aioimaplib.Command):  # type: ignore[misc]
    """AUTHENTICATE with a SASL initial response (RFC 4959). A server refusing an OAuth2 token
    first sends a continuation with its error details, which the client must answer (an empty
    response for XOAUTH2, %x01 for OAUTHBEARER) before it ends the command with NO."""

    def __init__(self, protocol: Any, mechanism: str, initial: str, abort: str) -> None:
        super().__init__("AUTHENTICATE", protocol.new_tag(), mechanism, initial,
                         loop=protocol.loop)
        self._protocol = protocol
        self._abort = abort
        self.details = ""  # the server's error details (decoded), when it sent any
        self._answered = 0  # continuations answered so far

    def flush(self) -> None:
        """Called after each chunk the server sends while the command runs: answer each
        continuation once."""
        asked = [bytes(line) for line in self.response.lines if bytes(line).startswith(b"+")]
        if len(asked) <= self._answered:
            return
        self._answered = len(asked)
        with contextlib.suppress(ValueError, UnicodeDecodeError):
            self.details = base64.b64decode(asked[-1][1:].strip()).decode("utf-8", "replace")
        self._protocol.send(self._abort)


class _Client(aioimaplib.IMAP4):  # type: ignore[misc]
    """aioimaplib's client with our protocol class."""

    def create_client(
        self,
        host: str,
        port: int,
        loop: asyncio.AbstractEventLoop | None,
        conn_lost_cb: Callable[[Exception | None], None] | None = None,
        ssl_context: ssl.SSLContext | None = None,
    ) -> None:
        local_loop = loop if loop is not None else asyncio.get_running_loop()
        self.protocol = _Protocol(local_loop, conn_lost_cb)
        self._client_task = local_loop.create_task(
            local_loop.create_connection(lambda: self.protocol, host, port, ssl=ssl_context))


def _text(response: Any) -> str:
    """The server's words in a tagged response, for error messages."""
    try:
        last = response.lines[-1]
        raw = bytes(last) if isinstance(last, bytes | bytearray) else str(last).encode()
    except (AttributeError, IndexError):
        return ""
    return " ".join(raw.decode("utf-8", "replace").split())[:300]


def _describe(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__


def _quoted(text: str) -> str:
    return aioimaplib.quoted(text)  # type: ignore[no-any-return]


class ImapSource(PolledSource):
    """Unprocessed messages of an IMAP folder (see the module docstring)."""

    def __init__(
        self,
        config: ImapConfig,
        *,
        max_bytes: int | None = None,
        poll_interval: float = 60.0,
        backoff: Backoff | None = None,
        timeout: float = 30.0,
        use_idle: bool = True,
    ) -> None:
        super().__init__(backoff=backoff)
        self.config = config
        self.key = imap_key(config)
        self.use_idle = use_idle
        self.max_bytes = max_bytes
        self.poll_interval = poll_interval
        self.timeout = timeout
        self.uidvalidity: int | None = None
        self.logins = 0  # successful logins so far (a reconnect adds one)
        self.fetches = 0  # UID FETCH commands that fetched messages so far
        self._client: _Client | None = None
        self._protocol: _Protocol | None = None
        self._lost = asyncio.Event()
        self._capabilities: set[str] = set()
        self._offered: set[int] = set()
        self._to_mark: set[int] = set()
        self._generation = 0
        self._lock = asyncio.Lock()
        self._buffered = 0  # messages fetched and not yet offered
        self._upcoming: asyncio.Future[list[InboundMail] | None] | None = None  # the next batch
        self.claim: Claimer | None = None  # claims a batch before it is fetched (shared folders)
        self._held: set[int] = set()  # UIDs of this pass another process holds
        self._held_at: dict[int, float] = {}  # UID -> when (monotonic) it was found held
        oauth = config.sign_in.oauth
        self.tokens = TokenSource(oauth) if oauth is not None else None

    @property
    def buffered(self) -> int:
        """Messages fetched already and about to be offered (0 when the next needs the server):
        the rest of the batch in hand, and the next batch when it has arrived."""
        upcoming = self._upcoming
        if upcoming is not None and upcoming.done() and not upcoming.cancelled() and (
                upcoming.exception() is None):
            return self._buffered + len(upcoming.result() or ())
        return self._buffered

    def __repr__(self) -> str:
        c = self.config
        return f"ImapSource({c.user}@{c.host}:{c.port}/{c.folder}, {c.security})"

    @property
    def _where(self) -> str:
        return f"IMAP server {self.config.host}:{self.config.port}"

    @property
    def idle_supported(self) -> bool:
        """The server offers IDLE (and IDLE was not turned off)."""
        return self.use_idle and "IDLE" in self._capabilities

    @property
    def connected(self) -> bool:
        """Logged in, with the folder selected, and the connection still up."""
        return self._connected()

    @property
    def idling(self) -> bool:
        """Waiting in IDLE right now."""
        return self._client is not None and bool(self._client.has_pending_idle())

    def mail_id(self, uid: int) -> str:
        return f"{self.uidvalidity}:{uid}"

    # -- connection ---------------------------------------------------------------------

    def _tls_context(self) -> ssl.SSLContext:
        cafile = str(self.config.ca_file) if self.config.ca_file else None
        return ssl.create_default_context(cafile=cafile)

    def _connected(self) -> bool:
        return (self._client is not None and self._protocol is not None
                and not self._lost.is_set() and not self._protocol.bye.is_set())

    async def _call(self, awaitable: Awaitable[Any], what: str,
                    timeout: float | None = -1.0) -> Any:
        """Run an aioimaplib call; a lost connection, timeout or library error drops it."""
        task = asyncio.ensure_future(awaitable)
        lost = asyncio.ensure_future(self._lost.wait())
        try:
            done, _ = await asyncio.wait(
                {task, lost}, timeout=self.timeout if timeout == -1.0 else timeout,
                return_when=asyncio.FIRST_COMPLETED)
        finally:
            lost.cancel()
            if not task.done():
                task.cancel()
        if task in done and not task.cancelled():
            try:
                return task.result()
            except (aioimaplib.AioImapException, OSError, TimeoutError) as exc:
                await self._drop()
                raise ImapConnectionError(
                    f"{self._where}: {what} failed: {_describe(exc)}") from None
        how = "was lost" if self._lost.is_set() else "timed out"
        await self._drop()
        raise ImapConnectionError(f"connection to {self._where} {how} during {what}")

    async def _drop(self) -> None:
        client, self._client, self._protocol = self._client, None, None
        self._offered.clear()
        self._capabilities = set()
        if client is not None:
            transport = getattr(client.protocol, "transport", None)
            if transport is not None:
                transport.close()

    async def _connect(self) -> None:
        c = self.config
        lost = asyncio.Event()
        self._lost = lost

        def on_lost(exc: Exception | None) -> None:
            lost.set()

        ssl_context = self._tls_context() if c.security is Security.TLS else None
        try:
            client = _Client(host=c.host, port=c.port, timeout=self.timeout,
                             conn_lost_cb=on_lost, ssl_context=ssl_context)
        except OSError as exc:
            raise ImapConnectionError(
                f"cannot connect to {self._where}: {_describe(exc)}") from None
        self._client, self._protocol = client, client.protocol
        try:
            await client.wait_hello_from_server()
        except (OSError, TimeoutError, aioimaplib.AioImapException) as exc:
            await self._drop()
            raise ImapConnectionError(
                f"cannot connect to {self._where}: {_describe(exc)}") from None
        if c.security is Security.STARTTLS:
            await self._starttls(client)
        if self.tokens is None and "LOGINDISABLED" in client.protocol.capabilities:
            await self._drop()
            raise ImapLoginError(f"{self._where} refuses LOGIN on this connection "
                                 "(LOGINDISABLED); use security = tls or starttls")
        await self._sign_in(client)
        self._capabilities = {str(x).upper() for x in client.protocol.capabilities}
        await self._select(client)
        if c.processed_folder:
            await self._call(client.create(_quoted(c.processed_folder)), "create folder")
        self._generation += 1
        self.logins += 1
        log.info("IMAP: logged in to %s as %s, folder %s (UIDVALIDITY %s, %s)", self._where,
                 c.user, c.folder, self.uidvalidity,
                 "IDLE" if self.idle_supported else f"polling every {self.poll_interval:g} s")

    async def _sign_in(self, client: _Client) -> None:
        """LOGIN with the password, or AUTHENTICATE with an access token (asked for again,
        once, when the server refuses the one in hand)."""
        c = self.config
        auth = c.sign_in.auth
        if self.tokens is None:
            try:
                secret = await password(c.sign_in, c.password)
            except SignInError:
                await self._drop()
                raise
            response = await self._call(client.login(_quoted(c.user), secret.reveal()), "login")
            if response.result != "OK":
                await self._drop()
                text = _text(response)
                raise ImapLoginError(f"{self._where} refused the login for user {c.user!r}: "
                                     f"{text} ({advice(text, auth)})")
            return
        if f"AUTH={auth.value.upper()}" not in {str(x).upper() for x in
                                               client.protocol.capabilities}:
            await self._drop()
            raise ImapLoginError(f"{self._where} does not offer AUTH={auth.value.upper()}; "
                                 "check imap.auth")
        for attempt in (1, 2):
            try:
                token = await self.tokens.token()
            except SignInError:
                await self._drop()
                raise
            initial = sasl_response(auth, c.user, token, c.host, c.port)
            command = _Authenticate(client.protocol, auth.value.upper(), initial,
                                    "" if auth is Auth.XOAUTH2 else "AQ==")
            response = await self._call(client.protocol.execute(command, scrub=initial),
                                        "AUTHENTICATE")
            if response.result == "OK":
                client.protocol.state = aioimaplib.AUTH
                await self._call(client.protocol.capability(), "CAPABILITY")
                return
            self.tokens.refused()
            if attempt == 2 or not self._connected():
                await self._drop()
                text = _text(response)
                details = f" ({command.details})" if command.details else ""
                raise ImapLoginError(f"{self._where} refused the access token for user "
                                     f"{c.user!r}: {text}{details} ({advice(text, auth)})")
            log.debug("IMAP: %s refused the access token; getting a new one", self._where)

    async def _starttls(self, client: _Client) -> None:
        protocol = client.protocol
        if "STARTTLS" not in protocol.capabilities:
            await self._drop()
            raise ImapConnectionError(f"{self._where} does not offer STARTTLS")
        command = aioimaplib.Command("STARTTLS", protocol.new_tag(), loop=protocol.loop)
        response = await self._call(protocol.execute(command), "STARTTLS")
        if response.result != "OK":
            await self._drop()
            raise ImapConnectionError(f"{self._where} refused STARTTLS: {_text(response)}")
        try:
            transport = await asyncio.wait_for(
                asyncio.get_running_loop().start_tls(
                    protocol.transport, protocol, self._tls_context(),
                    server_hostname=self.config.host),
                self.timeout)
        except (OSError, TimeoutError, ssl.SSLError) as exc:
            await self._drop()
            raise ImapConnectionError(
                f"TLS with {self._where} failed: {_describe(exc)}") from None
        protocol.transport = transport
        await self._call(protocol.capability(), "CAPABILITY")

    async def _select(self, client: _Client) -> None:
        c = self.config
        response = await self._call(client.select(_quoted(c.folder)), "select")
        if response.result != "OK":
            await self._drop()
            raise ImapProtocolError(
                f"{self._where} cannot open folder {c.folder!r}: {_text(response)}")
        uidvalidity: int | None = None
        permanent: set[str] = set()
        for line in response.lines:
            raw = bytes(line)
            if match := _UIDVALIDITY_RE.search(raw):
                uidvalidity = int(match.group(1))
            if match := _PERMANENTFLAGS_RE.search(raw):
                permanent = set(match.group(1).decode("ascii", "replace").split())
        if uidvalidity is None:
            await self._drop()
            raise ImapProtocolError(f"{self._where} gave no UIDVALIDITY for {c.folder!r}")
        if self.uidvalidity is not None and uidvalidity != self.uidvalidity:
            log.warning("IMAP: UIDVALIDITY of %s changed from %s to %s; unprocessed messages "
                        "will be offered again under new ids", c.folder, self.uidvalidity,
                        uidvalidity)
            self._to_mark.clear()
        self.uidvalidity = uidvalidity
        if not c.processed_folder and "\\*" not in permanent and (
                PROCESSED_KEYWORD not in permanent):
            await self._drop()
            raise ImapProtocolError(
                f"folder {c.folder!r} on {self._where} does not keep the keyword "
                f"{PROCESSED_KEYWORD}; set imap.processed_folder to move processed mail instead")

    async def _ensure_ready(self) -> None:
        if self._connected():
            return
        if self._client is not None:
            await self._drop()
        await self._connect()
        await self._apply_marks()

    # -- reading ------------------------------------------------------------------------

    async def _search(self) -> list[int]:
        assert self._client is not None
        response = await self._call(
            self._client.uid_search("UNKEYWORD", PROCESSED_KEYWORD, "UNDELETED", charset=None),
            "search")
        if response.result != "OK":
            raise ImapProtocolError(f"{self._where} refused SEARCH: {_text(response)}")
        # aioimaplib hands "* SEARCH 1 2 3" over as b"1 2 3" (the name stripped); the last
        # line is the tagged status text
        uids: list[int] = []
        for line in response.lines[:-1]:
            words = bytes(line).split()
            if words and words[0].upper() == b"SEARCH":
                words = words[1:]
            if words and all(w.isdigit() for w in words):
                uids.extend(int(w) for w in words)
        return sorted(set(uids))

    async def _sizes(self, uids: list[int]) -> dict[int, int]:
        """The sizes of these messages (those expunged meanwhile are left out)."""
        assert self._client is not None
        uid_set = ",".join(str(u) for u in uids)
        response = await self._call(
            self._client.uid("fetch", uid_set, "(UID RFC822.SIZE)"), "fetch sizes")
        if response.result != "OK":
            raise ImapProtocolError(f"{self._where} refused to fetch the sizes of UIDs "
                                    f"{uid_set}: {_text(response)}")
        sizes: dict[int, int] = {}
        for line in response.lines:
            if isinstance(line, bytes) and _FETCH_RE.match(line):
                uid, size = _UID_RE.search(line), _SIZE_RE.search(line)
                if uid is not None and size is not None:
                    sizes[int(uid.group(1))] = int(size.group(1))
        return sizes

    def _batches(self, uids: list[int], sizes: dict[int, int]) -> list[list[int]]:
        """`uids` (those with a size) in fetch batches of at most FETCH_BATCH messages and
        FETCH_BYTES bytes (as fetched: up to the byte limit plus one)."""
        batches: list[list[int]] = []
        batch: list[int] = []
        total = 0
        for uid in uids:
            if uid not in sizes:
                continue  # expunged meanwhile
            size = sizes[uid] if self.max_bytes is None else min(sizes[uid], self.max_bytes + 1)
            if batch and (len(batch) >= FETCH_BATCH or total + size > FETCH_BYTES):
                batches.append(batch)
                batch, total = [], 0
            batch.append(uid)
            total += size
        if batch:
            batches.append(batch)
        return batches

    async def _fetch(self, uids: list[int]) -> list[InboundMail]:
        """These messages (by one UID FETCH), in the order of `uids`; those expunged meanwhile
        are left out."""
        assert self._client is not None
        body = "BODY.PEEK[]" if self.max_bytes is None else f"BODY.PEEK[]<0.{self.max_bytes + 1}>"
        uid_set = ",".join(str(u) for u in uids)
        self.fetches += 1
        response = await self._call(
            self._client.uid("fetch", uid_set, f"(UID RFC822.SIZE INTERNALDATE {body})"),
            "fetch",
            timeout=None)  # aioimaplib times out a fetch that stops receiving data
        if response.result != "OK":
            raise ImapProtocolError(f"{self._where} refused to fetch UIDs {uid_set}: "
                                    f"{_text(response)}")
        wanted = set(uids)
        found: dict[int, InboundMail] = {}
        lines = list(response.lines)
        for index, line in enumerate(lines):
            if not isinstance(line, bytes) or not _FETCH_RE.match(line):
                continue
            literal = lines[index + 1] if index + 1 < len(lines) else None
            after = lines[index + 2] if index + 2 < len(lines) else b""
            # the items after the literal belong to this message unless they start the next
            meta = line + (after if isinstance(after, bytes) and not _FETCH_RE.match(after)
                           else b"")
            found_uid = _UID_RE.search(meta)
            if found_uid is None or int(found_uid.group(1)) not in wanted or not isinstance(
                    literal, bytearray):
                continue  # another message's, or a flag change reported meanwhile
            uid = int(found_uid.group(1))
            raw = bytes(literal)
            size = _SIZE_RE.search(meta)
            found[uid] = InboundMail(id=self.mail_id(uid), raw=raw,
                                     size=int(size.group(1)) if size else len(raw),
                                     arrived_at=internaldate(meta))
        return [found[uid] for uid in uids if uid in found]

    async def _batches_of(self, todo: list[int],
                          generation: int) -> AsyncGenerator[list[int], None]:
        """`todo` in fetch batches (their sizes asked for _SIZE_BATCH UIDs at a time)."""
        for first in range(0, len(todo), _SIZE_BATCH):
            async with self._lock:
                self._check_generation(generation)
                sizes = await self._sizes(todo[first:first + _SIZE_BATCH])
            for batch in self._batches(todo[first:first + _SIZE_BATCH], sizes):
                yield batch

    async def _fetch_next(self, plan: AsyncIterator[list[int]],
                          generation: int) -> list[InboundMail] | None:
        """The messages of the plan's next batch not offered yet (None when it is done)."""
        async for batch in plan:
            batch = [u for u in batch if u not in self._offered and u not in self._to_mark]
            if batch and self.claim is not None:
                batch = await self._claimed(batch)
            if not batch:
                continue
            async with self._lock:
                self._check_generation(generation)
                return await self._fetch(batch)
        return None

    async def _claimed(self, batch: list[int]) -> list[int]:
        """Those of `batch` this process claimed; those stored already are to be marked, those
        held elsewhere are noted (the pass is then not whole)."""
        assert self.claim is not None
        ids = {self.mail_id(uid): uid for uid in batch}
        claimed = await self.claim(list(ids))
        self._to_mark.update(ids[i] for i in claimed.done if i in ids)
        held = [ids[i] for i in claimed.held if i in ids]
        self._held.update(held)
        now = time.monotonic()
        self._held_at.update((uid, now) for uid in held)
        return [uid for mail_id, uid in ids.items() if mail_id in claimed.mine]

    def reached(self, started: float) -> float | None:
        """As PolledSource.reached, but None after a pass that left messages to others."""
        return None if self._held else started

    async def pending(self) -> AsyncIterator[InboundMail]:
        """Each batch is fetched while the one before it is offered (so the caller's work and
        the server's go on together); a batch fetched but not offered (the caller stopped) is
        offered in a later pass."""
        async with self._lock:
            await self._ensure_ready()
            assert self._protocol is not None
            self._protocol.changed.clear()
            uids = await self._search()
            generation = self._generation
        self._held.clear()
        todo = [u for u in uids if u not in self._offered and u not in self._to_mark]
        if self._held_at:  # held elsewhere a moment ago: still so (it is not asked again)
            now, found = time.monotonic(), set(uids)
            self._held_at = {u: t for u, t in self._held_at.items()
                             if u in found and now - t < HELD_SKIP}
            self._held.update(u for u in todo if u in self._held_at)
            todo = [u for u in todo if u not in self._held_at]
        plan = self._batches_of(todo, generation)
        upcoming = self._upcoming = asyncio.ensure_future(self._fetch_next(plan, generation))
        try:
            while not self._closed:
                mails = await upcoming
                if mails is None:
                    return
                upcoming = self._upcoming = asyncio.ensure_future(
                    self._fetch_next(plan, generation))
                for index, mail in enumerate(mails):
                    if self._closed:
                        return
                    self._buffered = len(mails) - index - 1
                    self._offered.add(int(mail.id.rsplit(":", 1)[1]))
                    yield mail
                self._buffered = 0
        finally:
            self._buffered, self._upcoming = 0, None
            if not upcoming.done():  # let a command in flight finish: the connection stays
                with contextlib.suppress(Exception):  # in step (its messages come again)
                    await upcoming
            elif not upcoming.cancelled():
                upcoming.exception()  # retrieved: a failure nobody waits for is not logged
            await plan.aclose()

    def _check_generation(self, generation: int) -> None:
        if self._generation != generation or not self._connected():
            raise ImapConnectionError(f"connection to {self._where} was lost")

    # -- waiting ------------------------------------------------------------------------

    async def wait_for_mail(self) -> None:
        async with self._lock:
            if not self._connected():
                return  # the next pass reconnects
            await self._apply_marks()
            assert self._protocol is not None
            self._interrupt.clear()
            if self._protocol.changed.is_set() or self._closed:
                return
            if self._held:  # held elsewhere: looked at again soon (its claim may lapse)
                await self._wait_any(HELD_RECHECK)
            elif self.idle_supported:
                await self._idle()
            else:
                await self._wait_any(self.poll_interval)

    async def _wait_any(self, timeout: float) -> None:
        """Wait for an interrupt, new mail reported, the connection's end, or `timeout`."""
        assert self._protocol is not None
        events = (self._interrupt, self._protocol.changed, self._protocol.bye, self._lost)
        waiters = [asyncio.ensure_future(e.wait()) for e in events]
        try:
            await asyncio.wait(waiters, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for waiter in waiters:
                waiter.cancel()
        if not self._connected():
            await self._drop()
            raise ImapConnectionError(f"{self._where} closed the connection")

    async def _idle(self) -> None:
        client = self._client
        assert client is not None
        queue = client.protocol.idle_queue
        while not queue.empty():
            queue.get_nowait()
        idle = await self._call(client.idle_start(timeout=self.config.idle_timeout + 60), "IDLE")
        await self._wait_any(self.config.idle_timeout)
        client.idle_done()
        response = await self._call(idle, "IDLE end")
        while not queue.empty():
            queue.get_nowait()
        if response.result != "OK":
            raise ImapProtocolError(f"{self._where} ended IDLE with an error: {_text(response)}")

    # -- marking ------------------------------------------------------------------------

    async def _apply_marks(self) -> None:
        if not self._to_mark or not self._connected():
            return
        client = self._client
        assert client is not None
        uids = sorted(self._to_mark)
        for start in range(0, len(uids), _MARK_BATCH):
            batch = uids[start:start + _MARK_BATCH]
            uid_set = ",".join(str(u) for u in batch)
            response = await self._call(
                client.uid("store", uid_set, "+FLAGS.SILENT", f"(\\Seen {PROCESSED_KEYWORD})"),
                "store flags")
            if response.result != "OK":
                raise ImapProtocolError(
                    f"{self._where} refused to flag UIDs {uid_set}: {_text(response)}")
            if self.config.processed_folder:
                await self._move(uid_set)
            self._to_mark.difference_update(batch)

    async def _move(self, uid_set: str) -> None:
        client = self._client
        assert client is not None and self.config.processed_folder
        folder = _quoted(self.config.processed_folder)
        if "MOVE" in self._capabilities:
            response = await self._call(client.uid("move", uid_set, folder), "move")
        else:  # RFC 4315: COPY, flag \Deleted, and expunge just these (UIDPLUS)
            response = await self._call(client.uid("copy", uid_set, folder), "copy")
            if response.result == "OK":
                await self._call(client.uid("store", uid_set, "+FLAGS.SILENT", "(\\Deleted)"),
                                 "store flags")
                if "UIDPLUS" in self._capabilities:
                    await self._call(client.uid("expunge", uid_set), "expunge")
        if response.result != "OK":
            # the keyword is stored already, so the messages are not offered again
            log.warning("IMAP: could not move UIDs %s to %s: %s", uid_set,
                        self.config.processed_folder, _text(response))

    async def mark_processed(self, mail_id: str) -> None:
        """Flag the message as processed (see the module docstring). Never raises for
        connection problems: the mark is then stored after the next login."""
        await self.mark_processed_many([mail_id])

    async def mark_processed_many(self, mail_ids: list[str]) -> None:
        """`mark_processed` for many messages, in as few commands as it takes."""
        added = False
        for mail_id in mail_ids:
            try:
                validity_text, uid_text = mail_id.split(":")
                validity, uid = int(validity_text), int(uid_text)
            except ValueError:
                raise ValueError(
                    f"not an IMAP message id (UIDVALIDITY:UID): {mail_id!r}") from None
            if validity != self.uidvalidity:
                log.warning("IMAP: not marking %s: the folder's UIDVALIDITY is now %s",
                            mail_id, self.uidvalidity)
                continue
            self._to_mark.add(uid)
            added = True
        if not added:
            return
        if self._lock.locked():
            self.interrupt()  # end an IDLE so the lock is free
        async with self._lock:
            try:
                await self._apply_marks()
            except ImapError as error:
                log.warning("IMAP: %s; %s will be marked after reconnecting", error,
                            ", ".join(mail_ids))

    # -- control ------------------------------------------------------------------------

    async def check(self) -> None:
        """Connect, log in and select the folder now; raise the ImapError if that fails."""
        async with self._lock:
            await self._ensure_ready()

    async def close(self) -> None:
        await super().close()
        async with self._lock:
            if self._connected():
                with contextlib.suppress(ImapError):
                    await self._apply_marks()
                client = self._client
                assert client is not None
                with contextlib.suppress(ImapError):
                    await self._call(client.logout(), "logout", timeout=5.0)
            await self._drop()
