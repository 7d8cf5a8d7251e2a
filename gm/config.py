"""Service settings from a TOML file and GM_* environment variables (the environment wins).

    database_url = "postgresql+psycopg://gm@db/gm"   # GM_DATABASE_URL; default: SQLite in data_dir
    data_dir = "/var/lib/gm"                          # GM_DATA_DIR
    address = "judge@example.org"                     # GM_ADDRESS: the service's own address
    display_name = "Diplomacy judge"                  # GM_DISPLAY_NAME
    max_message_bytes = 5242880                       # GM_MAX_MESSAGE_BYTES: larger mail is refused
    poll_interval = 60                                # GM_POLL_INTERVAL (seconds)
    early_delay = 20                                  # GM_EARLY_DELAY (seconds): a game
                                                      # processing early does it this long
                                                      # after the last power's orders came
    operator = "postmaster@example.org"               # GM_OPERATOR: told of each shunted message
    rate_limit = 100                                  # GM_RATE_LIMIT: per sender and window;
                                                      # more are held, not answered (0: no limit)
    rate_window = 3600                                # GM_RATE_WINDOW (seconds)
    max_reply_bytes = 1048576                         # GM_MAX_REPLY_BYTES: one reply's text and
                                                      # files; answers past it are left out, named
    max_reply_files = 10                              # GM_MAX_REPLY_FILES: files one reply carries
    max_reply_answers = 20                            # GM_MAX_REPLY_ANSWERS: HELP, LIST, MAP, ...
                                                      # lines one message gets answered
    max_forming_games = 3                             # GM_MAX_FORMING_GAMES: games not yet started
                                                      # one address may have CREATEd (0: no cap)
    variants_dir = "variants"                         # GM_VARIANTS_DIR: variant files (*.toml)
                                                      # loaded at start (docs/variant-files.md)
    max_message_seconds = 20                          # GM_MAX_MESSAGE_SECONDS: a body taking
                                                      # longer to read is shunted, not read
    trusted_received_hosts = ["mx.example.org"]       # GM_TRUSTED_RECEIVED_HOSTS: the local
                                                      # mail server(s) whose Received line dates
                                                      # arrival (deploy/GUIDE.md); default none

    [imap]        # GM_IMAP_HOST, _PORT, _SECURITY, _USER, _PASSWORD (or _PASSWORD_FILE,
                  # _PASSWORD_COMMAND), _FOLDER, _PROCESSED_FOLDER, _CA_FILE, _IDLE_TIMEOUT,
                  # _AUTH, _TOKEN_COMMAND, _TOKEN_URL, _CLIENT_ID, _CLIENT_SECRET (or
                  # _CLIENT_SECRET_FILE, _CLIENT_SECRET_COMMAND), _REFRESH_TOKEN_FILE
    host = "imap.example.org"
    security = "tls"          # "tls", "starttls", or "plain" (loopback hosts only)
    password_command = ["pass", "show", "mail/gm"]  # or password, or password_file
    # auth = "xoauth2"        # or "oauthbearer" (RFC 7628); default "password"
    # token_command = ["oama", "access", "gm@example.org"]   # prints a fresh access token

    [smtp]        # GM_SMTP_HOST, _PORT, _SECURITY, _USER, _PASSWORD (or _PASSWORD_FILE,
                  # _PASSWORD_COMMAND), _CA_FILE, _TIMEOUT, and the same OAuth2 keys as [imap]
    host = "smtp.example.org"
    security = "starttls"

    [lmtp]        # GM_LMTP_LISTEN, GM_LMTP_FLUSH, GM_LMTP_QUIET, GM_LMTP_SETTLE: the mail
                  # server delivers to the service instead (no IMAP)
    listen = "unix:/run/gm/lmtp.sock"   # or "127.0.0.1:2424" (a loopback address only)
    flush = "/usr/sbin/postqueue -f"    # asks the mail server to deliver what it holds now
    quiet = 3     # seconds without a delivery after the flush: the mail server has handed over
    settle = 60   # at most this long: deadlines that passed while gm was down wait for it

    [maildir]     # GM_MAILDIR_INBOX, GM_MAILDIR_OUTBOX
    inbox = "mail/inbox"      # default: <data_dir>/mail/inbox
    outbox = "mail/outbox"    # default: <data_dir>/mail/outbox

    [web]         # GM_WEB_ARCHIVE_DIR
    archive_dir = "/var/www/gm"   # the static web archive, written after each processed
                                  # phase (gm.play.archive); default: none

With [lmtp] the mail server hands each message to the service over LMTP (RFC 2033) the moment
it arrives (Postfix: `mailbox_transport = lmtp:unix:/run/gm/lmtp.sock`); a message is answered
250 only once it is stored. Without an IMAP host or [lmtp] the service reads the local Maildir
inbox; without an SMTP host it writes
sent mail to the local Maildir outbox (the embedded default). Relative paths in the file are
relative to the file's directory; relative paths in the environment to the working directory.
Passwords are `Secret`s (gm.secret) and the database URL is left out of repr, so logging a
`Config` is safe. A mail password is given at most one way: `password`, `password_file` (read
here; systemd's LoadCredential) or `password_command` (run at each sign-in, without a shell: an
argv list, or a string split like a shell would; the first line it prints is the password).
`auth = "xoauth2"` or `"oauthbearer"` signs in with an OAuth2 access token instead
(gm.mail.signin): printed by `token_command`, or got by gm itself from `token_url` with
`client_id`, `client_secret` (or `client_secret_command`/`client_secret_file`) and the refresh
token kept in `refresh_token_file`.
"""

