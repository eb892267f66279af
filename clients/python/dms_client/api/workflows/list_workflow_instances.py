import datetime
from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.list_workflow_instances_state_type_0 import (
    ListWorkflowInstancesStateType0,
)
from ...models.workflow_instance_list_envelope import WorkflowInstanceListEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    state: ListWorkflowInstancesStateType0 | None | Unset = UNSET,
    document_id: None | str | Unset = UNSET,
    approver: Literal["me"] | None | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_state: None | str | Unset
    if isinstance(state, Unset):
        json_state = UNSET
    elif isinstance(state, ListWorkflowInstancesStateType0):
        json_state = state.value
    else:
        json_state = state
    params["state"] = json_state

    json_document_id: None | str | Unset
    if isinstance(document_id, Unset):
        json_document_id = UNSET
    else:
        json_document_id = document_id
    params["documentId"] = json_document_id

    json_approver: Literal["me"] | None | Unset
    if isinstance(approver, Unset):
        json_approver = UNSET
    else:
        json_approver = approver
    params["approver"] = json_approver

    json_created_after: None | str | Unset
    if isinstance(created_after, Unset):
        json_created_after = UNSET
    elif isinstance(created_after, datetime.datetime):
        json_created_after = created_after.isoformat()
    else:
        json_created_after = created_after
    params["createdAfter"] = json_created_after

    json_created_before: None | str | Unset
    if isinstance(created_before, Unset):
        json_created_before = UNSET
    elif isinstance(created_before, datetime.datetime):
        json_created_before = created_before.isoformat()
    else:
        json_created_before = created_before
    params["createdBefore"] = json_created_before

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/workflows/instances",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | WorkflowInstanceListEnvelope | None:
    if response.status_code == 200:
        response_200 = WorkflowInstanceListEnvelope.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = ErrorEnvelope.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = ErrorEnvelope.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = ErrorEnvelope.from_dict(response.json())

        return response_404

    if response.status_code == 414:
        response_414 = ErrorEnvelope.from_dict(response.json())

        return response_414

    if response.status_code == 429:
        response_429 = ErrorEnvelope.from_dict(response.json())

        return response_429

    if response.status_code == 431:
        response_431 = ErrorEnvelope.from_dict(response.json())

        return response_431

    if response.status_code == 500:
        response_500 = ErrorEnvelope.from_dict(response.json())

        return response_500

    if response.status_code == 503:
        response_503 = ErrorEnvelope.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ErrorEnvelope | WorkflowInstanceListEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    state: ListWorkflowInstancesStateType0 | None | Unset = UNSET,
    document_id: None | str | Unset = UNSET,
    approver: Literal["me"] | None | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
) -> Response[ErrorEnvelope | WorkflowInstanceListEnvelope]:
    """List workflow instances

     Requires the scope workflows:read.

    Filter by state, document, creation time, or `approver=me` (what waits for the caller,
    who must be a person).

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        state (ListWorkflowInstancesStateType0 | None | Unset):
        document_id (None | str | Unset):
        approver (Literal['me'] | None | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WorkflowInstanceListEnvelope]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        state=state,
        document_id=document_id,
        approver=approver,
        created_after=created_after,
        created_before=created_before,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    state: ListWorkflowInstancesStateType0 | None | Unset = UNSET,
    document_id: None | str | Unset = UNSET,
    approver: Literal["me"] | None | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
) -> ErrorEnvelope | WorkflowInstanceListEnvelope | None:
    """List workflow instances

     Requires the scope workflows:read.

    Filter by state, document, creation time, or `approver=me` (what waits for the caller,
    who must be a person).

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        state (ListWorkflowInstancesStateType0 | None | Unset):
        document_id (None | str | Unset):
        approver (Literal['me'] | None | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WorkflowInstanceListEnvelope
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        state=state,
        document_id=document_id,
        approver=approver,
        created_after=created_after,
        created_before=created_before,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    state: ListWorkflowInstancesStateType0 | None | Unset = UNSET,
    document_id: None | str | Unset = UNSET,
    approver: Literal["me"] | None | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
) -> Response[ErrorEnvelope | WorkflowInstanceListEnvelope]:
    """List workflow instances

     Requires the scope workflows:read.

    Filter by state, document, creation time, or `approver=me` (what waits for the caller,
    who must be a person).

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        state (ListWorkflowInstancesStateType0 | None | Unset):
        document_id (None | str | Unset):
        approver (Literal['me'] | None | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | WorkflowInstanceListEnvelope]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        state=state,
        document_id=document_id,
        approver=approver,
        created_after=created_after,
        created_before=created_before,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    state: ListWorkflowInstancesStateType0 | None | Unset = UNSET,
    document_id: None | str | Unset = UNSET,
    approver: Literal["me"] | None | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
) -> ErrorEnvelope | WorkflowInstanceListEnvelope | None:
    """List workflow instances

     Requires the scope workflows:read.

    Filter by state, document, creation time, or `approver=me` (what waits for the caller,
    who must be a person).

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        state (ListWorkflowInstancesStateType0 | None | Unset):
        document_id (None | str | Unset):
        approver (Literal['me'] | None | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | WorkflowInstanceListEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            state=state,
            document_id=document_id,
            approver=approver,
            created_after=created_after,
            created_before=created_before,
        )
    ).parsed
