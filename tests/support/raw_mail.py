"""Raw mail as the tests read it back: the header section alone, for finding a message by its
headers without the parser reading every line of its body (a report's pictures are thousands
of base64 lines)."""

from __future__ import annotations

from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default
from typing import Any


def head_of(data: bytes) -> bytes:
    """A raw message's header section: up to and with the blank line that ends it (all of
    `data` when it has none)."""
    ends = [i + len(sep) for sep in (b"\r\n\r\n", b"\n\n") if (i := data.find(sep)) >= 0]
    return data[:min(ends)] if ends else data


def parse_head(data: bytes) -> EmailMessage:
    """The header of a raw message, parsed (policy.default) from its header section only."""
    parsed = BytesParser(policy=default).parsebytes(head_of(data), headersonly=True)
    assert isinstance(parsed, EmailMessage)
    return parsed


class LazyMail(EmailMessage):
    """A raw message as the email parser reads it (policy.default), its header parsed at once
    and its body only when first used: a test that looks at the To, Subject or In-Reply-To of
    every message a pass sent reads the body of the one it wants alone. Everything that reads
    the body (get_body, walk, get_payload, as_bytes, ...) goes through the message's payload,
    which is parsed from the whole raw message on first use, replacing the header read first
    by the same header read with it."""

    def __init__(self, raw: bytes) -> None:
        self.__dict__.update(parse_head(raw).__dict__)
        self.__dict__["_raw"] = raw

    @property  # type: ignore[override]
    def _payload(self) -> Any:
        state = self.__dict__
        raw = state.pop("_raw", None)
        if raw is not None:  # first use: the whole message, parsed as message_from_bytes does
            whole = BytesParser(policy=default).parsebytes(raw)
            state.update(whole.__dict__)
        return state["_payload"]

    @_payload.setter
    def _payload(self, value: Any) -> None:
        self.__dict__.pop("_raw", None)
        self.__dict__["_payload"] = value
