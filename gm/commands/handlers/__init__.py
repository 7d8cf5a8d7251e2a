"""Running email commands against the store: one module per command family.

Every handler takes the `Context` of the message being processed and the command value, does
its work in the context's transaction, and writes what it did into the context's `Results`,
which become one reply. Mail for other people (phase reports) is queued in `Results.mail`.
"""

from gm.commands.handlers.context import Context, Notice, Results, Signed
from gm.commands.handlers.dispatch import run_commands

__all__ = ["Context", "Notice", "Results", "Signed", "run_commands"]
