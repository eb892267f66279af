"""Local fake push providers speaking the real protocols, for tests/push: APNs over HTTP/2
(hypercorn serving an ASGI app over h2c with prior knowledge, as httpx with http1=False
speaks it), and plain HTTP/1.1 servers for FCM, its OAuth token endpoint and a Web Push
service. Each records what it received and answers from a script, optionally holding an
answer to play a provider that hangs."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from hypercorn.asyncio import serve
from hypercorn.config import Config

from tests.helpers import POLL


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]
    body: bytes
    http_version: str = "1.1"


@dataclass
class Reply:
    status: int = 200
    body: bytes = b""
    headers: dict[str, str] = field(default_factory=dict)
    hold: float = 0.0  # seconds to wait before answering, or until the fake stops (a hang)


Handler = Callable[[Received], Reply | None]


class _Scripted:
    """Recorded requests, a queue of scripted replies, and a default."""

    def __init__(self) -> None:
        self.requests: list[Received] = []
        self.script: deque[Reply] = deque()
        self.default = Reply()
        self.handler: Handler | None = None  # may answer instead (token endpoint, checks)
        self.release = threading.Event()

    def answer(self, *replies: Reply) -> None:
        self.script.extend(replies)

    def reply_to(self, received: Received) -> Reply:
        self.requests.append(received)
        if self.handler is not None:
            handled = self.handler(received)
            if handled is not None:
                return handled
        return self.script.popleft() if self.script else self.default


class FakeHttp(_Scripted):
    """A threaded HTTP/1.1 server on 127.0.0.1 (FCM, the token endpoint, Web Push)."""

    def __init__(self) -> None:
        super().__init__()
        fake = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                headers = {k.lower(): v for k, v in self.headers.items()}
                reply = fake.reply_to(Received("POST", self.path, headers, body))
                if reply.hold:
                    fake.release.wait(reply.hold)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(reply.body)))
                self.end_headers()
                self.wfile.write(reply.body)

            def log_message(self, *args) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), RequestHandler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, args=(POLL,), daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> FakeHttp:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()


class FakeApns(_Scripted):
    """APNs' HTTP/2 API on 127.0.0.1 over h2c, served by hypercorn in a thread of its own."""

    def __init__(self) -> None:
        super().__init__()
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.loop = asyncio.new_event_loop()
        self.stopping: asyncio.Event | None = None
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    async def app(self, scope, receive, send) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
        received = Received(
            scope["method"], scope["path"], headers, body, scope.get("http_version", "")
        )
        reply = self.reply_to(received)
        if reply.hold:  # until the hold is over or the fake stops
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), reply.hold)
        out = [(k.encode(), v.encode()) for k, v in reply.headers.items()]
        await send({"type": "http.response.start", "status": reply.status, "headers": out})
        await send({"type": "http.response.body", "body": reply.body})

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        config = Config()
        config.bind = [f"127.0.0.1:{self.port}"]
        config.accesslog = None
        config.errorlog = None
        # Stopping waits this long for open connections (a client's idle keep-alive one
        # included) before closing them; hypercorn's default is 3 s.
        config.graceful_timeout = 0.2
        self.stopping = asyncio.Event()
        self.loop.call_soon(self.ready.set)
        self.loop.run_until_complete(serve(self.app, config, shutdown_trigger=self.stopping.wait))

    def start(self) -> FakeApns:
        self.thread.start()
        self.ready.wait(5)
        for _ in range(100):  # until hypercorn listens
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.1).close()
                break
            except OSError:
                threading.Event().wait(0.02)
        return self

    def stop(self) -> None:
        if self.stopping is not None:
            self.loop.call_soon_threadsafe(self.stopping.set)
        self.thread.join(5)
        self.loop.close()
