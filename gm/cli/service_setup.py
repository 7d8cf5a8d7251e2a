"""What the service's subcommands share: the configuration and its database, opened once."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from gm.config import Config
    from gm.store.db import Database


def open_service(command: str, config_path: Path | None) -> tuple[Config, Database] | None:
    """The configuration (file and `GM_*` environment), with the variant files of its
    `variants_dir` loaded, and its database; on a bad setting or
    an unmigrated database, print `gm <command>: why` and return None (the command exits 2)."""
    from gm.config import ConfigError, load_config
    from gm.store.db import open_database, resolve_url
    from gm.store.errors import SchemaError
    from gm.store.passwords import cost

    try:
        cost()  # a wrong GM_SCRYPT_LOG2_N stops the start, not the first CREATE
    except ValueError as exc:
        print(f"gm {command}: {exc}", file=sys.stderr)
        return None
    try:
        config = load_config(config_path, os.environ)
        if config.variants_dir is not None:
            from gm.variants.registry import load_directory

            load_directory(config.variants_dir)  # a file that fails is logged and skipped
        return config, open_database(resolve_url(config.database_url, config.data_dir))
    except (ConfigError, SchemaError) as exc:
        print(f"gm {command}: {exc}", file=sys.stderr)
        return None
