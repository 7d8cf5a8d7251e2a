"""The deployment files: the example configuration loads and documents every setting, the
systemd unit runs commands `gm` has."""

from __future__ import annotations

import configparser
import re
import shlex
import subprocess
import sys
import tomllib
from pathlib import Path

from gm import config as config_module
from gm.config import Security, env_name, load_config

ROOT = Path(__file__).resolve().parent.parent.parent
DEPLOY = ROOT / "deploy"
EXAMPLE = DEPLOY / "gm.example.toml"
UNIT = DEPLOY / "systemd" / "gm.service"
VARIANT_MARK = "# ---8<--- Maildir-only variant"
_SETTING = re.compile(r"^# (\[\w+\]|\w+ = .*)$")
_PASSWORDS = {"GM_IMAP_PASSWORD": "imap-secret", "GM_SMTP_PASSWORD": "smtp-secret"}


def _parts() -> tuple[str, str]:
    main, mark, variant = EXAMPLE.read_text(encoding="utf-8").partition(VARIANT_MARK)
    assert mark, f"{EXAMPLE} has no line {VARIANT_MARK!r}"
    return main, variant


def _uncomment(text: str) -> str:
    """The text with every commented setting ("# key = value", "# [table]") switched on."""
    lines = []
    for line in text.splitlines():
        m = _SETTING.match(line)
        lines.append(m.group(1) if m else line)
    return "\n".join(lines) + "\n"


def _loader_keys() -> set[str]:
    """Every dotted key the loader accepts, from its own tables."""
    keys = set(config_module._TOP)
    for table, subkeys in config_module._TABLES.items():
        keys |= {f"{table}.{k}" for k in subkeys}
    return keys


def _keys(data: dict[str, object]) -> set[str]:
    keys = set()
    for key, value in data.items():
        if isinstance(value, dict):
            keys |= {f"{key}.{sub}" for sub in value}
        else:
            keys.add(key)
    return keys


def _comment_blocks(text: str) -> dict[str, str]:
    """Dotted key -> the comment lines just above its (possibly commented) setting line."""
    blocks: dict[str, str] = {}
    table = ""
    comments: list[str] = []
    for line in text.splitlines():
        m = _SETTING.match(line)
        setting = m.group(1) if m else line
        if setting.startswith("[") and setting.endswith("]"):
            table, comments = setting[1:-1] + ".", []
        elif m or re.match(r"^\w+ = ", line):
            key = table + setting.split("=", 1)[0].strip()
            blocks[key] = "\n".join(comments)
            comments = []
        elif line.startswith("#"):
            comments.append(line)
        else:
            comments = []
    return blocks


def test_example_loads_with_the_real_loader(tmp_path: Path) -> None:
    config = load_config(EXAMPLE, _PASSWORDS)
    assert config.address == "judge@example.org"
    assert config.database_url is not None
    assert config.database_url.startswith("postgresql+psycopg://")
    assert config.imap is not None and config.smtp is not None
    assert config.imap.host == "imap.example.org" and config.imap.security is Security.TLS
    assert config.imap.password.reveal() == "imap-secret"
    assert config.smtp.security is Security.STARTTLS and config.smtp.port == 587
    assert config.smtp.password.reveal() == "smtp-secret"
    assert config.data_dir == Path("/var/lib/gm")


def test_example_names_every_setting_the_loader_accepts(tmp_path: Path) -> None:
    main, _ = _parts()
    everything = tmp_path / "all.toml"
    everything.write_text(_uncomment(main), encoding="utf-8")
    assert _keys(tomllib.loads(everything.read_text(encoding="utf-8"))) == _loader_keys()
    # With every optional setting on, the file is still one the loader accepts (IMAP and LMTP
    # exclude each other: each is switched on alone).
    # The ways to give a password, and the ways to get a token, exclude each other too: the
    # password is kept, the rest switched off.
    alternatives = {"password_file", "password_command", *config_module._SIGN_IN}
    everything.write_text("".join(
        line for line in everything.read_text(encoding="utf-8").splitlines(keepends=True)
        if line.split(" = ")[0] not in alternatives), encoding="utf-8")
    config = load_config(everything, {"GM_LMTP_LISTEN": ""})
    assert config.imap is not None and config.imap.password.reveal() == "app-password"
    assert config.imap.ca_file == Path("/etc/gm/imap-ca.pem")
    config = load_config(everything, {"GM_IMAP_HOST": ""})
    assert config.imap is None and config.lmtp is not None
    assert config.lmtp.path == Path("/run/gm/lmtp.sock")


