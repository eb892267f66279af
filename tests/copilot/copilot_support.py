"""Helpers of the copilot tests: reading answers, and a fake OpenAI-compatible chat server."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from tests.helpers import POLL


def answer_of(response) -> dict:
    return response.get_json()["data"]["messages"][-1]


def cited(response) -> list[str]:
    return [c["documentId"] for c in answer_of(response)["citations"]]


class FakeLLM:
    """An OpenAI-compatible /v1/chat/completions on 127.0.0.1: answers `reply`, after
    `delay` seconds, and keeps every request body it received."""

    def __init__(self) -> None:
        self.reply = "I found nothing."
        self.delay = 0.0
        self.status = 200
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                fake.requests.append(json.loads(self.rfile.read(length)))
                fake.headers.append(dict(self.headers))
                fake.paths.append(self.path)
                time.sleep(fake.delay)
                body = json.dumps(
                    {"choices": [{"message": {"role": "assistant", "content": fake.reply}}]}
                ).encode()
                try:
                    self.send_response(fake.status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                except OSError:
                    pass  # the client gave up (the timeout test)

            def log_message(self, *args):
                pass

        self.paths: list[str] = []
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        threading.Thread(target=self.server.serve_forever, args=(POLL,), daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
