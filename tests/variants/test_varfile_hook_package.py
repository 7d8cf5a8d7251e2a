"""A hook set from an installed package: a package declaring an entry point of the group
`gm.hook_sets` gives a variant file a special rule without an edit of gm. The package (the
Crowns of the Marches, tests/variants/marches/package) is installed for the test the way pip
installs one, as a module and its .dist-info (METADATA, entry_points.txt) in a folder on the
path; `gm variant check` and `gm scenario` then find it through importlib.metadata."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.support.environment import clean_env

MARCHES = Path(__file__).resolve().parent / "marches"
PACKAGE = MARCHES / "package"


def _install(site: Path, entry: str = "crowns = marches_crowns:rules",
             module: str | None = None) -> None:
    """The package installed into `site` as pip lays one out."""
    site.mkdir(parents=True, exist_ok=True)
    (site / "marches_crowns.py").write_text(
        module if module is not None else (PACKAGE / "marches_crowns.py").read_text())
    info = site / "marches_crowns-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: marches-crowns\n"
                                   "Version: 1.0\n")
    (info / "entry_points.txt").write_text(f"[gm.hook_sets]\n{entry}\n")
    (info / "RECORD").write_text("")


def _variants(folder: Path, hooks: str = "crowns") -> Path:
    """The Marches, played with `hooks`, in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(MARCHES / "marches.map", folder / "marches.map")
    text = (MARCHES / "marches.toml").read_text().replace(
        "victory = 6\n", f'victory = 6\nhooks = "{hooks}"\n', 1)
    (folder / "marches.toml").write_text(text)
    return folder / "marches.toml"


def _gm(site: Path | None, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = clean_env()
    if site is not None:
        env["PYTHONPATH"] = str(site)
    return subprocess.run([sys.executable, "-m", "gm", *map(str, args)], env=env,
                          capture_output=True, text=True, timeout=300)


def test_an_installed_hook_set_is_named_by_a_file_and_plays(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install(site)
    path = _variants(tmp_path / "variants")
    done = _gm(site, "variant", "check", path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert 'hooks = "crowns"' in done.stdout
    done = _gm(site, "scenario", "-v", "--variants", path.parent, PACKAGE / "crowns-cases.txt")
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.endswith("2 passed, 0 failed\n")
    assert "Norland won the game." in done.stdout


def test_without_the_package_the_file_names_an_unknown_set(tmp_path: Path) -> None:
    path = _variants(tmp_path / "variants")
    done = _gm(None, "variant", "check", path)
    assert done.returncode == 1
    line = path.read_text().splitlines().index('hooks = "crowns"') + 1
    assert f"{path}:{line}: no hook set is called 'crowns'" in done.stdout
    # and with it, the set is among those a file may name
    site = tmp_path / "site"
    _install(site)
    done = _gm(site, "variant", "check", _variants(tmp_path / "other", "crown"))
    assert "no hook set is called 'crown' (did you mean 'crowns'?); a file may name only " \
           "these: standard, deluge2, sahara, abstraction2, chaos2, geophysical, crowns" \
           in done.stdout, done.stdout


def test_a_package_whose_set_does_not_load_is_reported_not_raised(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install(site, module="raise RuntimeError('the crowns are lost')\n")
    path = _variants(tmp_path / "variants")
    done = _gm(site, "variant", "check", path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    line = path.read_text().splitlines().index('hooks = "crowns"') + 1
    assert (f"{path}:{line}: the hook set 'crowns' (marches_crowns:rules, installed by "
            "marches-crowns) does not load: RuntimeError: the crowns are lost; fix or "
            "reinstall the package, or name another hook set") in done.stdout, done.stdout


def test_a_package_whose_entry_point_gives_no_hook_set_is_refused(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install(site, entry="crowns = marches_crowns:CROWNS")
    path = _variants(tmp_path / "variants")
    done = _gm(site, "variant", "check", path)
    assert done.returncode == 1
    assert "the hook set 'crowns' (marches_crowns:CROWNS, installed by marches-crowns) gives " \
           "tuple, not a HookSet" in done.stdout, done.stdout


def test_an_installed_set_cannot_take_a_built_in_name(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _install(site, entry="standard = marches_crowns:rules")
    path = _variants(tmp_path / "variants", "standard")
    done = _gm(site, "scenario", "--variants", path.parent, PACKAGE / "crowns-cases.txt")
    # the built-in standard set plays: three crowns and five centres win nothing
    assert done.stdout.endswith("1 passed, 1 failed\n"), done.stdout
