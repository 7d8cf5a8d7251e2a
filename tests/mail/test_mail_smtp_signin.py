"""Submitting through a real SMTP server (aiosmtpd with STARTTLS) signed in with OAuth2
(XOAUTH2, OAUTHBEARER; tokens from a command or gm's refresh grant at a loopback provider) and
with a password from a command or a file."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from gm.config import Auth, OAuthConfig, Security, SignIn, SmtpConfig, load_config
from gm.mail.errors import SignInFailed
from gm.mail.smtp import SmtpSink
from gm.secret import Secret
from tests.mail.test_mail_signin import Helper
from tests.mail.test_mail_smtp import outgoing
from tests.support.fixtures.mailservers import SmtpServer, Tls, _Handler
from tests.support.fixtures.oauth import CLIENT_ID, CLIENT_SECRET, OAuthProvider

USER = "gm"


@pytest.fixture
def smtp_oauth_server(mail_tls: Tls, oauth: OAuthProvider) -> Iterator[SmtpServer]:
    """STARTTLS submission taking the provider's live access tokens (and gm's password)."""
    server = SmtpServer(security=Security.STARTTLS, tls=mail_tls,
                        users={USER: "smtp-secret"}, access_tokens=oauth.access)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def with_oauth(server: SmtpServer, auth: Auth, oauth: OAuthConfig) -> SmtpConfig:
    return replace(server.config(user=USER), sign_in=SignIn(auth=auth, oauth=oauth))


def refreshing(server: SmtpServer, provider: OAuthProvider, refresh_file: Path) -> SmtpConfig:
    return with_oauth(server, Auth.XOAUTH2, OAuthConfig(
        token_url=f"{provider.url}/token", client_id=CLIENT_ID,
        client_secret=Secret(CLIENT_SECRET), refresh_token_file=refresh_file))


@pytest.mark.parametrize("auth", [Auth.XOAUTH2, Auth.OAUTHBEARER])
async def test_a_valid_token_submits(smtp_oauth_server: SmtpServer, oauth: OAuthProvider,
                                     tmp_path: Path, auth: Auth) -> None:
    token = oauth.issue(USER)
    helper = Helper(tmp_path, token)
    sink = SmtpSink(with_oauth(smtp_oauth_server, auth, OAuthConfig(token_command=helper.argv)),
                    envelope_from="gm@example.org")
    report = await sink.send(outgoing())
    assert report.accepted == ("anna@example.org",)
    [received] = smtp_oauth_server.wait_for(1)
    assert received.login == USER
    assert smtp_oauth_server.handler.offered == [token]  # type: ignore[attr-defined]


async def test_an_expired_token_is_refused_and_refreshed(smtp_oauth_server: SmtpServer,
                                                         oauth: OAuthProvider,
                                                         tmp_path: Path) -> None:
    refresh_file = tmp_path / "refresh-token"
    refresh_file.write_text(oauth.issue_refresh(USER) + "\n")
    sink = SmtpSink(refreshing(smtp_oauth_server, oauth, refresh_file),
                    envelope_from="gm@example.org")
    await sink.send(outgoing())
    assert sink.tokens is not None and sink.tokens.refreshes == 1
    [first] = smtp_oauth_server.handler.offered  # type: ignore[attr-defined]
    oauth.expire(first)  # the kept token dies before its expiry time
    await sink.send(outgoing())  # refused once, refreshed, sent on the same connection
    assert sink.tokens.refreshes == 2 and sink.connections == 2
    assert smtp_oauth_server.handler.offered[1] == first  # type: ignore[attr-defined]
    assert len(smtp_oauth_server.wait_for(2)) == 2


async def test_a_revoked_refresh_token_says_what_to_do(smtp_oauth_server: SmtpServer,
                                                       oauth: OAuthProvider, tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture
                                                       ) -> None:
    caplog.set_level(logging.DEBUG)
    refresh_file = tmp_path / "refresh-token"
    revoked = oauth.issue_refresh(USER)
    oauth.revoke_refresh(revoked)
    refresh_file.write_text(revoked + "\n")
    sink = SmtpSink(refreshing(smtp_oauth_server, oauth, refresh_file),
                    envelope_from="gm@example.org")
    with pytest.raises(SignInFailed) as caught:
        await sink.send(outgoing())
    text = str(caught.value)
    assert "refused the refresh token in" in text and str(refresh_file) in text
    assert "invalid_grant" in text and "sign in again" in text
    assert revoked not in text + caplog.text and CLIENT_SECRET not in text + caplog.text
    assert smtp_oauth_server.received == []
    refresh_file.write_text(oauth.issue_refresh(USER) + "\n")
    await sink.send(outgoing())
    assert len(smtp_oauth_server.wait_for(1)) == 1


class _BasicAuthDisabled(_Handler):
    """Answers every AUTH as Microsoft 365 answers a password login."""

    async def handle_AUTH(self, server: Any, session: Any, envelope: Any,
                          args: list[str]) -> str:
        return ("535 5.7.139 Authentication unsuccessful, basic authentication is disabled. "
                "[AM0PR10CA0010.EURPRD10.PROD.OUTLOOK.COM]")


async def test_basic_authentication_disabled_names_the_fix(mail_tls: Tls) -> None:
    server = SmtpServer(security=Security.STARTTLS, tls=mail_tls, users={USER: "pw"})
    server.handler = _BasicAuthDisabled()
    server.start()
    try:
        sink = SmtpSink(server.config(user=USER, password="pw"), envelope_from="gm@example.org")
        with pytest.raises(SignInFailed) as caught:
            await sink.send(outgoing())
    finally:
        server.stop()
    text = str(caught.value)
    assert "basic authentication is disabled" in text
    assert 'this provider accepts only OAuth2: set auth = "xoauth2"' in text
    assert "deploy/GUIDE.md" in text and server.received == []


async def test_password_command_and_password_file_submit(smtp_oauth_server: SmtpServer,
                                                         tmp_path: Path,
                                                         caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    caplog.set_level(logging.DEBUG)
    helper = Helper(tmp_path, "smtp-secret")
    config = replace(smtp_oauth_server.config(user=USER),
                     sign_in=SignIn(password_command=helper.argv))
    await SmtpSink(config, envelope_from="gm@example.org").send(outgoing())
    assert helper.runs == 1
    assert [r.login for r in smtp_oauth_server.wait_for(1)] == [USER]
    (tmp_path / "smtp-password").write_text("smtp-secret\n")
    (tmp_path / "gm.toml").write_text(f"""\
[smtp]
host = "localhost"
port = {smtp_oauth_server.port}
security = "starttls"
user = "{USER}"
password_file = "smtp-password"
ca_file = "{smtp_oauth_server.tls.cert if smtp_oauth_server.tls else ''}"
""")
    loaded = load_config(tmp_path / "gm.toml", {}).smtp
    assert loaded is not None
    await SmtpSink(loaded, envelope_from="gm@example.org").send(outgoing())
    assert [r.login for r in smtp_oauth_server.wait_for(2)] == [USER, USER]
    helper.set("wrong-secret-77")
    with pytest.raises(SignInFailed) as caught:
        await SmtpSink(config, envelope_from="gm@example.org").send(outgoing())
    assert "refused the login for user 'gm'" in str(caught.value)
    assert "wrong-secret-77" not in str(caught.value) + caplog.text
    assert "smtp-secret" not in caplog.text