from __future__ import annotations

import ipaddress
import os
import re
import shlex
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any, TypeVar

from gm.secret import Secret

ENV_PREFIX = "GM_"
DEFAULT_DATA_DIR = Path("var")
DEFAULT_MAX_MESSAGE_BYTES = 5 * 1024 * 1024
DEFAULT_POLL_INTERVAL = 60.0
# seconds after the last power's orders before a phase every power is ready in is processed
# early (SET EARLY): a correction mailed just after the orders still counts
DEFAULT_EARLY_DELAY = 20.0
DEFAULT_IDLE_TIMEOUT = 600.0  # re-issue IDLE this often (RFC 2177 asks for less than 29 min)
# seconds a process's claim on a message of a shared folder keeps it from the others
# (gm.store.mailbox_claims); renewed every quarter of it
DEFAULT_CLAIM_LEASE = 120.0
DEFAULT_SMTP_TIMEOUT = 60.0
DEFAULT_LMTP_SETTLE = 60.0  # seconds the mail server has after a start to hand queued mail over
DEFAULT_LMTP_QUIET = 3.0  # seconds without a delivery after the flush that end the hand-over
# Messages one sender may send per window before the rest are held (kept, not answered): a
# hundred an hour is more than a person writes (one every 36 seconds for an hour), so no player
# or GM meets it, while a forged sender or a robot gets at most a hundred replies an hour sent
# to the address it names (each within max_reply_bytes: 100 MB an hour at worst, where 2000
# replies of any size were possible before). Robots that loop are held sooner by the loop guard
# (gm.service.loop_guard); held mail is kept, and `gm shunt replay` releases it.
DEFAULT_RATE_LIMIT = 100
DEFAULT_RATE_WINDOW = 3600.0
# What one reply may carry (gm.commands.reply_cap): its text and files together (1 MiB; base64
# makes it some 1.4 MB as mailed, far under the 10 MB and more that mail providers accept, and
# room for five MAPs), how many files (five MAPs' PNG and SVG), and how many lines that only
# answer (HELP, LIST, MAP, HISTORY, SUMMARY, ORDERS, PREVIEW) one message gets answered.
DEFAULT_MAX_REPLY_BYTES = 1024 * 1024
DEFAULT_MAX_REPLY_FILES = 10
DEFAULT_MAX_REPLY_ANSWERS = 20
# Games not yet started (forming) one address may have created: a GM sets up a game or two at
# a time, and a stranger cannot fill LIST with games nobody plays (0: no cap).
DEFAULT_MAX_FORMING_GAMES = 3
# Seconds one message's body may take to read: past it the message is shunted, not read (a
# normal message takes milliseconds; this stops a crafted one from stalling the service).
DEFAULT_MAX_MESSAGE_SECONDS = 20.0


class ConfigError(ValueError):
    """A setting is missing or wrong; the message names the key and where it came from."""


