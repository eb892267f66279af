"""What every wire shape shares: RFC 3339 timestamps (UTC, to the second; CONTRACT §1) and a
base model that reads ORM rows by attribute and writes camelCase, so one pydantic model both
produces a resource's JSON and describes it in the OpenAPI document."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import AliasGenerator, BaseModel, ConfigDict, PlainSerializer, WithJsonSchema
from pydantic.alias_generators import to_camel

import clock

Timestamp = Annotated[
    datetime,
    PlainSerializer(clock.rfc3339, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]


class Wire(BaseModel):
    model_config = ConfigDict(
        from_attributes=True, alias_generator=AliasGenerator(serialization_alias=to_camel)
    )
