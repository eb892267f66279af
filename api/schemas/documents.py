"""Request and response models of the documents resource (camelCase on the wire)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    field_validator,
)
from pydantic.alias_generators import to_camel

from api.pagination import PageQuery
from api.schemas.fields import absent, reject_null
from api.validation import field_error, parse_json_text
from errors import FieldError, validation_failed
from models.documents import DocumentStatus
from services.documents.documents import MAX_METADATA_KEYS
from services.documents.filters import METADATA_KEY_RE, DocumentFilters

MAX_TAGS = 50
# Integers the database stores as 32-bit (version numbers): larger ones are a 400, not a 500.
MAX_INT32 = 2**31 - 1

Tag = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=100)]
MetadataKey = Annotated[str, StringConstraints(pattern=f"^{METADATA_KEY_RE.pattern}$")]
MetadataValue = Annotated[str, StringConstraints(max_length=1000)]
Title = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=500)]


class _Camel(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True)


def _unique_tags(tags: list[str]) -> list[str]:
    if len(tags) > MAX_TAGS:
        raise ValueError(f"at most {MAX_TAGS} tags")
    return list(dict.fromkeys(tags))


class UploadForm(_Camel):
    """The form fields of an upload beside the `file` part."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    title: Title | None = None
    tags: list[Tag] = Field(default_factory=list)
    metadata: dict[MetadataKey, MetadataValue] = Field(default_factory=dict)

    _tags = field_validator("tags")(_unique_tags)

    @field_validator("metadata")
    @classmethod
    def _few_keys(cls, value: dict[str, str]) -> dict[str, str]:
        if len(value) > MAX_METADATA_KEYS:
            raise ValueError(f"at most {MAX_METADATA_KEYS} metadata keys")
        return value

    @classmethod
    def from_form(cls, fields: dict[str, list[str]]) -> UploadForm:
        """Validate multipart fields: tags repeat or comma-separate, metadata is a JSON object."""
        errors: list[FieldError] = []
        raw: dict[str, Any] = {}
        for name, values in fields.items():
            if name == "tags":
                raw["tags"] = [t for v in values for t in v.split(",") if t.strip()]
            elif len(values) > 1:
                errors.append(FieldError("VALIDATION_ERROR", f"{name}: given twice.", name))
            elif name == "metadata":
                try:
                    raw["metadata"] = parse_json_text(values[0]) if values[0].strip() else {}
                except ValueError as exc:
                    errors.append(FieldError("VALIDATION_ERROR", f"metadata: {exc}", "metadata"))
            else:
                raw[name] = values[0]
        if not errors:
            try:
                return cls.model_validate(raw)
            except ValidationError as exc:
                errors = [field_error(e, "VALIDATION_ERROR", form=True) for e in exc.errors()]
        raise validation_failed(errors)


class DocumentPatch(_Camel):
    """PATCH body: every field optional. `metadata` merges (RFC 7386): null removes a key."""

    model_config = ConfigDict(extra="forbid", alias_generator=to_camel, populate_by_name=True)

    # Optional but never null (null is refused below): the schema must not say "nullable".
    title: Title = absent()
    tags: list[Tag] = absent()
    metadata: dict[MetadataKey, MetadataValue | None] = absent()
    status: DocumentStatus = absent()

    @field_validator("tags")
    @classmethod
    def _tags(cls, value: list[str] | None) -> list[str] | None:
        return None if value is None else _unique_tags(value)

    @field_validator("title", "tags", "status", "metadata", mode="before")
    @classmethod
    def _not_null(cls, value: Any) -> Any:
        return reject_null(value)


class DocumentListQuery(DocumentFilters, PageQuery):
    """GET /documents: the filters of CONTRACT §4 plus limit and cursor."""


class ContentQuery(_Camel):
    model_config = ConfigDict(extra="forbid")

    version: int | None = Field(
        None, ge=1, le=MAX_INT32, description="Serve this version (default: current)."
    )


class VersionListQuery(PageQuery):
    """GET /documents/{id}/versions: newest first."""
