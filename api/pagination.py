"""The keyset position of lists ordered by id alone. The `limit` and `cursor` query
parameters are services/core/wire.py's `PageQuery`, the cursor services/core/cursors.py's,
the keyset query services/core/paging.py's."""

from __future__ import annotations

from errors import DomainError
from services.core.cursors import decode_cursor


def id_position(cursor: str | None, binding: str) -> list | None:
    """The keyset position of a list ordered by id alone (webhooks, notifications, …): None
    for the first page, else the id the last page ended at."""
    if cursor is None:
        return None
    position = decode_cursor(cursor, binding)
    if len(position) != 1 or not isinstance(position[0], str):
        raise DomainError(400, "INVALID_CURSOR", "This cursor is not valid.", "cursor")
    return position
