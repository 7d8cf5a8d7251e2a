"""The mail benchmarks' SMTP server: a minimal one that reads a message's DATA in one piece.

aiosmtpd (tests.support.fixtures.mailservers.SmtpServer) reads DATA a line at a time in Python:
for an acknowledgement with a picture (some 1,300 lines of base64) that cost the benchmark's
process 3.7 ms a message, as much again as gm's sender worker spends, on the same two cores.
This server reads up to the closing "<CRLF>.<CRLF>" with one `readuntil`, undoes the dot
stuffing with one `replace`, and answers pipelined commands as they come. It speaks only what
gm's sender uses on a plain connection (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT); it is
the benchmark's, not the product's, and records what it received as the fixture does.
"""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gm.config import Security, SmtpConfig  # noqa: E402
from tests.support.fixtures.mailservers import Received, free_port  # noqa: E402

END = b"\r\n.\r\n"
LIMIT = 64 * 1024 * 1024  # the largest message read


def _address(argument: bytes) -> str:
    """The address of `MAIL FROM:<a> ...` / `RCPT TO:<a> ...`."""
    inside = argument.partition(b"<")[2].partition(b">")[0]
    return inside.decode("utf-8", "replace")


class FastSmtpServer:
    """An SMTP server on a free loopback port, in its own thread; `received` as
    tests.support.fixtures.mailservers.SmtpServer has it."""

    def __init__(self) -> None:
        self.port = free_port()
        self.received: list[Received] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: asyncio.Server | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._server = loop.run_until_complete(asyncio.start_server(
                self._client, "127.0.0.1", self.port, limit=LIMIT))
            ready.set()
            loop.run_forever()
            self._server.close()
            loop.run_until_complete(self._server.wait_closed())
            loop.close()

        self._thread = threading.Thread(target=run, daemon=True, name="fast-smtp")
        self._thread.start()
        ready.wait(10)

    def stop(self) -> None:
        if self._loop is not None and self._thread is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
            self._loop = self._thread = None

    def config(self, *, timeout: float = 10.0) -> SmtpConfig:
        return SmtpConfig(host="127.0.0.1", port=self.port, security=Security.PLAIN,
                          timeout=timeout)

    async def _client(self, reader: asyncio.StreamReader,
                      writer: asyncio.StreamWriter) -> None:
        writer.write(b"220 localhost bench ESMTP\r\n")
        sender, recipients = "", []
        try:
            while line := await reader.readuntil(b"\r\n"):
                verb = line[:4].upper()
                if verb in (b"EHLO", b"HELO"):
                    writer.write(b"250-localhost\r\n250-PIPELINING\r\n250-8BITMIME\r\n"
                                 b"250 SIZE 67108864\r\n" if verb == b"EHLO"
                                 else b"250 localhost\r\n")
                elif verb == b"MAIL":
                    sender, recipients = _address(line[5:]), []
                    writer.write(b"250 OK\r\n")
                elif verb == b"RCPT":
                    recipients.append(_address(line[5:]))
                    writer.write(b"250 OK\r\n")
                elif verb == b"DATA":
                    writer.write(b"354 End data with <CR><LF>.<CR><LF>\r\n")
                    await writer.drain()
                    data = await reader.readuntil(END)
                    # the body's last line break is the message's; the "." line is not
                    content = data[:-3].replace(b"\r\n..", b"\r\n.")
                    if content.startswith(b".."):
                        content = content[1:]
                    self.received.append(Received(sender, tuple(recipients), content, None))
                    writer.write(b"250 OK\r\n")
                elif verb == b"QUIT":
                    writer.write(b"221 Bye\r\n")
                    break
                elif verb in (b"RSET", b"NOOP"):
                    writer.write(b"250 OK\r\n")
                else:
                    writer.write(b"502 Not implemented\r\n")
                await writer.drain()
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()
