"""A real HTTP receiver for webhook tests: a threaded http.server on 127.0.0.1 that records
every request and answers from a script of responses (status, headers, body), optionally
holding a request until the test releases it; with `keep_alive`, it speaks HTTP/1.1 and
keeps connections open (each request records the client's address, so a test sees reuse)."""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.helpers import POLL


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    peer: tuple[str, int] = ("", 0)


@dataclass
class Answer:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b"ok"
    hold: threading.Event | None = None  # wait for it before answering


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 128  # a drain opens SEND_THREADS connections at once


class Receiver:
    def __init__(self, keep_alive: bool = False) -> None:
        self.requests: list[Received] = []
        self.script: deque[Answer] = deque()
        self.default = Answer()
        self.arrived = threading.Event()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                receiver.requests.append(
                    Received(
                        self.path,
                        {k.lower(): v for k, v in self.headers.items()},
                        body,
                        self.client_address,
                    )
                )
                receiver.arrived.set()
                answer = receiver.script.popleft() if receiver.script else receiver.default
                if answer.hold is not None:
                    answer.hold.wait(10)
                self.send_response(answer.status)
                for name, value in answer.headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            def log_message(self, *args) -> None:  # quiet
                pass

        self.server = _Server(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(POLL,), daemon=True)

    @property
    def port(self) -> int:
        return self.server.server_address[1]

    def url(self, path: str = "/hook", host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def answer(self, *answers: Answer) -> None:
        self.script.extend(answers)

    def start(self) -> Receiver:
        self.thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
