"""Signing in with OAuth2 access tokens and with passwords from a command or a file, against
real servers: Dovecot with an oauth2 passdb that asks a loopback OAuth2 provider about each
token (IMAP), and aiosmtpd with XOAUTH2/OAUTHBEARER (SMTP, in test_mail_smtp_oauth.py)."""

from __future__ import annotations

import asyncio
import logging
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from gm.config import Auth, ImapConfig, OAuthConfig, SignIn
from gm.mail.errors import ImapLoginError
from gm.mail.imap import ImapSource
from gm.mail.signin import SignInError
from gm.mail.transport import Backoff
from gm.secret import Secret
from tests.mail.test_mail_imap import consuming, message
from tests.support.fixtures.mailservers import DovecotServer, ImapAccount
from tests.support.fixtures.oauth import CLIENT_ID, CLIENT_SECRET, OAuthProvider

FAST = Backoff(initial=0.05, maximum=0.2, jitter=0)

HELPER = """\
import sys
from pathlib import Path
Path(sys.argv[2]).open("a").write("run\\n")
print(Path(sys.argv[1]).read_text().strip())
print("second line, not the secret")
"""


class Helper:
    """A token or password command (like oama or `pass show`): prints what `value` holds and
    counts its runs."""

    def __init__(self, tmp_path: Path, value: str) -> None:
        self.script = tmp_path / "helper.py"
        self.script.write_text(HELPER)
        self.value_file = tmp_path / "value"
        self.runs_file = tmp_path / "runs"
        self.runs_file.write_text("")
        self.set(value)

    def set(self, value: str) -> None:
        self.value_file.write_text(value + "\n")

    @property
    def argv(self) -> tuple[str, ...]:
        return (sys.executable, str(self.script), str(self.value_file), str(self.runs_file))

    @property
    def runs(self) -> int:
        return len(self.runs_file.read_text().splitlines())


def oauth_config(account: ImapAccount, auth: Auth, oauth: OAuthConfig) -> ImapConfig:
    return replace(account.config(password=""), sign_in=SignIn(auth=auth, oauth=oauth))


def refresh_config(account: ImapAccount, provider: OAuthProvider, refresh_file: Path,
                   auth: Auth = Auth.XOAUTH2) -> ImapConfig:
    return oauth_config(account, auth, OAuthConfig(
        token_url=f"{provider.url}/token", client_id=CLIENT_ID,
        client_secret=Secret(CLIENT_SECRET), refresh_token_file=refresh_file))


