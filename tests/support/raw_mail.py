"""Raw mail as the tests read it back: the header section alone, for finding a message by its
headers without the parser reading every line of its body (a report's pictures are thousands
of base64 lines)."""

from __future__ import annotations

from email.message import EmailMessage
from email.parser import BytesParser
from email.policy import default


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
