"""Who holds a claim on outbound mail: a process, named by its host, PID namespace, PID and
start time, so that another sender can tell when the holder is provably gone.

A sender writes its name (`this_process().key`) beside every message it claims. A holder is
gone when it ran on this host, in this PID namespace, and its PID is free, or a zombie, or
belongs to a process started at another time (the PID was reused). A holder on another host or
in another PID namespace cannot be checked from here: its claims keep their lease, which a live
sender renews every few seconds (gm.store.outbound.renew_claims), so they are due again soon
after it stopped renewing. Conversely a holder that is provably alive (checkable, and not gone)
keeps its claims even if its lease ran out (it may be blocked, not dead). Start times come from
/proc (Linux); where there is none, a holder whose PID runs is taken as alive.
"""

from __future__ import annotations

import os
import socket
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")


@dataclass(frozen=True)
class Holder:
    """A process that may hold claims: `started` is its start time in clock ticks since boot
    ("" when unknown), `namespace` its PID namespace ("" when unknown)."""

    host: str
    namespace: str
    pid: int
    started: str

    @property
    def key(self) -> str:
        """The name stored beside the claims (at most 255 characters)."""
        return f"{self.host[:200]} {self.namespace or '-'} {self.pid} {self.started or '-'}"

    @classmethod
    def parse(cls, key: str) -> Holder | None:
        """The holder a stored name names; None when it is not one."""
        parts = key.rsplit(" ", 3)
        if len(parts) != 4 or not parts[2].isdigit():
            return None
        host, namespace, pid, started = parts
        return cls(host, "" if namespace == "-" else namespace, int(pid),
                   "" if started == "-" else started)


_this: Holder | None = None


def this_process() -> Holder:
    """This process as a holder (named anew in a forked child)."""
    global _this
    pid = os.getpid()
    if _this is None or _this.pid != pid:
        _this = Holder(socket.gethostname(), _namespace(), pid, _start_time(pid) or "")
    return _this


def is_alive(key: str, *, here: Holder | None = None) -> bool:
    """Whether the holder named `key` is provably alive: checkable from here and not gone."""
    here = here or this_process()
    return _checkable(key, here) and not is_gone(key, here=here)


def _checkable(key: str, here: Holder) -> bool:
    holder = Holder.parse(key)
    return holder is not None and (holder.host, holder.namespace) == (here.host, here.namespace)


def is_gone(key: str, *, here: Holder | None = None) -> bool:
    """Whether the holder named `key` is provably gone (see the module's docstring); `here`
    is this process (default `this_process()`)."""
    here = here or this_process()
    holder = Holder.parse(key)
    if holder is None or not _checkable(key, here):
        return False  # not checkable from here: its lease decides
    if holder.pid == here.pid:
        return holder.started != here.started  # this PID was another process's before
    started = _start_time(holder.pid)
    if started is None:
        return not _runs(holder.pid)
    return started == "Z" or (bool(holder.started) and started != holder.started)


def _namespace() -> str:
    try:
        return os.readlink(PROC / "self" / "ns" / "pid")
    except OSError:
        return ""


def _start_time(pid: int) -> str | None:
    """Process `pid`'s start time ("Z" for a zombie), read from /proc; None when it cannot
    be read (no such process, or no /proc)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        return None
    fields = stat.rsplit(")", 1)[-1].split()  # after the command name, which may hold spaces
    if len(fields) < 20:
        return None
    return "Z" if fields[0] in ("Z", "X") else fields[19]  # state; starttime is field 22


def _runs(pid: int) -> bool:
    """Whether a process `pid` exists (where /proc tells nothing)."""
    if PROC.is_dir():
        return False  # /proc/<pid>/stat could not be read: no such process
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists, someone else's
    return True
