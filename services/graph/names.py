"""How a name is compared: Unicode-normalised (NFKC), casefolded, inner whitespace as one
space. The `q` prefix search and the mention matcher both use this form."""

from __future__ import annotations

import re
import unicodedata

_SPACES = re.compile(r"\s+")


def name_key(name: str) -> str:
    return _SPACES.sub(" ", unicodedata.normalize("NFKC", name).casefold()).strip()


def keys_of(name: str, aliases: list[str]) -> list[str]:
    """The distinct, non-empty keys of a name and its aliases, in order."""
    seen: dict[str, None] = {}
    for value in [name, *aliases]:
        key = name_key(value)
        if key:
            seen.setdefault(key, None)
    return list(seen)
