"""The helpers the email commands share (each command, with its own work, is one module of
gm.commands.catalog; nothing here imports those modules).

Every command's handler takes the `Context` of the message being processed and the command
value, does its work in the context's transaction, and writes what it did into the context's
`Results`, which become one reply. Mail for other people (phase reports) is queued in
`Results.mail`.
"""

from gm.commands.handlers.context import Context, Results, Signed

__all__ = ["Context", "Results", "Signed"]
