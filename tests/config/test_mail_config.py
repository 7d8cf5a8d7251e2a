"""Settings from a TOML file and GM_* environment variables."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from gm.config import (
    DEFAULT_MAX_MESSAGE_BYTES,
    Config,
    ConfigError,
    Security,
    load_config,
)
from gm.mail.connect import make_sink, make_source
from gm.mail.imap import ImapSource
from gm.mail.maildir import MaildirSink, MaildirSource
from gm.mail.smtp import SmtpSink
from gm.secret import Secret

FULL = """
database_url = "postgresql+psycopg://gm:db-secret@db.example.org/gm"
data_dir = "data"
address = "judge@example.org"
display_name = "The  Judge"
max_message_bytes = 100000
poll_interval = 30

[imap]
host = "imap.example.org"
user = "judge"
password = "imap-secret"
folder = "Orders"
processed_folder = "Done"

[smtp]
host = "smtp.example.org"
security = "starttls"
user = "judge"
password = "smtp-secret"

[maildir]
inbox = "in"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(text)
    return path


def test_defaults_are_the_embedded_setup() -> None:
    config = load_config(None, {})
    assert config.imap is None and config.smtp is None
    assert config.data_dir == Path("var")
    assert config.maildir.inbox == Path("var/mail/inbox")
    assert config.maildir.outbox == Path("var/mail/outbox")
    assert config.database_url is None
    assert config.max_message_bytes == DEFAULT_MAX_MESSAGE_BYTES
    assert config.address == "gm@localhost"
    assert isinstance(make_source(config), MaildirSource)
    assert isinstance(make_sink(config), MaildirSink)


def test_full_file(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, FULL), {})
    assert config.data_dir == tmp_path / "data"  # relative to the file
    assert config.maildir.inbox == tmp_path / "in"
    assert config.maildir.outbox == tmp_path / "data" / "mail" / "outbox"
    assert config.display_name == "The Judge"
    assert config.domain == "example.org"
    assert config.poll_interval == 30.0
    assert config.imap is not None and config.smtp is not None
    assert (config.imap.port, config.imap.security) == (993, Security.TLS)
    assert config.imap.folder == "Orders" and config.imap.processed_folder == "Done"
    assert config.imap.password.reveal() == "imap-secret"
    assert (config.smtp.port, config.smtp.security) == (587, Security.STARTTLS)
    assert isinstance(make_source(config), ImapSource)
    assert isinstance(make_sink(config), SmtpSink)


def test_environment_overrides_file(tmp_path: Path) -> None:
    env = {"GM_IMAP_PORT": "1143", "GM_IMAP_SECURITY": "starttls", "GM_SMTP_HOST": "",
           "GM_ADDRESS": "other@example.org", "GM_DATA_DIR": "/srv/gm",
           "GM_IMAP_PASSWORD": "from-env", "GM_UNRELATED": "ignored"}
    config = load_config(write(tmp_path, FULL), env)
    assert config.imap is not None
    assert (config.imap.port, config.imap.security) == (1143, Security.STARTTLS)
    assert config.imap.password.reveal() == "from-env"
    assert config.smtp is None  # an empty host switches back to the Maildir outbox
    assert config.address == "other@example.org"
    assert config.data_dir == Path("/srv/gm")


def test_config_path_from_environment(tmp_path: Path) -> None:
    path = write(tmp_path, 'address = "x@example.org"\n')
    assert load_config(None, {"GM_CONFIG": str(path)}).address == "x@example.org"


