"""Server-sent events of an answer (docs/copilot.md, "Streaming").

The answer is stored before the stream starts (one transaction), so a client that drops the
connection still finds it in the conversation. The stream is: `delta` events, each
`{"text": "…"}`, whose texts joined are the answer's content; then one `message` event,
`{"message": <the stored answer>, "conversation": <the conversation>}`; then `done`. Each
event's data is one line of JSON (newlines are escaped by JSON), so no document text can end
an event early or forge another."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

# Deltas end after a space or a newline, about this many characters each.
DELTA_CHARS = 48
_TOKEN = re.compile(r"\s*\S+\s*|\s+")


def event(name: str, data: Any) -> str:
    return f"event: {name}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n"


def deltas(content: str) -> list[str]:
    """The answer cut into pieces that join back to it exactly."""
    pieces: list[str] = []
    current = ""
    for token in _TOKEN.findall(content):
        current += token
        if len(current) >= DELTA_CHARS:
            pieces.append(current)
            current = ""
    if current:
        pieces.append(current)
    return pieces


def events(content: str, conversation: dict[str, Any], message: dict[str, Any]) -> Iterator[str]:
    for piece in deltas(content):
        yield event("delta", {"text": piece})
    yield event("message", {"message": message, "conversation": conversation})
    yield event("done", {})