@pytest.mark.parametrize("auth", [Auth.XOAUTH2, Auth.OAUTHBEARER])
async def test_a_valid_token_signs_in(dovecot_oauth: DovecotServer, oauth_account: ImapAccount,
                                      oauth: OAuthProvider, tmp_path: Path, auth: Auth,
                                      caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # aioimaplib logs what it sends at DEBUG
    token = oauth.issue(oauth_account.user)
    helper = Helper(tmp_path, token)
    dovecot_oauth.save(oauth_account.user, message(1))
    source = ImapSource(oauth_config(oauth_account, auth, OAuthConfig(token_command=helper.argv)),
                        backoff=FAST, timeout=10)
    try:
        await source.check()
        mails = [mail async for mail in source.pending()]
    finally:
        await source.close()
    assert [m.raw for m in mails] == [message(1)]
    assert oauth.introspections == [token]  # Dovecot asked the provider about this token
    assert helper.runs == 1
    assert "AUTHENTICATE" in caplog.text and token not in caplog.text


async def test_an_expired_token_is_refused_and_the_command_runs_again(
        dovecot_oauth: DovecotServer, oauth_account: ImapAccount, oauth: OAuthProvider,
        tmp_path: Path) -> None:
    stale = oauth.issue(oauth_account.user)
    helper = Helper(tmp_path, stale)
    oauth.expire(stale)
    source = ImapSource(oauth_config(oauth_account, Auth.XOAUTH2,
                                     OAuthConfig(token_command=helper.argv)),
                        backoff=FAST, timeout=10)
    try:
        with pytest.raises(ImapLoginError) as caught:
            await source.check()  # refused, the command runs again, the same token: refused
        assert helper.runs == 2
        assert "refused the access token" in str(caught.value)
        assert stale not in str(caught.value)
        fresh = oauth.issue(oauth_account.user)
        helper.set(fresh)  # the helper (oama, mutt_oauth2.py) refreshed it meanwhile
        await source.check()
        assert source.logins == 1 and helper.runs == 3
        assert oauth.introspections[-1] == fresh
    finally:
        await source.close()


async def test_the_refresh_grant_gets_a_new_token_when_one_is_refused(
        dovecot_oauth: DovecotServer, oauth_account: ImapAccount, oauth: OAuthProvider,
        tmp_path: Path) -> None:
    oauth.rotate = True
    refresh_file = tmp_path / "refresh-token"
    refresh_file.write_text(oauth.issue_refresh(oauth_account.user) + "\n")
    refresh_file.chmod(0o600)
    dovecot_oauth.save(oauth_account.user, message(1))
    source = ImapSource(refresh_config(oauth_account, oauth, refresh_file), backoff=FAST,
                        timeout=10)
    try:
        await source.check()
        assert len(oauth.grants) == 1 and oauth.grants[0]["grant_type"] == "refresh_token"
        # the provider rotated the refresh token: the new one is in the file, alone
        rotated = refresh_file.read_text().strip()
        assert rotated in oauth.refresh and len(oauth.refresh) >= 1
        assert refresh_file.stat().st_mode & 0o777 == 0o600
        assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
        assert [m.raw async for m in source.pending()] == [message(1)]
    finally:
        await source.close()
    # a restarted service refreshes with the rotated token (the old one is dead now)
    source = ImapSource(refresh_config(oauth_account, oauth, refresh_file), backoff=FAST,
                        timeout=10)
    try:
        await source.check()
        assert oauth.grants[-1]["refresh_token"] == rotated
        assert refresh_file.read_text().strip() != rotated  # rotated once more
    finally:
        await source.close()


async def test_a_kept_token_refused_is_refreshed_on_the_same_connection(
        dovecot_oauth: DovecotServer, oauth_account: ImapAccount, oauth: OAuthProvider,
        tmp_path: Path) -> None:
    refresh_file = tmp_path / "refresh-token"
    refresh_file.write_text(oauth.issue_refresh(oauth_account.user) + "\n")
    dovecot_oauth.save(oauth_account.user, message(1))
    source = ImapSource(refresh_config(oauth_account, oauth, refresh_file), backoff=FAST,
                        timeout=10)
    async with consuming(source) as consumer:
        assert (await consumer.next()).raw == message(1)
        assert source.tokens is not None and source.tokens.refreshes == 1
        for token in [t for t, u in oauth.access.items() if u == oauth_account.user]:
            oauth.expire(token)  # the kept token dies before its expiry time
        dovecot_oauth.kick(oauth_account.user)  # the server ends the session: sign in again
        dovecot_oauth.save(oauth_account.user, message(2))
        assert (await consumer.next()).raw == message(2)
        assert source.tokens.refreshes == 2 and source.logins == 2


async def test_a_revoked_refresh_token_is_reported_once_and_nothing_is_lost(
        dovecot_oauth: DovecotServer, oauth_account: ImapAccount, oauth: OAuthProvider,
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    refresh_file = tmp_path / "refresh-token"
    revoked = oauth.issue_refresh(oauth_account.user)
    oauth.revoke_refresh(revoked)
    refresh_file.write_text(revoked + "\n")
    dovecot_oauth.save(oauth_account.user, message(1))
    source = ImapSource(refresh_config(oauth_account, oauth, refresh_file), backoff=FAST,
                        timeout=10)
    async with consuming(source) as consumer:
        for _ in range(200):
            if source.consecutive_failures >= 4:
                break
            await asyncio.sleep(0.02)
        assert source.consecutive_failures >= 4  # it keeps trying, with backoff
        assert isinstance(source.last_error, SignInError)
        warnings = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(warnings) == 1, warnings  # one line for the kind of failure
        assert "refused the refresh token in" in warnings[0]
        assert "invalid_grant" in warnings[0] and "sign in again" in warnings[0]
        assert revoked not in caplog.text and CLIENT_SECRET not in caplog.text
        # the operator writes a new refresh token: the waiting message comes through
        refresh_file.write_text(oauth.issue_refresh(oauth_account.user) + "\n")
        assert (await consumer.next(timeout=10)).raw == message(1)
        assert source.consecutive_failures == 0


async def test_password_command_and_password_file_sign_in(dovecot: DovecotServer,
                                                          imap_account: ImapAccount,
                                                          tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture
                                                          ) -> None:
    caplog.set_level(logging.DEBUG)
    helper = Helper(tmp_path, imap_account.password)
    dovecot.save(imap_account.user, message(1))
    config = replace(imap_account.config(password=""),
                     sign_in=SignIn(password_command=helper.argv))
    source = ImapSource(config, backoff=FAST, timeout=10)
    try:
        await source.check()
        assert [m.raw async for m in source.pending()] == [message(1)]
    finally:
        await source.close()
    assert helper.runs == 1
    helper.set("not-the-password-42")
    source = ImapSource(config, backoff=FAST, timeout=10)
    with pytest.raises(ImapLoginError) as caught:
        await source.check()
    await source.close()
    assert "check the user and the password" in str(caught.value)
    assert "not-the-password-42" not in caplog.text + str(caught.value)


async def test_a_failing_password_command_is_reported_without_its_output(
        imap_account: ImapAccount, tmp_path: Path) -> None:
    script = tmp_path / "fails.py"
    script.write_text("import sys\nprint('half-secret-9')\n"
                      "print('store locked: half-secret-9', file=sys.stderr)\nsys.exit(3)\n")
    config = replace(imap_account.config(password=""),
                     sign_in=SignIn(password_command=(sys.executable, str(script))))
    source = ImapSource(config, backoff=FAST, timeout=10)
    with pytest.raises(SignInError) as caught:
        await source.check()
    await source.close()
    assert "password command" in str(caught.value) and "exit status 3" in str(caught.value)
    assert "half-secret-9" not in str(caught.value)
    missing = replace(config, sign_in=SignIn(password_command=("/nonexistent/pass-helper",)))
    source = ImapSource(missing, backoff=FAST, timeout=10)
    with pytest.raises(SignInError, match="cannot run the password command"):
        await source.check()
    await source.close()


@pytest.mark.slow
async def test_a_token_refused_again_and_again_is_logged_once(
        dovecot_oauth: DovecotServer, oauth_account: ImapAccount, oauth: OAuthProvider,
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)
    dead = oauth.issue(oauth_account.user)
    oauth.expire(dead)
    helper = Helper(tmp_path, dead)
    dovecot_oauth.save(oauth_account.user, message(1))
    source = ImapSource(oauth_config(oauth_account, Auth.XOAUTH2,
                                     OAuthConfig(token_command=helper.argv)),
                        backoff=FAST, timeout=30)
    # Dovecot answers repeated failures ever more slowly (its auth penalty): two sign-ins
    # that fail are what a test can wait for
    async with consuming(source) as consumer:
        for _ in range(900):
            if source.consecutive_failures >= 2:
                break
            await asyncio.sleep(0.05)
        assert source.consecutive_failures >= 2 and helper.runs >= 4  # twice per sign-in
        lines = [r.getMessage() for r in caplog.records if r.name.startswith("gm.")]
        assert len(lines) == 1, lines
        assert "refused the access token for user" in lines[0]
        assert dead not in caplog.text
        helper.set(oauth.issue(oauth_account.user))
        assert (await consumer.next(timeout=40)).raw == message(1)