def test_password_file(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("file-secret\n")
    config = load_config(write(tmp_path, '[imap]\nhost = "h"\nuser = "u"\n'
                                         'password_file = "pw"\n'), {})
    assert config.imap is not None and config.imap.password.reveal() == "file-secret"


def test_secrets_never_show(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    config = load_config(write(tmp_path, FULL), {})
    for text in (repr(config), str(config), repr(config.imap), repr(config.smtp),
                 repr(make_sink(config)), repr(make_source(config))):
        assert "imap-secret" not in text
        assert "smtp-secret" not in text
        assert "db-secret" not in text
    assert repr(Secret("x")) == "Secret('********')"
    assert config.database_url_for_log == "postgresql+psycopg://gm:********@db.example.org/gm"
    with caplog.at_level(logging.INFO):
        logging.getLogger("test").info("config: %s", config)
    for secret in ("imap-secret", "smtp-secret", "db-secret"):
        assert secret not in caplog.text


@pytest.mark.parametrize(("text", "env", "message"), [
    ("[imap]\nhost = 'h'\nuser = 'u'\nport = 'abc'\n", {},
     "imap.port: expected an integer, got 'abc'"),
    ("", {"GM_IMAP_HOST": "h", "GM_IMAP_USER": "u", "GM_IMAP_PORT": "70000"},
     "environment variable GM_IMAP_PORT: expected an integer from 1 to 65535"),
    ("[imap]\nhost = 'h'\nuser = 'u'\nsecurity = 'ssl'\n", {},
     "imap.security: expected one of tls, starttls, plain, got 'ssl'"),
    ("[imap]\nhost = 'imap.example.org'\nuser = 'u'\nsecurity = 'plain'\n", {},
     "plain (unencrypted) IMAP is only allowed to a loopback host"),
    ("", {"GM_SMTP_HOST": "smtp.example.org", "GM_SMTP_SECURITY": "plain"},
     "environment variable GM_SMTP_SECURITY: plain (unencrypted) SMTP"),
    ("[imap]\nhost = 'h'\n", {}, "imap.user (GM_IMAP_USER) is required"),
    ("[imap]\nhots = 'h'\n", {}, "unknown key imap.hots"),
    ("colour = 'blue'\n", {}, "unknown key colour"),
    ("address = 'not an address'\n", {}, "address: expected a plain address"),
    ("poll_interval = -1\n", {}, "poll_interval: expected a number of seconds"),
    ("max_message_bytes = true\n", {}, "max_message_bytes: expected an integer"),
    ("[imap]\nhost = 'h'\nuser = 'u'\nfolder = 'a\"b'\n", {}, "imap.folder: expected a folder"),
    ("imap = 3\n", {}, "[imap] must be a table"),
    ("this is not toml", {}, "is not valid TOML"),
])
def test_errors_name_the_key(tmp_path: Path, text: str, env: dict[str, str],
                             message: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text), env)
    assert message in str(caught.value)


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read configuration file"):
        load_config(tmp_path / "nope.toml", {})


def test_plain_is_fine_on_loopback() -> None:
    for host in ("localhost", "127.0.0.1", "127.1.2.3", "::1"):
        config = load_config(None, {"GM_IMAP_HOST": host, "GM_IMAP_USER": "u",
                                    "GM_IMAP_SECURITY": "plain"})
        assert config.imap is not None and config.imap.port == 143


def test_config_is_frozen() -> None:
    config = load_config(None, {})
    assert isinstance(config, Config)
    with pytest.raises(AttributeError):
        config.address = "x@y.z"  # type: ignore[misc]


def test_rate_limit_from_file_and_environment(tmp_path: Path) -> None:
    bare = load_config(None, {})
    assert (bare.rate_limit, bare.rate_window) == (100, 3600.0)
    path = write(tmp_path, "rate_limit = 50\nrate_window = 600\n")
    config = load_config(path, {})
    assert (config.rate_limit, config.rate_window) == (50, 600.0)
    config = load_config(path, {"GM_RATE_LIMIT": "0", "GM_RATE_WINDOW": "86400"})
    assert (config.rate_limit, config.rate_window) == (0, 86400.0)  # 0: no limit
    with pytest.raises(ConfigError, match="rate_limit: expected an integer from 0"):
        load_config(write(tmp_path, "rate_limit = -1\n"), {})
    with pytest.raises(ConfigError, match="GM_RATE_WINDOW: expected a number of seconds"):
        load_config(None, {"GM_RATE_WINDOW": "0"})


def test_lmtp_listens_on_a_socket_beside_the_file_or_a_loopback_port(tmp_path: Path) -> None:
    (tmp_path / "gm.toml").write_text('[lmtp]\nlisten = "unix:run/lmtp.sock"\n')
    config = load_config(tmp_path / "gm.toml", {})
    assert config.lmtp is not None and config.lmtp.path == tmp_path / "run" / "lmtp.sock"
    assert type(make_source(config)).__name__ == "LmtpSource"
    config = load_config(None, {"GM_LMTP_LISTEN": "127.0.0.1:2424"})
    assert config.lmtp is not None and (config.lmtp.host, config.lmtp.port) == ("127.0.0.1", 2424)
    assert config.lmtp.where == "127.0.0.1:2424"
    config = load_config(None, {"GM_LMTP_LISTEN": "[::1]:24"})
    assert config.lmtp is not None and config.lmtp.host == "::1"
    assert load_config(None, {}).lmtp is None


@pytest.mark.parametrize(("env", "error"), [
    ({"GM_LMTP_LISTEN": "0.0.0.0:24"}, "loopback address or a UNIX socket"),
    ({"GM_LMTP_LISTEN": "mail.example.org:24"}, "loopback address or a UNIX socket"),
    ({"GM_LMTP_LISTEN": "localhost"}, "expected unix:PATH or HOST:PORT"),
    ({"GM_LMTP_LISTEN": "127.0.0.1:99999"}, "expected an integer from 1 to 65535"),
    ({"GM_LMTP_LISTEN": "unix:"}, "expected unix:PATH"),
    ({"GM_LMTP_LISTEN": "unix:/" + "x" * 120}, "too long for a UNIX socket"),
    ({"GM_LMTP_LISTEN": "unix:/run/gm/lmtp.sock", "GM_IMAP_HOST": "imap.example.org",
      "GM_IMAP_USER": "judge"}, "IMAP or takes it over LMTP, not both"),
])
def test_lmtp_settings_that_cannot_work_are_refused(env: dict[str, str], error: str) -> None:
    with pytest.raises(ConfigError, match=error) as refused:
        load_config(None, env)
    assert "GM_LMTP_LISTEN" in str(refused.value)
