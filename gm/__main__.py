"""`python -m gm` is the same as the `gm` command."""

import sys

from gm.cli import main

sys.exit(main())
