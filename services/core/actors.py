"""Who is doing something: the identity every service call records in the audit log."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Actor:
    type: str  # "user" | "key" | "support" | "system"
    id: str | None = None
    label: str | None = None
    ip: str | None = None
    user_agent: str | None = None

    @classmethod
    def system(cls, label: str = "system") -> Actor:
        return cls("system", None, label)

    @classmethod
    def cli(cls) -> Actor:
        return cls("system", None, "operator CLI")

    @property
    def ref(self) -> str:
        """Short form stored on rows (created_by, revoked_by)."""
        return self.id or f"{self.type}:{self.label or '-'}"
