"""Mail texts from the Jinja2 templates in templates/ (named by audience and purpose)."""

from __future__ import annotations

import functools
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template, select_autoescape

from gm.paths import TEMPLATES


@functools.cache
def environment() -> Environment:
    return Environment(
        loader=FileSystemLoader(TEMPLATES),
        undefined=StrictUndefined,
        auto_reload=False,  # templates do not change under a running service: no stat per use
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
        # plain-text mail is not escaped; HTML alternatives (*.html.j2) are
        autoescape=select_autoescape(enabled_extensions=("html.j2",), default=False,
                                     default_for_string=False),
    )


@functools.cache
def template(name: str) -> Template:
    """templates/<name>, compiled once per process (no look-up in Jinja's cache per use)."""
    return environment().get_template(name)


def render(name: str, **values: Any) -> str:
    """Render templates/<name> (e.g. "reply/ack.txt.j2")."""
    return template(name).render(**values)
