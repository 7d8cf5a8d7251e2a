"""Mail texts from the Jinja2 templates in templates/ (named by audience and purpose)."""

from __future__ import annotations

import functools
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from gm.paths import TEMPLATES


@functools.cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        autoescape=False,  # plain-text mail
    )


def render(name: str, **values: Any) -> str:
    """Render templates/<name> (e.g. "reply/ack.txt.j2")."""
    return environment().get_template(name).render(**values)
