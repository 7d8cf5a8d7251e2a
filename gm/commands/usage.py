"""How durations are written, as the usage lines of several commands show it (each command's
usage is in its module in gm.commands.catalog; SET's own is made from the SET commands by
gm.commands.tables)."""

from __future__ import annotations

# How durations are written, as the usage of SET DEADLINE, SET GRACE and SET REMIND shows it.
DURATIONS = "48h, 2d, 90m, 1d12h or 36 hours"
