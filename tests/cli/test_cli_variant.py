"""`gm variant check FILE [--draw DIR]` and `gm variant list`, run as the command: the summary
of the test variant Isthmia and its board drawn (SVG and PNG, the picture read back: every
province drawn, the passage drawn); every error of a broken file with its line, exit status 1;
the list of built-in and loaded variants, and a file that does not load, with why."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from gm.variants.varfile import read_variant
from tests.support.environment import clean_env
from tests.support.picture_reader import read

DATA = Path(__file__).resolve().parent.parent / "variants" / "data"


def _gm(*args: str | Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    clean = clean_env()
    clean.update(env or {})
    return subprocess.run([sys.executable, "-m", "gm", "variant", *map(str, args)], env=clean,
                          capture_output=True, text=True, timeout=300)


def test_check_prints_the_summary_and_draws_the_board(tmp_path: Path) -> None:
    done = _gm("check", DATA / "isthmia.toml", "--draw", tmp_path / "board")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:13] == [
        f"{DATA / 'isthmia.toml'}: variant isthmia (Isthmia), good",
        "aliases: Isthmus Diplomacy, isthmus",
        "provinces: 20 (12 land, 8 water, 0 impassable)",
        "centres: 11: Bay, Cap, Dun, Eas, Fel, Hol, Ist, Kar, Nor, Rid, Sun",
        "split coasts: Ist (nc/sc)",
        "borders: 43 (passages not counted)",
        "passages: NSO-SSO",
        "powers: 3",
        "  Norland (Norlandish, N): homes Cap, Nor; units A Nor, F Cap",
        "  Eastria (Eastrian, E): homes Eas, Kar; units A Eas, A Kar",
        "  Southia (Southian, S): homes Bay, Sun; units A Bay, F Sun",
        "start: Spring 1901, Movement",
        "victory: 6 centres",
    ]
    svg_path, png_path = tmp_path / "board" / "isthmia-start.svg", \
        tmp_path / "board" / "isthmia-start.png"
    assert lines[-2:] == [f"drawn: {svg_path}", f"drawn: {png_path}"]
    assert png_path.read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    # the picture read back: every province drawn, sharing an edge exactly where the map's
    # rings say two border, and the passage drawn as a link
    _root, drawn = read(svg_path.read_text())
    gmap = read_variant(DATA / "isthmia.toml").variant.map
    assert set(drawn.polygons) == set(gmap.provinces)
    assert drawn.passages == {("NSO", "SSO")}
    expected = {(a, b) for a, near in gmap.borders.items() for b in near if a < b}
    assert drawn.borders() == expected
    # the legend names a passage in general words, not one variant's rule
    assert "passage (a border of no length)" in svg_path.read_text()


def test_check_warns_of_a_unit_or_label_place_outside_its_province(tmp_path: Path) -> None:
    """Isthmia's map (a file beside the variant file) with the Isthmus's unit written where it
    is drawn and its name written in Holm: one warning, at the Isthmus's line of the map file;
    the file is still good, and the board is drawn with Isthmus's coasts marked."""
    text = (DATA / "isthmia.map").read_text()
    text = text.replace('Ist land "Isthmus" at 650,280 centre',
                        'Ist land "Isthmus" at 650,280 centre unit 650,290 label 850,280')
    (tmp_path / "isthmia.map").write_text(text)
    path = tmp_path / "isthmia.toml"
    path.write_text((DATA / "isthmia.toml").read_text())
    done = _gm("check", path, "--draw", tmp_path / "board")
    assert done.returncode == 0, done.stderr
    line = next(n for n, li in enumerate(text.splitlines(), 1) if li.startswith("Ist "))
    assert done.stdout.splitlines()[0] == (
        f"{tmp_path / 'isthmia.map'}:{line}: warning: label 850,280 of Ist is not inside Ist "
        "as the picture draws it (--draw shows it): the picture places the label itself; move "
        "it nearer Ist's position (at 650,280)")
    assert done.stdout.count("warning:") == 1
    svg = (tmp_path / "board" / "isthmia-start.svg").read_text()
    assert 'data-province="Ist" data-coast="nc"' in svg
    assert 'data-province="Ist" data-coast="sc"' in svg


