"""deploy/GUIDE.md's Postfix set-up (section 3) is a whole configuration Postfix accepts: its
main.cf, maps and gm.toml are read out of the guide as written, put in a directory of their own
(the host's paths moved under it, a certificate made for it), and Postfix's own `postfix check`
and `postconf` find nothing wrong; the gm.toml lines load and name the judge's LMTP port the
transport map sends to."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
GUIDE = ROOT / "deploy" / "GUIDE.md"


def _block(first_line: str) -> str:
    """The fenced block of the guide that starts with `first_line`."""
    for block in re.findall(r"```[a-z]*\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S):
        if block.startswith(first_line):
            return str(block)
    raise AssertionError(f"deploy/GUIDE.md has no block starting {first_line!r}")


def _maps() -> dict[str, str]:
    """The guide's map files by name (vmailbox, transport)."""
    found: dict[str, str] = {}
    name = ""
    for line in _block("# /etc/postfix/vmailbox").splitlines():
        if line.startswith("# /etc/postfix/"):
            name = line.removeprefix("# /etc/postfix/")
        elif line.strip():
            found[name] = found.get(name, "") + line + "\n"
    return found


def _postfix(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, check=False, timeout=60)


@pytest.fixture
def guide_config(tmp_path: Path) -> Path:
    """The guide's main.cf and maps in a configuration directory of their own."""
    etc, spool, data = tmp_path / "etc", tmp_path / "spool", tmp_path / "data"
    for folder in (etc, spool, data):
        folder.mkdir()
    tls = tmp_path / "tls"
    tls.mkdir()
    made = _postfix("openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                    "-subj", "/CN=mx.example.org", "-keyout", str(tls / "privkey.pem"),
                    "-out", str(tls / "fullchain.pem"))
    assert made.returncode == 0, made.stderr
    main = (_block("# /etc/postfix/main.cf")
            .replace("/etc/letsencrypt/live/mx.example.org", str(tls))
            .replace("/etc/postfix/", f"{etc}/")
            .replace("/etc/aliases", str(etc / "aliases")))
    # where this copy keeps its queue and data, which a host's Postfix has by default
    main += (f"config_directory = {etc}\nqueue_directory = {spool}\n"
             f"data_directory = {data}\n")
    (etc / "main.cf").write_text(main)
    master = Path("/usr/share/postfix/master.cf.dist")
    (etc / "master.cf").write_text(master.read_text() if master.exists() else "")
    (etc / "aliases").write_text("postmaster: root\n")
    for name, text in _maps().items():
        (etc / name).write_text(text)
        made = _postfix("postmap", "-c", str(etc), f"hash:{etc / name}")
        assert made.returncode == 0, made.stderr
    made = _postfix("postalias", "-c", str(etc), f"hash:{etc / 'aliases'}")
    assert made.returncode == 0, made.stderr
    return etc


def test_postfix_accepts_the_guide_s_main_cf(guide_config: Path) -> None:
    checked = _postfix("postfix", "-c", str(guide_config), "check")
    assert checked.returncode == 0, checked.stderr
    assert "warning" not in checked.stderr.replace("group or other writable", ""), checked.stderr
    shown = _postfix("postconf", "-c", str(guide_config), "-n")
    assert shown.returncode == 0 and "warning" not in shown.stderr, shown.stderr
    values = dict(line.split(" = ", 1) for line in shown.stdout.splitlines() if " = " in line)
    assert values["recipient_delimiter"] == "+"
    assert values["virtual_mailbox_domains"] == "example.org"
    # the judge's mail goes to gm over LMTP (its VERP bounce addresses are found under it by
    # the delimiter, as the tests' Postfix shows with real bounces)
    routed = _postfix("postmap", "-c", str(guide_config), "-q", "judge@example.org",
                      f"hash:{guide_config / 'transport'}")
    assert routed.stdout.strip() == "lmtp:inet:127.0.0.1:2424", routed


def test_the_guide_s_gm_toml_for_postfix_names_its_lmtp_port() -> None:
    text = _block('address = "judge@example.org"')
    settings = tomllib.loads(text)
    assert settings["lmtp"]["listen"] == "127.0.0.1:2424"
    assert settings["trusted_received_hosts"] == ["mx.example.org"]
    (transport,) = [line for line in _maps()["transport"].splitlines() if line.strip()]
    assert transport.split()[1] == f"lmtp:inet:{settings['lmtp']['listen']}"
    assert (settings["smtp"]["host"], settings["smtp"]["port"]) == ("127.0.0.1", 25)
