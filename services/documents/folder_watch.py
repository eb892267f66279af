"""Watching a folder (`flask documents import --watch`): inotify (watchdog) says which files
appeared or changed, a file is imported once its size and modification time have stayed the
same for `settle` seconds (a scanner or a copy still writing it is left alone), and a full
re-scan runs at the start, every `rescan_every` seconds and whenever the watch itself dies.

The watched folder may vanish (removed, unmounted) and come back (recreated, mounted again):
its identity (device and inode) is checked on every tick; when it changes or disappears the
watch is dropped, the folder waited for with a growing pause, and watched and scanned anew."""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer

from services.documents.folder_import import FolderImport, is_ignored, scan, tenant_folders

log = logging.getLogger(__name__)

BACKOFF_START = 1.0
BACKOFF_MAX = 30.0


class _Events(FileSystemEventHandler):
    """Collects the paths that inotify names (created, written, closed, moved in)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.paths: set[str] = set()

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.is_directory:
            return
        target = getattr(event, "dest_path", "") or event.src_path
        if event.event_type in ("created", "modified", "closed", "moved"):
            with self.lock:
                self.paths.add(os.fsdecode(target))

    def drain(self) -> set[str]:
        with self.lock:
            paths, self.paths = self.paths, set()
        return paths


@dataclass
class _Seen:
    size: int
    mtime_ns: int
    since: float  # when this size and time were first seen


class Router:
    """Which import a file belongs to: one tenant's for the whole folder, or with
    `per_tenant` the tenant named by the file's first folder (`DIR/<tenant-slug>/…`)."""

    def __init__(
        self,
        root: Path,
        make_import: Callable[[str | None, Path], FolderImport | None],
        *,
        recursive: bool,
        per_tenant: bool,
    ) -> None:
        self.root = root
        self.make_import = make_import
        self.recursive = recursive
        self.per_tenant = per_tenant
        self.imports: dict[str, FolderImport | None] = {}

    def _import_for(self, name: str | None, root: Path) -> FolderImport | None:
        # A folder whose tenant does not exist (yet) is asked about again each time: a tenant
        # created later is served without a restart.
        key = name or ""
        if self.imports.get(key) is None:
            self.imports[key] = self.make_import(name, root)
        return self.imports[key]

    def route(self, path: Path) -> FolderImport | None:
        try:
            parts = path.relative_to(self.root).parts
        except ValueError:
            return None
        if any(is_ignored(part) for part in parts):
            return None
        if self.per_tenant:
            if len(parts) < 2 or (len(parts) > 2 and not self.recursive):
                return None
            return self._import_for(parts[0], self.root / parts[0])
        if len(parts) > 1 and not self.recursive:
            return None
        return self._import_for(None, self.root)

    def scan(self) -> list[Path]:
        if not self.per_tenant:
            return list(scan(self.root, self.recursive))
        return [p for _, folder in tenant_folders(self.root) for p in scan(folder, self.recursive)]

    def flush(self) -> None:
        for folder_import in self.imports.values():
            if folder_import is not None:
                folder_import.flush()


def _identity(root: Path) -> tuple[int, int] | None:
    try:
        info = os.stat(root)
    except OSError:
        return None
    return (info.st_dev, info.st_ino) if os.path.isdir(root) else None


class Watcher:
    def __init__(
        self,
        router: Router,
        *,
        settle: float = 2.0,
        tick: float = 0.25,
        rescan_every: float = 300.0,
        stop: threading.Event | None = None,
    ) -> None:
        self.router = router
        self.root = router.root
        self.settle = settle
        self.tick = tick
        self.rescan_every = rescan_every
        self.stop = stop or threading.Event()
        self.pending: dict[Path, _Seen] = {}
        # Files handled already, by their size and time: a re-scan does not read them again
        # (when `--after keep` leaves them in place).
        self.handled: dict[Path, tuple[int, int]] = {}

    def run(self) -> None:
        """Watch until `stop` is set."""
        pause = BACKOFF_START
        while not self.stop.is_set():
            identity = _identity(self.root)
            if identity is None:
                log.warning("watched folder missing, retrying", extra={"folder": str(self.root)})
                self.stop.wait(pause)
                pause = min(pause * 2, BACKOFF_MAX)
                continue
            pause = BACKOFF_START
            self._watch(identity)
        self.router.flush()

    def _watch(self, identity: tuple[int, int]) -> None:
        events = _Events()
        observer = Observer()
        try:
            observer.schedule(events, str(self.root), recursive=True)
            observer.start()
        except OSError:
            log.warning("cannot watch the folder, retrying", extra={"folder": str(self.root)})
            self.stop.wait(BACKOFF_START)
            return
        try:
            log.info("watching", extra={"folder": str(self.root)})
            self._note(self.router.scan())
            scanned = time.monotonic()
            while not self.stop.wait(self.tick):
                if _identity(self.root) != identity or not observer.is_alive():
                    log.warning("watch lost, re-scanning", extra={"folder": str(self.root)})
                    return
                self._note(Path(p) for p in events.drain())
                if time.monotonic() - scanned >= self.rescan_every:
                    present = self.router.scan()
                    kept = set(present)  # forget what is gone: the record stays small
                    self.handled = {p: s for p, s in self.handled.items() if p in kept}
                    self._note(present)
                    scanned = time.monotonic()
                self._import_settled()
        finally:
            observer.stop()
            observer.join(timeout=5)

    def _note(self, paths) -> None:
        now = time.monotonic()
        for path in paths:
            if path in self.pending:
                continue
            seen = _stat(path)
            if seen is None or self.handled.get(path) == (seen.size, seen.mtime_ns):
                continue
            self.pending[path] = _Seen(seen.size, seen.mtime_ns, now)

    def _import_settled(self) -> None:
        now = time.monotonic()
        ready = []
        for path, seen in list(self.pending.items()):
            current = _stat(path)
            if current is None:
                del self.pending[path]
            elif (current.size, current.mtime_ns) != (seen.size, seen.mtime_ns):
                self.pending[path] = _Seen(current.size, current.mtime_ns, now)
            elif now - seen.since >= self.settle:
                ready.append((path, seen))
        for path, seen in ready:
            del self.pending[path]
            folder_import = self.router.route(path)
            if folder_import is not None:  # else tried again at the next re-scan
                folder_import.add(path)
                self.handled[path] = (seen.size, seen.mtime_ns)
        if ready:
            self.router.flush()


def _stat(path: Path) -> _Seen | None:
    try:
        info = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return _Seen(info.st_size, info.st_mtime_ns, 0.0)