class Security(StrEnum):
    """How a mail connection is protected."""

    TLS = "tls"  # TLS from the first byte (IMAP 993, SMTP 465)
    STARTTLS = "starttls"  # plain connection upgraded before login (IMAP 143, SMTP 587)
    PLAIN = "plain"  # no encryption: only to a loopback host


NO_PASSWORD = Secret("")  # no AUTH


class Auth(StrEnum):
    """How gm signs in to a mail server."""

    PASSWORD = "password"  # IMAP LOGIN, SMTP AUTH PLAIN/LOGIN
    XOAUTH2 = "xoauth2"  # an OAuth2 access token (Google's and Microsoft's SASL XOAUTH2)
    OAUTHBEARER = "oauthbearer"  # an OAuth2 access token (RFC 7628)


@dataclass(frozen=True)
class OAuthConfig:
    """Where the access token comes from: `token_command` prints one, or gm refreshes it at
    `token_url` (RFC 6749 section 6) with the client and the refresh token in a file."""

    token_command: tuple[str, ...] = ()
    token_url: str = ""
    client_id: str = ""
    client_secret: Secret = NO_PASSWORD
    client_secret_command: tuple[str, ...] = ()
    refresh_token_file: Path | None = None


@dataclass(frozen=True)
class SignIn:
    """What a mail connection signs in with (besides the user)."""

    auth: Auth = Auth.PASSWORD
    password_command: tuple[str, ...] = ()  # run at each sign-in; overrides `password`
    oauth: OAuthConfig | None = None  # with auth xoauth2 / oauthbearer


@dataclass(frozen=True)
class ImapConfig:
    host: str
    port: int
    security: Security
    user: str
    password: Secret
    folder: str = "INBOX"
    processed_folder: str | None = None  # move processed mail there (after flagging it)
    ca_file: Path | None = None  # trust these certificates instead of the system's
    idle_timeout: float = DEFAULT_IDLE_TIMEOUT
    sign_in: SignIn = field(default_factory=SignIn)
    claim_lease: float = DEFAULT_CLAIM_LEASE


@dataclass(frozen=True)
class SmtpConfig:
    host: str
    port: int
    security: Security
    user: str | None = None  # no user: no AUTH
    password: Secret = NO_PASSWORD
    ca_file: Path | None = None
    timeout: float = DEFAULT_SMTP_TIMEOUT
    sign_in: SignIn = field(default_factory=SignIn)
    # each message its own envelope sender (judge+b.<token>@domain), so bounces name it; off
    # for a relay that accepts no envelope sender but the account's own
    verp: bool = True


@dataclass(frozen=True)
class LmtpConfig:
    """Where `gm serve` listens for LMTP: a UNIX socket path, or a loopback host and port."""

    path: Path | None = None
    host: str = ""
    port: int = 0
    settle: float = DEFAULT_LMTP_SETTLE
    # run to have the mail server deliver what it holds for gm (Postfix: postqueue -f), at the
    # start and at each deadline; the hand-over ends `quiet` seconds after the last delivery
    flush: tuple[str, ...] = ()
    quiet: float = DEFAULT_LMTP_QUIET

    @property
    def where(self) -> str:
        return f"unix:{self.path}" if self.path is not None else f"{self.host}:{self.port}"


@dataclass(frozen=True)
class MaildirConfig:
    inbox: Path
    outbox: Path


@dataclass(frozen=True)
class Config:
    data_dir: Path
    address: str
    display_name: str
    maildir: MaildirConfig
    imap: ImapConfig | None = None  # None: read the Maildir inbox
    lmtp: LmtpConfig | None = None  # the mail server delivers over LMTP (instead of IMAP)
    smtp: SmtpConfig | None = None  # None: write to the Maildir outbox
    database_url: str | None = field(default=None, repr=False)  # None: SQLite in data_dir
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    poll_interval: float = DEFAULT_POLL_INTERVAL
    operator: str | None = None  # the operator's address: told when a message is shunted
    rate_limit: int = DEFAULT_RATE_LIMIT  # messages per sender per rate_window; 0: no limit
    rate_window: float = DEFAULT_RATE_WINDOW  # seconds
    max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES  # one reply's text and files
    max_reply_files: int = DEFAULT_MAX_REPLY_FILES  # files one reply carries
    max_reply_answers: int = DEFAULT_MAX_REPLY_ANSWERS  # answering lines one message gets
    max_forming_games: int = DEFAULT_MAX_FORMING_GAMES  # forming games per address; 0: no cap
    variants_dir: Path | None = None  # a folder of variant files, loaded at start
    # seconds between the last power's orders and early processing; the settings file's
    # default is DEFAULT_EARLY_DELAY, a Config made in code processes at the first tick
    early_delay: float = 0.0
    max_message_seconds: float = DEFAULT_MAX_MESSAGE_SECONDS  # reading one message's body
    trusted_received_hosts: tuple[str, ...] = ()  # MTAs whose Received lines give arrival
    archive_dir: Path | None = None  # [web] archive_dir: the static web archive (None: none)

    @property
    def domain(self) -> str:
        """The domain of the service's address (used in generated Message-IDs)."""
        return self.address.rpartition("@")[2]

    @property
    def database_url_for_log(self) -> str | None:
        """The database URL with any password replaced by asterisks."""
        if self.database_url is None:
            return None
        return re.sub(r"(//[^/:@]*:)[^/@]*@", r"\1********@", self.database_url)


