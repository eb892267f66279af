from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.relationship_list_envelope import RelationshipListEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    entity_id: None | str | Unset = UNSET,
    type_: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_entity_id: None | str | Unset
    if isinstance(entity_id, Unset):
        json_entity_id = UNSET
    else:
        json_entity_id = entity_id
    params["entityId"] = json_entity_id

    json_type_: None | str | Unset
    if isinstance(type_, Unset):
        json_type_ = UNSET
    else:
        json_type_ = type_
    params["type"] = json_type_

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/knowledge-graph/relationships",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | RelationshipListEnvelope | None:
    if response.status_code == 200:
        response_200 = RelationshipListEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | RelationshipListEnvelope]:
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
    entity_id: None | str | Unset = UNSET,
    type_: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | RelationshipListEnvelope]:
    """List relationships

     Requires the scope knowledge-graph:read.

    List relationships.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        entity_id (None | str | Unset):
        type_ (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | RelationshipListEnvelope]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        entity_id=entity_id,
        type_=type_,
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
    entity_id: None | str | Unset = UNSET,
    type_: None | str | Unset = UNSET,
) -> ErrorEnvelope | RelationshipListEnvelope | None:
    """List relationships

     Requires the scope knowledge-graph:read.

    List relationships.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        entity_id (None | str | Unset):
        type_ (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | RelationshipListEnvelope
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        entity_id=entity_id,
        type_=type_,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    entity_id: None | str | Unset = UNSET,
    type_: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | RelationshipListEnvelope]:
    """List relationships

     Requires the scope knowledge-graph:read.

    List relationships.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        entity_id (None | str | Unset):
        type_ (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | RelationshipListEnvelope]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        entity_id=entity_id,
        type_=type_,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    entity_id: None | str | Unset = UNSET,
    type_: None | str | Unset = UNSET,
) -> ErrorEnvelope | RelationshipListEnvelope | None:
    """List relationships

     Requires the scope knowledge-graph:read.

    List relationships.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        entity_id (None | str | Unset):
        type_ (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | RelationshipListEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            entity_id=entity_id,
            type_=type_,
        )
    ).parsed
