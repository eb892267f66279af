"""Libraries only some requests or jobs need, loaded on their first use: the one sanctioned
way to defer an import (the architecture test forbids imports inside functions and accepts
`lazy.module` calls naming libraries only).

`webauthn = lazy.module("webauthn")` at a module's top binds a stand-in; reading any of its
attributes imports the library (once, under the import lock) and answers from it. So a web
worker that never sees a passkey, a push provider or S3 never holds their libraries, and
starts faster (docs/operations.md, "Memory and workers"). An `except lib.Error:` clause reads the
attribute only when an exception reaches it. tests/core/test_wsgi.py checks which
libraries `import wsgi` leaves out."""

from __future__ import annotations

import importlib
from types import ModuleType


class LazyModule:
    """A module that is imported when one of its attributes is first read."""

    __slots__ = ("_module", "_name")

    def __init__(self, name: str) -> None:
        self._name = name
        self._module: ModuleType | None = None

    def __getattr__(self, attribute: str):
        module = self._module
        if module is None:
            module = self._module = importlib.import_module(self._name)
        return getattr(module, attribute)

    def __repr__(self) -> str:
        state = "loaded" if self._module is not None else "not loaded yet"
        return f"<lazy module {self._name!r}, {state}>"


def module(name: str) -> LazyModule:
    """The library module `name`, imported on first use."""
    return LazyModule(name)
