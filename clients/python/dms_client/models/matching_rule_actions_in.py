from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.matching_rule_actions_in_custom_fields import (
        MatchingRuleActionsInCustomFields,
    )
    from ..models.matching_rule_actions_in_setmetadata import (
        MatchingRuleActionsInSetmetadata,
    )


T = TypeVar("T", bound="MatchingRuleActionsIn")


@_attrs_define
class MatchingRuleActionsIn:
    """What a rule does to a document it matches.

    Attributes:
        add_tags (list[str] | Unset):
        set_custom_fields (MatchingRuleActionsInCustomFields | Unset): {"cfd_…": value | null}, checked by the field's
            type.
        set_metadata (MatchingRuleActionsInSetmetadata | Unset): Merged; null removes.
        start_workflow (None | str | Unset): A workflow definition (wfd_…) of the tenant, started on the document.
    """

    add_tags: list[str] | Unset = UNSET
    set_custom_fields: MatchingRuleActionsInCustomFields | Unset = UNSET
    set_metadata: MatchingRuleActionsInSetmetadata | Unset = UNSET
    start_workflow: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        add_tags: list[str] | Unset = UNSET
        if not isinstance(self.add_tags, Unset):
            add_tags = self.add_tags

        set_custom_fields: dict[str, Any] | Unset = UNSET
        if not isinstance(self.set_custom_fields, Unset):
            set_custom_fields = self.set_custom_fields.to_dict()

        set_metadata: dict[str, Any] | Unset = UNSET
        if not isinstance(self.set_metadata, Unset):
            set_metadata = self.set_metadata.to_dict()

        start_workflow: None | str | Unset
        if isinstance(self.start_workflow, Unset):
            start_workflow = UNSET
        else:
            start_workflow = self.start_workflow

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if add_tags is not UNSET:
            field_dict["addTags"] = add_tags
        if set_custom_fields is not UNSET:
            field_dict["setCustomFields"] = set_custom_fields
        if set_metadata is not UNSET:
            field_dict["setMetadata"] = set_metadata
        if start_workflow is not UNSET:
            field_dict["startWorkflow"] = start_workflow

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_rule_actions_in_custom_fields import (
            MatchingRuleActionsInCustomFields,
        )
        from ..models.matching_rule_actions_in_setmetadata import (
            MatchingRuleActionsInSetmetadata,
        )

        d = dict(src_dict)
        add_tags = cast(list[str], d.pop("addTags", UNSET))

        _set_custom_fields = d.pop("setCustomFields", UNSET)
        set_custom_fields: MatchingRuleActionsInCustomFields | Unset
        if isinstance(_set_custom_fields, Unset):
            set_custom_fields = UNSET
        else:
            set_custom_fields = MatchingRuleActionsInCustomFields.from_dict(
                _set_custom_fields
            )

        _set_metadata = d.pop("setMetadata", UNSET)
        set_metadata: MatchingRuleActionsInSetmetadata | Unset
        if isinstance(_set_metadata, Unset):
            set_metadata = UNSET
        else:
            set_metadata = MatchingRuleActionsInSetmetadata.from_dict(_set_metadata)

        def _parse_start_workflow(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        start_workflow = _parse_start_workflow(d.pop("startWorkflow", UNSET))

        matching_rule_actions_in = cls(
            add_tags=add_tags,
            set_custom_fields=set_custom_fields,
            set_metadata=set_metadata,
            start_workflow=start_workflow,
        )

        return matching_rule_actions_in