def test_check_reports_every_error_with_its_line(tmp_path: Path) -> None:
    text = (DATA / "isthmia.toml").read_text()
    text = text.replace('code = "S"', 'code = "N"').replace('"A Eas"', '"F Eas"')
    (tmp_path / "isthmia.map").write_text((DATA / "isthmia.map").read_text())
    path = tmp_path / "broken.toml"
    path.write_text(text)
    done = _gm("check", path, "--draw", tmp_path / "board")
    assert done.returncode == 1
    numbered = text.splitlines()
    code = next(n for n, line in enumerate(numbered, 1) if line == 'code = "N"' and n > 15)
    unit = next(n for n, line in enumerate(numbered, 1) if '"F Eas"' in line)
    assert done.stdout.splitlines() == [
        f"{path}:{unit}: 'F Eas': a fleet inland; Eas has no coast: make it an army (A Eas) or "
        "put the fleet on a coast or at sea",
        f"{path}:{code}: Southia and Norland have the same code 'N': give each power its own",
        f"2 error(s) in {path}",
    ]
    assert not (tmp_path / "board").exists()


def test_list_shows_built_in_and_loaded_variants_and_files_that_fail(tmp_path: Path) -> None:
    for name in ("isthmia.toml", "isthmia.map"):
        (tmp_path / name).write_text((DATA / name).read_text())
    (tmp_path / "hostile.toml").write_text('name = "evil"\nhooks = "os.system"\nmap = "x"\n')
    config = tmp_path / "gm.toml"
    config.write_text(f'variants_dir = "{tmp_path}"\n')
    done = _gm("list", "--config", config)
    assert done.returncode == 1, done.stderr
    out = done.stdout.splitlines()
    assert out[0].startswith("standard       Standard (built-in; aliases: classic")
    assert f"isthmia        Isthmia (file {tmp_path / 'isthmia.toml'}; aliases: Isthmus " \
        "Diplomacy, isthmus)" in out
    assert f"not loaded: {tmp_path / 'hostile.toml'}:" in out
    assert f"  {tmp_path / 'hostile.toml'}:2: no hook set is called 'os.system'; a file may " \
        "name only these: standard, deluge2, sahara, abstraction2, chaos2, geophysical" in out


def test_check_shows_the_rule_options_and_warnings_and_refuses_a_taken_name(
        tmp_path: Path) -> None:
    (tmp_path / "isthmia.map").write_text((DATA / "isthmia.map").read_text())
    text = (DATA / "isthmia.toml").read_text().replace(
        "victory = 6", 'victory = 6\nbuilds = "any"\nice = ["Fel"]\ntransforms = true')
    path = tmp_path / "isthmia.toml"
    path.write_text(text)
    done = _gm("check", path)
    assert done.returncode == 0, done.stderr
    ice = next(n for n, line in enumerate(text.splitlines(), 1) if line.startswith("ice ="))
    lines = done.stdout.splitlines()
    assert lines[0] == (f"{path}:{ice}: warning: ice: Fel is land: armies stand on land anyway, "
                        "so ice there only keeps fleets off its coast (ice is for water: "
                        "armies cross it, fleets may not enter); leave Fel out of ice unless "
                        "that is what you mean")
    assert lines[1] == f"{path}: variant isthmia (Isthmia), good"
    assert 'rules: calendar = "standard"; hooks = "standard"; builds = "any"; army_fleet = ' \
        'false; transforms = true; ice = ["Fel"]' in lines
    # a built-in variant's alias: refused by the check as loading refuses it
    path.write_text(text.replace('"isthmus"]', '"isthmus", "Chaos II"]'))
    done = _gm("check", path)
    assert done.returncode == 1
    aliases = next(n for n, line in enumerate(path.read_text().splitlines(), 1)
                   if line.startswith("aliases ="))
    assert done.stdout.splitlines() == [
        f"{path}:{aliases}: the name or alias 'Chaos II' is taken by another variant (chaos2); "
        "leave it out of aliases or write another",
        f"1 error(s) in {path}"]