def test_each_setting_documents_its_environment_variable_and_default() -> None:
    main, _ = _parts()
    blocks = _comment_blocks(main)
    assert set(blocks) == _loader_keys()
    for key, block in blocks.items():
        assert env_name(key) in block, f"{key}: comment does not name {env_name(key)}"
        assert "Default:" in block, f"{key}: comment gives no default"


def _default(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def test_documented_defaults_are_the_loaders() -> None:
    blocks = _comment_blocks(_parts()[0])
    bare = load_config(None, {})
    minimal = load_config(None, {"GM_IMAP_HOST": "imap.example.org", "GM_IMAP_USER": "u",
                                 "GM_SMTP_HOST": "smtp.example.org"})
    assert minimal.imap is not None and minimal.smtp is not None
    expected = {
        "data_dir": bare.data_dir,
        "address": bare.address,
        "display_name": bare.display_name,
        "max_message_bytes": bare.max_message_bytes,
        "poll_interval": bare.poll_interval,
        "imap.security": minimal.imap.security.value,
        "imap.port": f"{minimal.imap.port} with tls",
        "imap.folder": minimal.imap.folder,
        "imap.idle_timeout": minimal.imap.idle_timeout,
        "imap.claim_lease": minimal.imap.claim_lease,
        "smtp.security": minimal.smtp.security.value,
        "smtp.port": f"{minimal.smtp.port} with tls",
        "smtp.timeout": minimal.smtp.timeout,
        "maildir.inbox": "data_dir/" + str(bare.maildir.inbox.relative_to(bare.data_dir)),
        "maildir.outbox": "data_dir/" + str(bare.maildir.outbox.relative_to(bare.data_dir)),
    }
    for key, value in expected.items():
        assert f"Default: {_default(value)}" in blocks[key], (key, value)
    for table in ("imap", "smtp"):
        for security, port in config_module._DEFAULT_PORTS[table].items():
            assert f"{port} with" in blocks[f"{table}.port"] and security.value in blocks[
                f"{table}.port"]
    assert bare.imap is None and "Default: none" in blocks["imap.host"]
    assert bare.smtp is None and "Default: none" in blocks["smtp.host"]
    assert bare.database_url is None and "Default: SQLite in data_dir" in blocks["database_url"]


def test_maildir_only_variant_loads(tmp_path: Path) -> None:
    _, variant = _parts()
    path = tmp_path / "maildir.toml"
    path.write_text(_uncomment(variant), encoding="utf-8")
    config = load_config(path, {})
    assert config.imap is None and config.smtp is None and config.database_url is None
    assert config.maildir.inbox == Path("/var/lib/gm/mail/inbox")
    assert config.poll_interval == 10


def _unit() -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # keep the case of systemd keys
    parser.read_string(UNIT.read_text(encoding="utf-8"), source=str(UNIT))
    return parser


def _options(usage_of: list[str]) -> set[str]:
    done = subprocess.run([sys.executable, "-m", "gm", *usage_of, "--help"],
                          capture_output=True, text=True, check=True)
    return set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", done.stdout))


def _gm_command(line: str) -> list[str]:
    words = shlex.split(line.lstrip("-@+!:"))
    assert Path(words[0]).name == "gm", line
    return words[1:]


def test_systemd_unit_parses_and_runs_gm_serve() -> None:
    unit = _unit()
    assert {"Unit", "Service", "Install"} <= set(unit.sections())
    service = unit["Service"]
    words = _gm_command(service["ExecStart"])
    assert words[0] == "serve"
    flags = [w for w in words[1:] if w.startswith("--")]
    assert flags and set(flags) <= _options(["serve"])
    assert words[words.index("--config") + 1] == "/etc/gm/gm.toml"
    assert service["Restart"] == "on-failure"
    # gm serve tells systemd when it is ready (gm.service.ready), then ExecStartPost runs
    assert service["Type"] == "notify" and service["NotifyAccess"] == "main"
    assert service["KillSignal"] == "SIGTERM"
    assert service["User"] and service["User"] != "root"
    assert service["NoNewPrivileges"] == "yes"
    assert service["ProtectSystem"] == "strict"
    assert "/var/lib/gm" in service["ReadWritePaths"].split()


def test_systemd_unit_upgrades_the_database_first() -> None:
    words = _gm_command(_unit()["Service"]["ExecStartPre"])
    assert words[:2] == ["db", "upgrade"]
    flags = [w for w in words[2:] if w.startswith("--")]
    assert set(flags) <= _options(["db", "upgrade"])
    assert words[words.index("--config") + 1] == "/etc/gm/gm.toml"
