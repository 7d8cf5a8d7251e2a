"""A message kept as the pieces of its LF form, its bytes joined only where asked for.

A phase's report goes out as one copy a recipient, each the same hundreds of kilobytes (the
pictures, base64) but for its headers and a small part of its own (gm.service.shared_compose).
Joining each copy's bytes, in both forms, copied that shared content several times a copy; a
`PiecedMessage` holds the LF form (what a Maildir stores, gm.mail.maildir) as pieces that share
it, which the Maildir writes with one writev(2), and makes its CRLF bytes (`data`, what SMTP
sends) and its whole LF bytes (`lf`) when first asked for: the same bytes as the RawMessage
it stands for.
"""

from __future__ import annotations

from collections.abc import Callable

from gm.mail.transport import RawMessage


class PiecedMessage(RawMessage):
    """A RawMessage whose LF form is `pieces` (joined: `lf`) and whose CRLF bytes `crlf`
    makes (`data`, made once, when first asked for)."""

    pieces: tuple[bytes, ...]

    def __init__(self, message_id: str, sender: str, recipients: tuple[str, ...], *,
                 pieces: tuple[bytes, ...], crlf: Callable[[], bytes],
                 smtp_form: bool = False) -> None:
        for name, value in (("message_id", message_id), ("sender", sender),
                            ("recipients", recipients), ("smtp_form", smtp_form),
                            ("pieces", pieces), ("_crlf", crlf)):
            object.__setattr__(self, name, value)  # a frozen dataclass's fields

    @property
    def data(self) -> bytes:
        """The message's bytes, CRLF line ends (made once)."""
        made: bytes | None = self.__dict__.get("_data")
        if made is None:
            made = self.__dict__["_crlf"]()
            self.__dict__["_data"] = made
        return made

    @property
    def lf(self) -> bytes:
        """The message's bytes, LF line ends: its pieces joined."""
        return b"".join(self.pieces)


def lf_pieces(message: RawMessage) -> tuple[bytes, ...]:
    """`message`'s LF form, as pieces (a PiecedMessage's own, else its one piece)."""
    if isinstance(message, PiecedMessage):
        return message.pieces
    return (message.lf if message.lf is not None else message.data.replace(b"\r\n", b"\n"),)
