"""The work of the email commands against the store, and the helpers they share (the
commands themselves, and which of these functions each runs: gm.commands.catalog).

Every handler takes the `Context` of the message being processed and the command value, does
its work in the context's transaction, and writes what it did into the context's `Results`,
which become one reply. Mail for other people (phase reports) is queued in `Results.mail`.
"""

from gm.commands.handlers.context import Context, Notice, Results, Signed

__all__ = ["Context", "Notice", "Results", "Signed"]
