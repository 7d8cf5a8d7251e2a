"""HTML mail bodies to plain text, with the standard library's HTMLParser.

Block elements start new lines, scripts and styles vanish, and text inside <blockquote> comes
out prefixed with "> " per level, so quoted replies are cut like plain-text quotes. Text the
reader does not see is not read: inside an element marked `hidden` or styled display:none,
visibility:hidden, font-size:0, opacity:0 or mso-hide:all (until the element closes), in its
style attribute or by a rule of a <style> element before it whose selector is a plain one
(`.name`, `#name`, `tag`, `tag.name`, `tag#name`, or a list of them).
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
_MAX_OPEN = 1_000  # open elements followed, for hidden text
_HIDDEN_STYLE_RE = re.compile(
    r"(?:^|;)(?:display:none|visibility:hidden|mso-hide:all|"
    r"(?:font-size|opacity):[+-]?0*(?:\.0*)?(?:[a-z%]+)?)(?:!important)?(?:;|$)")


_MAX_STYLE = 100_000  # characters of <style> text read for rules that hide
_MAX_RULES = 500
_RULE_RE = re.compile(r"([^{}]+)\{([^{}]*)\}")
_SELECTOR_RE = re.compile(r"([a-z][a-z0-9]*)?(?:([.#])([a-z0-9_-]+))?")


def hiding_selectors(style: str) -> frozenset[str]:
    """The plain selectors (`.x`, `#x`, `tag`, `tag.x`, `tag#x`) of the rules in a <style>
    text that hide what they match (comments dropped; other selectors are not followed)."""
    text = re.sub(r"/\*.*?\*/", "", style[:_MAX_STYLE].lower(), flags=re.S)
    found: set[str] = set()
    for count, rule in enumerate(_RULE_RE.finditer(text)):
        if count >= _MAX_RULES:
            break
        if not _HIDDEN_STYLE_RE.search(re.sub(r"\s+", "", rule[2])):
            continue
        for selector in rule[1].split(","):
            plain = _SELECTOR_RE.fullmatch(selector.strip())
            if plain and (plain[1] or plain[3]):
                found.add(selector.strip())
    return frozenset(found)


def _matches(tag: str, attrs: list[tuple[str, str | None]], selectors: frozenset[str]) -> bool:
    """Whether a plain selector of `selectors` matches the element."""
    if not selectors:
        return False
    names = {tag}
    for name, value in attrs:
        if name == "class" and value:
            for word in value.lower().split():
                names |= {f".{word}", f"{tag}.{word}"}
        elif name == "id" and value:
            names |= {f"#{value.lower()}", f"{tag}#{value.lower()}"}
    return not names.isdisjoint(selectors)


def _hides(attrs: list[tuple[str, str | None]]) -> bool:
    """Whether an element with `attrs` hides its content from the reader."""
    for name, value in attrs:
        if name == "hidden":
            return True
        if name == "style" and value:
            style = re.sub(r"\s+", "", value.lower())
            if _HIDDEN_STYLE_RE.search(style):
                return True
    return False


class _Extractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[tuple[int, bool, list[str]]] = [(0, False, [])]
        self.skip = 0
        self.quote = 0
        self.pre = 0
        self.open: list[tuple[str, bool]] = []  # open elements, and whether each hides
        self.hidden = 0  # open elements that hide their content
        self.style: list[str] = []  # the text of the <style> element being read
        self.style_size = 0
        self.hiding: frozenset[str] = frozenset()  # selectors of <style> rules that hide

    def _open(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        hides = _hides(attrs) or _matches(tag, attrs, self.hiding)
        if len(self.open) < _MAX_OPEN or hides:
            self.open.append((tag, hides))
            self.hidden += hides

    def _close(self, tag: str) -> None:
        for index in range(len(self.open) - 1, max(len(self.open) - _MAX_OPEN, 0) - 1, -1):
            if self.open[index][0] == tag:
                self.hidden -= sum(h for _, h in self.open[index:])
                del self.open[index:]
                return

    def _newline(self) -> None:
        parts = self.lines[-1][2]
        if parts:
            self.lines.append((self.quote, self.pre > 0, []))
        else:
            self.lines[-1] = (self.quote, self.pre > 0, parts)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _VOID:
            self._open(tag, attrs)
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
        self._close(tag)
        if tag == "style" and self.style:
            self.hiding |= hiding_selectors("".join(self.style))
            self.style = []
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
        if self.open and self.open[-1][0] == "style" and self.style_size < _MAX_STYLE:
            self.style.append(data)
            self.style_size += len(data)
        if self.skip or self.hidden:
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