# Keys each table accepts, and the environment variable of each.
_TOP = ("database_url", "data_dir", "address", "display_name", "max_message_bytes",
        "poll_interval", "operator", "rate_limit", "rate_window", "max_reply_bytes",
        "max_reply_files", "max_reply_answers", "max_forming_games", "variants_dir",
        "early_delay", "max_message_seconds", "trusted_received_hosts")
_SIGN_IN = ("password_command", "auth", "token_command", "token_url", "client_id",
            "client_secret", "client_secret_command", "client_secret_file", "refresh_token_file")
_IMAP = ("host", "port", "security", "user", "password", "password_file", "folder",
         "processed_folder", "ca_file", "idle_timeout", "claim_lease", *_SIGN_IN)
_SMTP = ("host", "port", "security", "user", "password", "password_file", "ca_file", "timeout",
         "verp", *_SIGN_IN)
_MAILDIR = ("inbox", "outbox")
_LMTP = ("listen", "settle", "flush", "quiet")
_WEB = ("archive_dir",)
_TABLES: dict[str, tuple[str, ...]] = {"imap": _IMAP, "smtp": _SMTP, "maildir": _MAILDIR,
                                       "lmtp": _LMTP, "web": _WEB}

_DEFAULT_PORTS = {
    "imap": {Security.TLS: 993, Security.STARTTLS: 143, Security.PLAIN: 143},
    "smtp": {Security.TLS: 465, Security.STARTTLS: 587, Security.PLAIN: 25},
}
_ADDRESS_RE = re.compile(r"^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*$")
_FOLDER_RE = re.compile(r"^[\x20-\x7e]{1,200}$")

T = TypeVar("T")
_NO_COMMAND: tuple[str, ...] = ()


def env_name(key: str) -> str:
    """The environment variable of a dotted key: "imap.host" -> "GM_IMAP_HOST"."""
    return ENV_PREFIX + key.replace(".", "_").upper()


class _Settings:
    """Raw values from the file and the environment, with their origin for error messages."""

    def __init__(self, path: Path | None, env: Mapping[str, str]) -> None:
        self.file = path
        self.base = path.parent if path is not None else Path.cwd()
        self.values: dict[str, tuple[Any, str, Path]] = {}
        if path is not None:
            self._read_file(path)
        for key in (*_TOP, *(f"{t}.{k}" for t, keys in _TABLES.items() for k in keys)):
            name = env_name(key)
            if name in env:
                self.values[key] = (env[name], f"environment variable {name}", Path.cwd())

    def _read_file(self, path: Path) -> None:
        try:
            with path.open("rb") as fh:
                data = tomllib.load(fh)
        except OSError as exc:
            raise ConfigError(f"cannot read configuration file {path}: {exc.strerror}") from None
        except tomllib.TOMLDecodeError as exc:
            raise ConfigError(f"configuration file {path} is not valid TOML: {exc}") from None
        for key, value in data.items():
            if key in _TABLES:
                if not isinstance(value, dict):
                    raise ConfigError(f"{path}: [{key}] must be a table")
                for sub, subvalue in value.items():
                    if sub not in _TABLES[key]:
                        raise ConfigError(
                            f"{path}: unknown key {key}.{sub} (known: {', '.join(_TABLES[key])})")
                    self.values[f"{key}.{sub}"] = (subvalue, f"{path}: {key}.{sub}", self.base)
            elif key in _TOP:
                self.values[key] = (value, f"{path}: {key}", self.base)
            else:
                known = ", ".join((*_TOP, *(f"[{t}]" for t in _TABLES)))
                raise ConfigError(f"{path}: unknown key {key} (known: {known})")

    def has(self, key: str) -> bool:
        return key in self.values

    def origin(self, key: str) -> str:
        return self.values[key][1] if key in self.values else key

    def get(self, key: str, convert: Callable[[Any, str], T], default: T) -> T:
        if key not in self.values:
            return default
        value, origin, _ = self.values[key]
        return convert(value, origin)

    def path(self, key: str, default: Path) -> Path:
        if key not in self.values:
            return default
        value, origin, base = self.values[key]
        text = _text(value, origin)
        if not text:
            raise ConfigError(f"{origin}: expected a path, got an empty value")
        resolved = Path(text).expanduser()
        return resolved if resolved.is_absolute() else base / resolved


