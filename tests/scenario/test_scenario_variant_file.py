"""`gm scenario` with a variant that exists only as a file: `VARIANT_ALL Isthmus Diplomacy`
(the test variant's alias) runs when the folder of variant files is given, by `--variants DIR`
or by GM_VARIANTS_DIR; without it the case names the unknown variant and its line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.support.environment import clean_env

DATA = Path(__file__).resolve().parent.parent / "variants" / "data"
CASES = DATA / "isthmia-cases.txt"


def _gm(*args: str | Path, env: dict[str, str] | None = None
        ) -> subprocess.CompletedProcess[str]:
    clean = clean_env()
    clean.update(env or {})
    return subprocess.run([sys.executable, "-m", "gm", "scenario", *map(str, args)], env=clean,
                          capture_output=True, text=True, timeout=300)


def test_cases_of_a_variant_file_run_with_its_folder() -> None:
    done = _gm("--variants", DATA, CASES)
    assert (done.returncode, done.stdout) == (0, "4 passed, 0 failed\n"), done.stdout
    done = _gm(CASES, env={"GM_VARIANTS_DIR": str(DATA)})  # the fast path, without options
    assert (done.returncode, done.stdout) == (0, "4 passed, 0 failed\n"), done.stdout


def test_without_the_folder_the_variant_is_unknown() -> None:
    done = _gm("-v", CASES)
    assert done.returncode == 1
    assert f"error: {CASES}:3: there is no variant called 'Isthmus Diplomacy'" in done.stdout
    assert done.stdout.endswith("0 passed, 4 failed\n")
