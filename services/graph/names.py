"""How a name is compared: Unicode-normalised (NFKC), casefolded, inner whitespace as one
space (models.graph.name_key). The `q` prefix search, the mention matcher and search's
entity signal all use this form."""

from __future__ import annotations

from models.graph import name_key


def keys_of(name: str, aliases: list[str]) -> list[str]:
    """The distinct, non-empty keys of a name and its aliases, in order."""
    seen: dict[str, None] = {}
    for value in [name, *aliases]:
        key = name_key(value)
        if key:
            seen.setdefault(key, None)
    return list(seen)


__all__ = ["keys_of", "name_key"]
