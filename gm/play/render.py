"""Mail texts from the Jinja2 templates in templates/ (named by audience and purpose)."""

from __future__ import annotations

import functools
import textwrap
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, Template, select_autoescape

from gm.paths import TEMPLATES

WIDTH = 78  # the longest line of a mail's text (mail is read at 72 to 78 columns)


def wrap(text: str, indent: str = "  ", first: str = "", width: int = WIDTH) -> str:
    """`text` as lines of at most `width` characters: the first starting with `first`, the
    others with `indent` (a long list of names, wrapped and indented). Words are not broken."""
    return textwrap.fill(str(text).strip("\n"), width, initial_indent=first,
                         subsequent_indent=indent, break_long_words=False,
                         break_on_hyphens=False)


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """`1 centre`, `2 centres`, `0 centres` (`nouns`: the plural when it is not noun + s)."""
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def wrap_lines(text: str, width: int = WIDTH) -> str:
    """Each line of `text` longer than `width` wrapped, its continuation lines indented two
    more than it is (the lines of a reply as the commands wrote them)."""
    out = []
    for line in str(text).split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        lead = line[: len(line) - len(line.lstrip(" "))]
        out.append(textwrap.fill(line, width, initial_indent="", subsequent_indent=lead + "    ",
                                 break_long_words=False, break_on_hyphens=False))
    return "\n".join(out)


def listing(items: Any) -> str:
    """`A`, `A and B`, `A, B and C`."""
    names = [str(i) for i in items]
    return " and ".join(names) if len(names) < 3 else f"{', '.join(names[:-1])} and {names[-1]}"


@functools.cache
def environment() -> Environment:
    env = Environment(
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
    env.filters["wrap"] = wrap
    env.filters["plural"] = plural
    env.filters["listing"] = listing
    env.filters["wrap_lines"] = wrap_lines
    return env


@functools.cache
def template(name: str) -> Template:
    """templates/<name>, compiled once per process (no look-up in Jinja's cache per use)."""
    return environment().get_template(name)


def render(name: str, **values: Any) -> str:
    """Render templates/<name> (e.g. "reply/ack.txt.j2")."""
    return template(name).render(**values)
