"""What the IMAP and SMTP clients sign in with: a password (given, or printed by
`password_command`) or an OAuth2 access token for SASL XOAUTH2 / OAUTHBEARER (RFC 7628).

An access token comes from `token_command` (a helper such as oama or mutt_oauth2.py prints a
fresh one; it is run at each sign-in) or from gm's own refresh (RFC 6749 section 6: a POST of
grant_type=refresh_token to the token URL). The refresh uses the standard library's
urllib.request in a worker thread: one small form POST now and then needs no HTTP client
dependency (gm has none). A token gm refreshed is kept until shortly before it expires; when
the provider sends a new refresh token (rotation), it is written back to the refresh token file
atomically (a temporary file in the same folder, renamed over it). When a server refuses a
token, `refused()` forgets it, so the next sign-in runs the command or the refresh again.

Failures are `SignInError`s (temporary: the caller backs off and tries again). No message here
holds a password, a token or a client secret.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

from gm.config import Auth, OAuthConfig, SignIn
from gm.mail.errors import MailError
from gm.secret import Secret

COMMAND_TIMEOUT = 60.0  # seconds a password or token command may take (it may ask a keyring)
HTTP_TIMEOUT = 30.0
EXPIRY_MARGIN = 60.0  # a refreshed token is used until this many seconds before it expires
GUIDE = "deploy/GUIDE.md, \"Mailboxes\""


class SignInError(MailError):
    """The password or token could not be had, or the server refused it."""


def _first_line(output: bytes) -> str:
    text = output.decode("utf-8", "replace")
    return text.splitlines()[0].strip() if text.strip() else ""


async def run_secret_command(argv: tuple[str, ...], what: str) -> Secret:
    """Run `argv` (no shell) and take the first line it prints as the secret. Its error output
    is not quoted in the error (it might hold the secret); only the exit status is."""
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL)
    except OSError as exc:
        raise SignInError(f"cannot run the {what} {argv[0]!r}: {exc.strerror}") from None
    try:
        output, _ = await asyncio.wait_for(process.communicate(), COMMAND_TIMEOUT)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise SignInError(f"the {what} {argv[0]!r} did not finish within "
                          f"{COMMAND_TIMEOUT:g} s") from None
    if process.returncode != 0:
        raise SignInError(f"the {what} {argv[0]!r} failed (exit status {process.returncode})")
    secret = _first_line(output)
    if not secret:
        raise SignInError(f"the {what} {argv[0]!r} printed nothing")
    return Secret(secret)


async def password(sign_in: SignIn, given: Secret) -> Secret:
    """The password for this sign-in: `password_command`'s, else the one configured."""
    if sign_in.password_command:
        return await run_secret_command(sign_in.password_command, "password command")
    return given