def _text(value: Any, origin: str) -> str:
    if not isinstance(value, str):
        raise ConfigError(f"{origin}: expected a string, got {value!r}")
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ConfigError(f"{origin}: control characters are not allowed")
    return value.strip()


def _flag(value: Any, origin: str) -> bool:
    """true or false (in the environment also 1/0, yes/no, on/off)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, str):
        word = value.strip().lower()
        if word in ("true", "1", "yes", "on"):
            return True
        if word in ("false", "0", "no", "off"):
            return False
    raise ConfigError(f"{origin}: expected true or false, got {value!r}")


def _integer(low: int, high: int) -> Callable[[Any, str], int]:
    def convert(value: Any, origin: str) -> int:
        if isinstance(value, bool):
            raise ConfigError(f"{origin}: expected an integer, got {value!r}")
        if isinstance(value, str):
            try:
                value = int(value.strip())
            except ValueError:
                raise ConfigError(f"{origin}: expected an integer, got {value!r}") from None
        if not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"{origin}: expected an integer from {low} to {high}, got {value!r}")
        return value

    return convert


def _seconds(low: float, high: float) -> Callable[[Any, str], float]:
    def convert(value: Any, origin: str) -> float:
        if isinstance(value, bool):
            raise ConfigError(f"{origin}: expected a number of seconds, got {value!r}")
        if isinstance(value, str):
            try:
                value = float(value.strip())
            except ValueError:
                raise ConfigError(
                    f"{origin}: expected a number of seconds, got {value!r}") from None
        if not isinstance(value, int | float) or not low <= value <= high:
            raise ConfigError(
                f"{origin}: expected a number of seconds from {low:g} to {high:g}, got {value!r}")
        return float(value)

    return convert


def _security(value: Any, origin: str) -> Security:
    text = _text(value, origin).lower()
    try:
        return Security(text)
    except ValueError:
        choices = ", ".join(s.value for s in Security)
        raise ConfigError(f"{origin}: expected one of {choices}, got {value!r}") from None


def _address(value: Any, origin: str) -> str:
    text = _text(value, origin)
    if not _ADDRESS_RE.match(text):
        raise ConfigError(f"{origin}: expected a plain address like gm@example.org, got {value!r}")
    return text


_HOST_RE = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})$")


def _host_names(value: Any, origin: str) -> tuple[str, ...]:
    """Host names, a list in the file or comma-separated in the environment; lower case."""
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list | tuple):
        raise ConfigError(f"{origin}: expected a list of host names, got {value!r}")
    names = []
    for item in items:
        name = str(item).strip().lower().rstrip(".")
        if not name:
            continue
        if not _HOST_RE.match(name):
            raise ConfigError(f"{origin}: expected a host name like mx.example.org, got {item!r}")
        names.append(name)
    return tuple(names)


def _optional_address(value: Any, origin: str) -> str | None:
    if isinstance(value, str) and not value.strip():
        return None
    return _address(value, origin)


def _folder(value: Any, origin: str) -> str:
    text = _text(value, origin)
    if not _FOLDER_RE.match(text) or '"' in text or "\\" in text:
        raise ConfigError(
            f"{origin}: expected a folder name in printable ASCII without quotes or "
            f"backslashes, got {value!r}")
    return text


def _optional_folder(value: Any, origin: str) -> str | None:
    if isinstance(value, str) and not value.strip():
        return None
    return _folder(value, origin)


def _name(value: Any, origin: str) -> str:
    return " ".join(_text(value, origin).split())


def is_loopback(host: str) -> bool:
    """True for "localhost" and loopback IP addresses (127.0.0.0/8, ::1)."""
    if host.lower() in ("localhost", "localhost.localdomain"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def _one_of(s: _Settings, table: str, names: tuple[str, ...]) -> str | None:
    """Which of these keys is set (at most one may be; one set in the environment replaces
    those in the file, as the environment wins everywhere)."""
    given = [n for n in names if s.has(f"{table}.{n}")]
    from_env = [n for n in given if s.origin(f"{table}.{n}").startswith("environment")]
    given = from_env or given
    if len(given) > 1:
        where = "; ".join(s.origin(f"{table}.{n}") for n in given)
        raise ConfigError(f"{table}: give at most one of {', '.join(f'{table}.{n}' for n in names)}"
                          f" (set: {where})")
    return given[0] if given else None


def _read_secret(s: _Settings, key: str) -> Secret:
    path = s.path(key, Path())
    try:
        return Secret(path.read_text(encoding="utf-8").rstrip("\r\n"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{s.origin(key)}: cannot read {path}: {exc}") from None


def _command(value: Any, origin: str) -> tuple[str, ...]:
    """An argv: a list of strings, or a string split like a shell would (no shell runs it)."""
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        argv = tuple(value)
    elif isinstance(value, str):
        try:
            argv = tuple(shlex.split(value))
        except ValueError as exc:
            raise ConfigError(f"{origin}: cannot split the command: {exc}") from None
    else:
        raise ConfigError(f"{origin}: expected a command (a string or a list of strings)")
    if not argv or not argv[0]:
        raise ConfigError(f"{origin}: expected a command, got an empty one")
    return argv


def _password(s: _Settings, table: str) -> Secret:
    given = _one_of(s, table, ("password", "password_command", "password_file"))
    if given == "password":
        value, origin, _ = s.values[f"{table}.password"]
        if not isinstance(value, str):
            raise ConfigError(f"{origin}: expected a string")
        return Secret(value)
    if given == "password_file":
        return _read_secret(s, f"{table}.password_file")
    return Secret("")


def _auth(value: Any, origin: str) -> Auth:
    text = _text(value, origin).lower()
    try:
        return Auth(text)
    except ValueError:
        raise ConfigError(f"{origin}: expected password, xoauth2 or oauthbearer, "
                          f"got {value!r}") from None


def _sign_in(s: _Settings, table: str) -> SignIn:
    auth = s.get(f"{table}.auth", _auth, Auth.PASSWORD)
    password_command = _NO_COMMAND
    if _one_of(s, table, ("password", "password_command", "password_file")) == (
            "password_command"):
        password_command = s.get(f"{table}.password_command", _command, _NO_COMMAND)
    oauth_keys = [k for k in _SIGN_IN[2:] if s.has(f"{table}.{k}")]
    if auth is Auth.PASSWORD:
        if oauth_keys:
            raise ConfigError(f"{s.origin(f'{table}.{oauth_keys[0]}')}: is for OAuth2 sign-in; "
                              f"set {table}.auth = \"xoauth2\" (or \"oauthbearer\")")
        return SignIn(password_command=password_command)
    if given := _one_of(s, table, ("password", "password_command", "password_file")):
        raise ConfigError(f"{s.origin(f'{table}.{given}')}: {table}.auth = {auth.value} signs in "
                          "with an access token, not a password; leave the password out")
    way = _one_of(s, table, ("token_command", "token_url"))
    if way is None:
        raise ConfigError(f"{table}.auth = {auth.value} needs {table}.token_command (a helper "
                          f"that prints an access token) or {table}.token_url, "
                          f"{table}.client_id and {table}.refresh_token_file")
    if way == "token_command":
        extra = [k for k in oauth_keys if k != "token_command"]
        if extra:
            raise ConfigError(f"{s.origin(f'{table}.{extra[0]}')}: not used with "
                              f"{table}.token_command (the helper refreshes the token itself)")
        return SignIn(auth=auth, oauth=OAuthConfig(
            token_command=s.get(f"{table}.token_command", _command, _NO_COMMAND)))
    client_id = s.get(f"{table}.client_id", _text, "")
    if not client_id or not s.has(f"{table}.refresh_token_file"):
        raise ConfigError(f"{s.origin(f'{table}.token_url')}: needs {table}.client_id and "
                          f"{table}.refresh_token_file too")
    url = s.get(f"{table}.token_url", _text, "")
    if not url.startswith("https://") and not (
            url.startswith("http://") and is_loopback(url[7:].split("/")[0].rsplit(":", 1)[0])):
        raise ConfigError(f"{s.origin(f'{table}.token_url')}: expected an https:// URL "
                          f"(http:// only to a loopback host), got {url!r}")
    secret_way = _one_of(s, table,
                         ("client_secret", "client_secret_command", "client_secret_file"))
    client_secret = NO_PASSWORD  # public clients (Microsoft's "mobile and desktop") have none
    if secret_way == "client_secret":
        client_secret = Secret(s.get(f"{table}.client_secret", _text, ""))
    elif secret_way == "client_secret_file":
        client_secret = _read_secret(s, f"{table}.client_secret_file")
    return SignIn(auth=auth, oauth=OAuthConfig(
        token_url=url, client_id=client_id, client_secret=client_secret,
        client_secret_command=s.get(f"{table}.client_secret_command", _command, _NO_COMMAND),
        refresh_token_file=s.path(f"{table}.refresh_token_file", Path())))


def _port_security(s: _Settings, table: str) -> tuple[str, int, Security]:
    host = s.get(f"{table}.host", _text, "")
    security = s.get(f"{table}.security", _security, Security.TLS)
    port = s.get(f"{table}.port", _integer(1, 65535), _DEFAULT_PORTS[table][security])
    if security is Security.PLAIN and not is_loopback(host):
        raise ConfigError(
            f"{s.origin(f'{table}.security')}: plain (unencrypted) {table.upper()} is only "
            f"allowed to a loopback host, and {table}.host is {host!r}; use tls or starttls")
    return host, port, security


def _imap(s: _Settings) -> ImapConfig | None:
    host = s.get("imap.host", _text, "")
    if not host:
        return None
    host, port, security = _port_security(s, "imap")
    user = s.get("imap.user", _text, "")
    if not user:
        raise ConfigError(f"imap.user ({env_name('imap.user')}) is required with imap.host")
    return ImapConfig(
        host=host,
        port=port,
        security=security,
        user=user,
        password=_password(s, "imap"),
        folder=s.get("imap.folder", _folder, "INBOX"),
        processed_folder=s.get("imap.processed_folder", _optional_folder, None),
        ca_file=s.path("imap.ca_file", Path()) if s.has("imap.ca_file") else None,
        idle_timeout=s.get("imap.idle_timeout", _seconds(1, 1740), DEFAULT_IDLE_TIMEOUT),
        sign_in=_sign_in(s, "imap"),
        claim_lease=s.get("imap.claim_lease", _seconds(2, 3600), DEFAULT_CLAIM_LEASE),
    )


def _smtp(s: _Settings) -> SmtpConfig | None:
    host = s.get("smtp.host", _text, "")
    if not host:
        return None
    host, port, security = _port_security(s, "smtp")
    user = s.get("smtp.user", _text, "") or None
    sign_in = _sign_in(s, "smtp")
    if user is None and (sign_in.oauth is not None or sign_in.password_command):
        raise ConfigError(f"smtp.user ({env_name('smtp.user')}) is required to sign in "
                          "(smtp.auth, smtp.password_command)")
    return SmtpConfig(
        host=host,
        port=port,
        security=security,
        user=user,
        password=_password(s, "smtp"),
        ca_file=s.path("smtp.ca_file", Path()) if s.has("smtp.ca_file") else None,
        timeout=s.get("smtp.timeout", _seconds(1, 3600), DEFAULT_SMTP_TIMEOUT),
        sign_in=sign_in,
        verp=s.get("smtp.verp", _flag, True),
    )


def _lmtp(s: _Settings, imap: ImapConfig | None) -> LmtpConfig | None:
    listen = s.get("lmtp.listen", _text, "")
    if not listen:
        return None
    origin = s.origin("lmtp.listen")
    settle = s.get("lmtp.settle", _seconds(0, 86400), DEFAULT_LMTP_SETTLE)
    flush = s.get("lmtp.flush", _command, _NO_COMMAND)
    quiet = s.get("lmtp.quiet", _seconds(0, 3600), DEFAULT_LMTP_QUIET)
    if imap is not None:
        raise ConfigError(f"{origin}: the service reads its mail from IMAP or takes it over "
                          "LMTP, not both; leave imap.host or lmtp.listen empty")
    if listen.startswith("unix:"):
        text = listen[len("unix:"):]
        if not text:
            raise ConfigError(f"{origin}: expected unix:PATH, got {listen!r}")
        path = Path(text).expanduser()
        if not path.is_absolute():
            path = s.values["lmtp.listen"][2] / path
        if len(os.fsencode(str(path))) > 100:
            raise ConfigError(f"{origin}: the socket path {str(path)!r} is too long for a UNIX "
                              "socket (at most 100 bytes); choose a shorter one")
        return LmtpConfig(path=path, settle=settle, flush=flush, quiet=quiet)
    host, sep, port_text = listen.rpartition(":")
    host = host.strip("[]")
    if not sep or not host:
        raise ConfigError(f"{origin}: expected unix:PATH or HOST:PORT, got {listen!r}")
    port = _integer(1, 65535)(port_text, origin)
    if not is_loopback(host):
        raise ConfigError(f"{origin}: LMTP takes mail without a login, so it listens only on a "
                          f"loopback address or a UNIX socket, and {host!r} is neither")
    return LmtpConfig(host=host, port=port, settle=settle, flush=flush, quiet=quiet)


def load_config(path: Path | None, env: Mapping[str, str]) -> Config:
    """Read the settings; raise ConfigError naming the bad key.

    `path` None reads no file (GM_CONFIG in `env`, when set, names one).
    """
    if path is None and env.get(ENV_PREFIX + "CONFIG"):
        path = Path(env[ENV_PREFIX + "CONFIG"])
    s = _Settings(path, env)
    data_dir = s.path("data_dir", DEFAULT_DATA_DIR)
    database_url = s.get("database_url", _text, "") or None
    imap = _imap(s)
    return Config(
        data_dir=data_dir,
        address=s.get("address", _address, "gm@localhost"),
        display_name=s.get("display_name", _name, "gm"),
        maildir=MaildirConfig(
            inbox=s.path("maildir.inbox", data_dir / "mail" / "inbox"),
            outbox=s.path("maildir.outbox", data_dir / "mail" / "outbox"),
        ),
        imap=imap,
        lmtp=_lmtp(s, imap),
        smtp=_smtp(s),
        database_url=database_url,
        max_message_bytes=s.get("max_message_bytes", _integer(1024, 2**31),
                                DEFAULT_MAX_MESSAGE_BYTES),
        poll_interval=s.get("poll_interval", _seconds(0.01, 86400), DEFAULT_POLL_INTERVAL),
        early_delay=s.get("early_delay", _seconds(0, 86400), DEFAULT_EARLY_DELAY),
        operator=s.get("operator", _optional_address, None),
        rate_limit=s.get("rate_limit", _integer(0, 2**31), DEFAULT_RATE_LIMIT),
        rate_window=s.get("rate_window", _seconds(1, 7 * 86400), DEFAULT_RATE_WINDOW),
        max_reply_bytes=s.get("max_reply_bytes", _integer(65536, 2**31),
                              DEFAULT_MAX_REPLY_BYTES),
        max_reply_files=s.get("max_reply_files", _integer(2, 1000), DEFAULT_MAX_REPLY_FILES),
        max_reply_answers=s.get("max_reply_answers", _integer(1, 10000),
                                DEFAULT_MAX_REPLY_ANSWERS),
        max_forming_games=s.get("max_forming_games", _integer(0, 2**31),
                                DEFAULT_MAX_FORMING_GAMES),
        variants_dir=s.path("variants_dir", Path()) if s.has("variants_dir") else None,
        max_message_seconds=s.get("max_message_seconds", _seconds(0.01, 3600),
                                  DEFAULT_MAX_MESSAGE_SECONDS),
        trusted_received_hosts=s.get("trusted_received_hosts", _host_names, ()),
        archive_dir=s.path("web.archive_dir", Path()) if s.has("web.archive_dir") else None,
    )
