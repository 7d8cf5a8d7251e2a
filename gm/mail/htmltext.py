"""HTML mail bodies to plain text, with the standard library's HTMLParser.

Block elements start new lines, scripts and styles vanish, and text inside <blockquote> comes
out prefixed with "> " per level, so quoted replies are cut like plain-text quotes.
"""

from __future__ import annotations

import html as html_module
import re
from html.parser import HTMLParser

_BLOCK = frozenset({
    "address", "article", "aside", "blockquote", "br", "center", "dd", "div", "dl", "dt",
    "fieldset", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "hr",
    "li", "main", "nav", "ol", "p", "pre", "section", "table", "tbody", "tfoot",
    "thead", "tr", "ul",
})
_SKIP = frozenset({"head", "noscript", "object", "script", "style", "template", "title"})
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                   "param", "source", "track", "wbr"})
_MAX_DEPTH = 200
_TAG_RE = re.compile(r"<[^>]*>")


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, bool, list[str]]] = [(0, False, [])]
        self.skip = 0
        self.quote = 0
        self.pre = 0

    def _newline(self) -> None:
        parts = self.lines[-1][2]
        if parts:
            self.lines.append((self.quote, self.pre > 0, []))
        else:
            self.lines[-1] = (self.quote, self.pre > 0, parts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIP:
            self.skip = min(self.skip + 1, _MAX_DEPTH)
            return
        if tag == "blockquote":
            self._newline()
            self.quote = min(self.quote + 1, 20)
            self._newline()
        elif tag == "pre":
            self.pre += 1
            self._newline()
        elif tag in _BLOCK:
            self._newline()
            if tag == "li":
                self.lines[-1][2].append("- ")
        elif tag in ("td", "th"):
            self.lines[-1][2].append(" ")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _BLOCK:
            self._newline()

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIP:
            self.skip = max(self.skip - 1, 0)
        elif tag == "blockquote":
            self._newline()
            self.quote = max(self.quote - 1, 0)
            self._newline()
        elif tag == "pre":
            self.pre = max(self.pre - 1, 0)
            self._newline()
        elif tag in _BLOCK and tag not in _VOID:
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        if self.pre:
            first, *rest = data.split("\n")
            self.lines[-1][2].append(first)
            for line in rest:
                self.lines.append((self.quote, True, [line]))
        else:
            self.lines[-1][2].append(data)

    def text(self) -> str:
        out: list[str] = []
        for depth, pre, parts in self.lines:
            line = "".join(parts)
            line = line.rstrip() if pre else " ".join(line.split())
            if line and depth:
                line = "> " * depth + line
            out.append(line)
        return _squeeze_blank_lines("\n".join(out))


def _squeeze_blank_lines(text: str) -> str:
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


def html_to_text(html: str) -> str:
    """The readable text of an HTML document; never raises."""
    parser = _Extractor()
    try:
        parser.feed(html)
        parser.close()
        return parser.text()
    except Exception:  # HTMLParser can still trip on odd markup; fall back to stripping tags
        stripped = _TAG_RE.sub(" ", html)
        return _squeeze_blank_lines(html_module.unescape(stripped))
