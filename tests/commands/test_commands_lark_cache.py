"""The built command parser kept in the cache directory (gm.commands.lark_cache): stored once,
loaded after, never the parser of another grammar, and no harm when the cache cannot be
written or holds a broken file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lark import Lark
from lark.exceptions import UnexpectedInput

from gm.commands.lark_cache import cached_lark
from gm.commands.parse import _Build, command_grammar
from gm.commands.values import Line

COMMANDS = command_grammar()
LINES = ["SIGNON France alpha secret", "SET DEADLINE 2d", "CREATE alpha standard pw", "LIST"]
SMALL = 'start: WORD\nWORD: /[a-z]+/\n%ignore " "\n'


def _parser() -> Lark:
    return cached_lark("commands", COMMANDS, lexer="contextual", transformer=_Build())


@pytest.fixture
def cache_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return tmp_path / "cache" / "gm"


def _drafts(parser: Lark) -> list[tuple[str, int]]:
    """The command each of LINES reads as, and how many secrets it holds."""
    out = []
    for n, line in enumerate(LINES, 1):
        draft: Any = parser.parse(line)
        out.append((repr(draft.make(Line(n, line))), len(draft.secrets)))
    return out


def test_built_once_then_loaded(cache_home: Path) -> None:
    built = _parser()
    files = list(cache_home.glob("commands-lark-*.pickle"))
    assert len(files) == 1
    stamp = files[0].stat().st_mtime_ns
    loaded = _parser()
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again
    assert _drafts(loaded) == _drafts(built)
    assert _drafts(loaded) == _drafts(Lark(COMMANDS, parser="lalr", lexer="contextual",
                                           transformer=_Build()))


def test_another_grammar_never_gets_the_old_parser(cache_home: Path) -> None:
    _parser()
    changed = COMMANDS + "\n// a comment: the text differs\n"
    parser = cached_lark("commands", changed, lexer="contextual", transformer=_Build())
    assert len(list(cache_home.glob("commands-lark-*.pickle"))) == 2
    assert _drafts(parser) == _drafts(_parser())
    small = cached_lark("commands", SMALL)
    assert str(small.parse("hello").children[0]) == "hello"
    with pytest.raises(UnexpectedInput):
        small.parse("SIGNON France alpha secret")


def test_a_broken_file_is_rebuilt(cache_home: Path) -> None:
    _parser()
    [path] = cache_home.glob("commands-lark-*.pickle")
    path.write_bytes(path.read_bytes()[:1000])  # cut short, as by a writer in progress
    assert _drafts(_parser()) == _drafts(Lark(COMMANDS, parser="lalr", lexer="contextual",
                                              transformer=_Build()))


def test_an_unwritable_cache_only_costs_the_build(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    blocker = tmp_path / "not-a-directory"
    blocker.write_text("a file where the cache directory would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert _drafts(_parser())[0][0].startswith("SignOn(") and _drafts(_parser())[0][1] == 1
    assert blocker.read_text() == "a file where the cache directory would be"
