"""The sign-in settings of [imap] and [smtp]: one way to give a password, password_command,
and OAuth2 (a token command, or the refresh grant's URL, client and refresh token file)."""

from __future__ import annotations

from pathlib import Path

import pytest

from gm.config import Auth, ConfigError, load_config
from gm.secret import Secret


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "gm.toml"
    path.write_text(text)
    return path


IMAP = '[imap]\nhost = "imap.example.org"\nuser = "gm@example.org"\n'


def test_password_command_as_a_list_or_a_string(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, IMAP + 'password_command = ["pass", "show", "m/gm"]\n'
                               '[smtp]\nhost = "smtp.example.org"\nuser = "gm"\n'
                               "password_command = \"gpg -dq '/etc/gm/my pw.gpg'\"\n"), {})
    assert config.imap is not None and config.smtp is not None
    assert config.imap.sign_in.password_command == ("pass", "show", "m/gm")
    assert config.smtp.sign_in.password_command == ("gpg", "-dq", "/etc/gm/my pw.gpg")
    assert config.imap.password == Secret("")
    env = load_config(write(tmp_path, IMAP), {"GM_IMAP_PASSWORD_COMMAND": "secret-tool lookup "
                                                                         "service gm"})
    assert env.imap is not None
    assert env.imap.sign_in.password_command == ("secret-tool", "lookup", "service", "gm")


@pytest.mark.parametrize(("text", "env"), [
    ('password = "pw"\npassword_file = "pw"\n', {}),
    ("", {"GM_IMAP_PASSWORD": "from-env-secret", "GM_IMAP_PASSWORD_COMMAND": "pass gm"}),
    ('password_command = "pass show gm"\npassword_file = "pw"\n', {}),
])
def test_at_most_one_way_to_give_the_password(tmp_path: Path, text: str,
                                              env: dict[str, str]) -> None:
    (tmp_path / "pw").write_text("file-secret\n")
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, IMAP + text), env)
    message = str(caught.value)
    assert "give at most one of imap.password, imap.password_command, imap.password_file" in (
        message)
    assert "file-secret" not in message and "from-env-secret" not in message


def test_the_environment_replaces_the_files_password(tmp_path: Path) -> None:
    (tmp_path / "pw").write_text("file-secret\n")
    config = load_config(write(tmp_path, IMAP + 'password_file = "pw"\n'),
                         {"GM_IMAP_PASSWORD_COMMAND": "pass show gm"})
    assert config.imap is not None and config.imap.password == Secret("")
    assert config.imap.sign_in.password_command == ("pass", "show", "gm")


def test_token_command(tmp_path: Path) -> None:
    config = load_config(write(tmp_path, IMAP + 'auth = "XOAUTH2"\n'
                               'token_command = "oama access gm@example.org"\n'), {})
    assert config.imap is not None
    sign_in = config.imap.sign_in
    assert sign_in.auth is Auth.XOAUTH2 and sign_in.oauth is not None
    assert sign_in.oauth.token_command == ("oama", "access", "gm@example.org")


def test_refresh_grant(tmp_path: Path) -> None:
    (tmp_path / "client-secret").write_text("the-client-secret\n")
    config = load_config(write(tmp_path, IMAP + 'auth = "oauthbearer"\n'
                               'token_url = "https://login.example.com/token"\n'
                               'client_id = "abc-123"\nclient_secret_file = "client-secret"\n'
                               'refresh_token_file = "refresh"\n'), {})
    assert config.imap is not None
    oauth = config.imap.sign_in.oauth
    assert config.imap.sign_in.auth is Auth.OAUTHBEARER and oauth is not None
    assert oauth.client_id == "abc-123" and oauth.client_secret == Secret("the-client-secret")
    assert oauth.refresh_token_file == tmp_path / "refresh"
    assert "the-client-secret" not in repr(config)


@pytest.mark.parametrize(("text", "error"), [
    ('auth = "kerberos"\n', "expected password, xoauth2 or oauthbearer, got 'kerberos'"),
    ('auth = "xoauth2"\n', "imap.auth = xoauth2 needs imap.token_command"),
    ('auth = "xoauth2"\npassword = "pw"\ntoken_command = "oama"\n',
     "signs in with an access token, not a password"),
    ('token_command = "oama"\n', 'is for OAuth2 sign-in; set imap.auth = "xoauth2"'),
    ('auth = "xoauth2"\ntoken_command = "oama"\ntoken_url = "https://x/t"\n',
     "give at most one of imap.token_command, imap.token_url"),
    ('auth = "xoauth2"\ntoken_command = "oama"\nclient_id = "c"\n',
     "not used with imap.token_command"),
    ('auth = "xoauth2"\ntoken_url = "https://x/t"\n', "needs imap.client_id and "
     "imap.refresh_token_file too"),
    ('auth = "xoauth2"\ntoken_url = "http://login.example.com/t"\nclient_id = "c"\n'
     'refresh_token_file = "r"\n', "expected an https:// URL"),
    ('auth = "xoauth2"\ntoken_url = "https://x/t"\nclient_id = "c"\nrefresh_token_file = "r"\n'
     'client_secret = "s"\nclient_secret_command = "pass c"\n',
     "give at most one of imap.client_secret, imap.client_secret_command"),
    ('password_command = []\n', "expected a command, got an empty one"),
    ('password_command = "pass \'unclosed"\n', "cannot split the command"),
])
def test_sign_in_errors_name_the_keys(tmp_path: Path, text: str, error: str) -> None:
    with pytest.raises(ConfigError, match=None) as caught:
        load_config(write(tmp_path, IMAP + text), {})
    assert error in str(caught.value)


def test_smtp_oauth_needs_a_user(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, '[smtp]\nhost = "smtp.example.org"\nauth = "xoauth2"\n'
                                    'token_command = "oama access gm"\n'), {})
    assert "smtp.user" in str(caught.value)
