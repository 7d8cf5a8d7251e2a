"""Email commands: the command language (grammars/commands.lark) read into typed values.

`parse_message(text)` turns the text of one email into a list of command values (each
command's in its module of gm.commands.catalog, the shared ones and errors in
gm.commands.values); `help_text(topic)` is the HELP reply. Each command is
one module of gm.commands.catalog (its registry says how to add one); gm.commands.dispatch runs
a message's commands.
"""

from gm.commands.catalog.help import help_text
from gm.commands.parse import Session, parse_message, sessions

__all__ = ["Session", "help_text", "parse_message", "sessions"]