class TokenSource:
    """Access tokens for one mail connection (see the module docstring)."""

    def __init__(self, oauth: OAuthConfig) -> None:
        self.oauth = oauth
        self.refreshes = 0  # refresh grants made so far
        self._token: Secret | None = None
        self._expires = 0.0  # time.monotonic()
        self._lock = asyncio.Lock()

    async def token(self) -> Secret:
        """A token believed to be valid (the command's, a kept one, or a fresh one)."""
        async with self._lock:
            if self.oauth.token_command:
                return await run_secret_command(self.oauth.token_command, "token command")
            if self._token is None or time.monotonic() >= self._expires:
                self._token, lifetime = await self._refresh()
                self._expires = time.monotonic() + max(0.0, lifetime - EXPIRY_MARGIN)
            return self._token

    def refused(self) -> None:
        """The server refused the last token: get a new one next time."""
        self._token = None

    async def _refresh(self) -> tuple[Secret, float]:
        o = self.oauth
        assert o.refresh_token_file is not None
        try:
            refresh_token = o.refresh_token_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise SignInError(f"cannot read the refresh token file {o.refresh_token_file}: "
                              f"{exc}") from None
        if not refresh_token:
            raise SignInError(f"the refresh token file {o.refresh_token_file} is empty; "
                              f"get a refresh token as {GUIDE} describes and write it there")
        form = {"grant_type": "refresh_token", "refresh_token": refresh_token,
                "client_id": o.client_id}
        secret = o.client_secret
        if o.client_secret_command:
            secret = await run_secret_command(o.client_secret_command, "client secret command")
        if secret:
            form["client_secret"] = secret.reveal()
        status, body = await asyncio.to_thread(_post, o.token_url, form)
        self.refreshes += 1
        try:
            answer = json.loads(body)
        except ValueError:
            answer = None
        if not isinstance(answer, dict):
            raise SignInError(f"the token endpoint {o.token_url} answered HTTP {status} "
                              "without a JSON object")
        if status != 200 or "access_token" not in answer:
            error = str(answer.get("error", f"HTTP {status}"))[:100]
            description = " ".join(str(answer.get("error_description", "")).split())[:200]
            detail = f"{error}{': ' + description if description else ''}"
            if error == "invalid_grant":
                raise SignInError(
                    f"the token endpoint {o.token_url} refused the refresh token in "
                    f"{o.refresh_token_file} ({detail}): it was revoked or has expired; sign "
                    f"in again to get a new one and write it to that file ({GUIDE})")
            raise SignInError(f"the token endpoint {o.token_url} refused to refresh the "
                              f"access token ({detail})")
        new_refresh = answer.get("refresh_token")
        if isinstance(new_refresh, str) and new_refresh and new_refresh != refresh_token:
            _write_atomically(o.refresh_token_file, new_refresh + "\n")
        lifetime = answer.get("expires_in", 3600)
        try:
            seconds = float(lifetime)
        except (TypeError, ValueError):
            seconds = 3600.0
        return Secret(str(answer["access_token"])), seconds


def _post(url: str, form: dict[str, str]) -> tuple[int, bytes]:
    """POST the form; the status and body (an HTTP error's too)."""
    request = urllib.request.Request(
        url, data=urllib.parse.urlencode(form).encode("ascii"), method="POST",
        headers={"Content-Type": "application/x-www-form-urlencoded",
                 "Accept": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=HTTP_TIMEOUT) as response:
            return int(response.status), bytes(response.read(1 << 20))
    except urllib.error.HTTPError as exc:
        return int(exc.code), bytes(exc.read(1 << 20))
    except (urllib.error.URLError, OSError, TimeoutError) as exc:
        reason = getattr(exc, "reason", exc)
        raise SignInError(f"cannot reach the token endpoint {url}: {reason}") from None


def _write_atomically(path: Path, text: str) -> None:
    """Replace the file's content in one step, keeping its permissions (0600 when new)."""
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = 0o600
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise SignInError(f"cannot write the new refresh token to {path}: {exc}") from None


def sasl_response(auth: Auth, user: str, token: Secret, host: str, port: int) -> str:
    """The base64 SASL initial response for XOAUTH2 or OAUTHBEARER (RFC 7628 section 3.1)."""
    if auth is Auth.XOAUTH2:
        raw = f"user={user}\x01auth=Bearer {token.reveal()}\x01\x01"
    else:
        raw = (f"n,a={user.replace('=', '=3D').replace(',', '=2C')},\x01host={host}\x01"
               f"port={port}\x01auth=Bearer {token.reveal()}\x01\x01")
    return base64.b64encode(raw.encode("utf-8")).decode("ascii")


def advice(server_text: str, auth: Auth) -> str:
    """What to do about a refused sign-in, from the server's words."""
    lowered = server_text.lower()
    if "basic authentication is disabled" in lowered or "basicauthblocked" in lowered:
        return (f"this provider accepts only OAuth2: set auth = \"xoauth2\" with a "
                f"token_command or the built-in refresh ({GUIDE})")
    if auth is Auth.PASSWORD:
        if "application-specific password" in lowered or "app password" in lowered:
            return f"this provider needs an app password, not the account's ({GUIDE})"
        return "check the user and the password"
    return ("the access token was refused; gm gets a new one and tries again (if this goes "
            "on, check the user, the token's scopes and the app registration)")
