import datetime
from http import HTTPStatus
from typing import Any, Literal

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_status import DocumentStatus
from ...models.error_envelope import ErrorEnvelope
from ...models.search_hit_list_envelope import SearchHitListEnvelope
from ...models.source_type import SourceType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    status: list[DocumentStatus] | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    source: list[SourceType] | Unset = UNSET,
    content_type: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    updated_before: datetime.datetime | None | Unset = UNSET,
    title: None | str | Unset = UNSET,
    metadata: list[str] | Unset = UNSET,
    sort: Literal["relevance"] | Unset = "relevance",
    q: str,
    recency: bool | Unset = True,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

    json_status: list[str] | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = []
        for status_item_data in status:
            status_item = status_item_data.value
            json_status.append(status_item)

    params["status"] = json_status

    json_tag: list[str] | Unset = UNSET
    if not isinstance(tag, Unset):
        json_tag = tag

    params["tag"] = json_tag

    json_source: list[str] | Unset = UNSET
    if not isinstance(source, Unset):
        json_source = []
        for source_item_data in source:
            source_item = source_item_data.value
            json_source.append(source_item)

    params["source"] = json_source

    json_content_type: None | str | Unset
    if isinstance(content_type, Unset):
        json_content_type = UNSET
    else:
        json_content_type = content_type
    params["contentType"] = json_content_type

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

    json_updated_after: None | str | Unset
    if isinstance(updated_after, Unset):
        json_updated_after = UNSET
    elif isinstance(updated_after, datetime.datetime):
        json_updated_after = updated_after.isoformat()
    else:
        json_updated_after = updated_after
    params["updatedAfter"] = json_updated_after

    json_updated_before: None | str | Unset
    if isinstance(updated_before, Unset):
        json_updated_before = UNSET
    elif isinstance(updated_before, datetime.datetime):
        json_updated_before = updated_before.isoformat()
    else:
        json_updated_before = updated_before
    params["updatedBefore"] = json_updated_before

    json_title: None | str | Unset
    if isinstance(title, Unset):
        json_title = UNSET
    else:
        json_title = title
    params["title"] = json_title

    json_metadata: list[str] | Unset = UNSET
    if not isinstance(metadata, Unset):
        json_metadata = metadata

    params["metadata"] = json_metadata

    params["sort"] = sort

    params["q"] = q

    params["recency"] = recency

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | SearchHitListEnvelope | None:
    if response.status_code == 200:
        response_200 = SearchHitListEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | SearchHitListEnvelope]:
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
    status: list[DocumentStatus] | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    source: list[SourceType] | Unset = UNSET,
    content_type: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    updated_before: datetime.datetime | None | Unset = UNSET,
    title: None | str | Unset = UNSET,
    metadata: list[str] | Unset = UNSET,
    sort: Literal["relevance"] | Unset = "relevance",
    q: str,
    recency: bool | Unset = True,
) -> Response[ErrorEnvelope | SearchHitListEnvelope]:
    """Search documents

     Requires the scope documents:read.

    Search documents.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        status (list[DocumentStatus] | Unset):
        tag (list[str] | Unset):
        source (list[SourceType] | Unset):
        content_type (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        updated_after (datetime.datetime | None | Unset):
        updated_before (datetime.datetime | None | Unset):
        title (None | str | Unset):
        metadata (list[str] | Unset):
        sort (Literal['relevance'] | Unset):  Default: 'relevance'.
        q (str):
        recency (bool | Unset):  Default: True.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SearchHitListEnvelope]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        status=status,
        tag=tag,
        source=source,
        content_type=content_type,
        created_after=created_after,
        created_before=created_before,
        updated_after=updated_after,
        updated_before=updated_before,
        title=title,
        metadata=metadata,
        sort=sort,
        q=q,
        recency=recency,
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
    status: list[DocumentStatus] | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    source: list[SourceType] | Unset = UNSET,
    content_type: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    updated_before: datetime.datetime | None | Unset = UNSET,
    title: None | str | Unset = UNSET,
    metadata: list[str] | Unset = UNSET,
    sort: Literal["relevance"] | Unset = "relevance",
    q: str,
    recency: bool | Unset = True,
) -> ErrorEnvelope | SearchHitListEnvelope | None:
    """Search documents

     Requires the scope documents:read.

    Search documents.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        status (list[DocumentStatus] | Unset):
        tag (list[str] | Unset):
        source (list[SourceType] | Unset):
        content_type (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        updated_after (datetime.datetime | None | Unset):
        updated_before (datetime.datetime | None | Unset):
        title (None | str | Unset):
        metadata (list[str] | Unset):
        sort (Literal['relevance'] | Unset):  Default: 'relevance'.
        q (str):
        recency (bool | Unset):  Default: True.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SearchHitListEnvelope
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        status=status,
        tag=tag,
        source=source,
        content_type=content_type,
        created_after=created_after,
        created_before=created_before,
        updated_after=updated_after,
        updated_before=updated_before,
        title=title,
        metadata=metadata,
        sort=sort,
        q=q,
        recency=recency,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    status: list[DocumentStatus] | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    source: list[SourceType] | Unset = UNSET,
    content_type: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    updated_before: datetime.datetime | None | Unset = UNSET,
    title: None | str | Unset = UNSET,
    metadata: list[str] | Unset = UNSET,
    sort: Literal["relevance"] | Unset = "relevance",
    q: str,
    recency: bool | Unset = True,
) -> Response[ErrorEnvelope | SearchHitListEnvelope]:
    """Search documents

     Requires the scope documents:read.

    Search documents.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        status (list[DocumentStatus] | Unset):
        tag (list[str] | Unset):
        source (list[SourceType] | Unset):
        content_type (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        updated_after (datetime.datetime | None | Unset):
        updated_before (datetime.datetime | None | Unset):
        title (None | str | Unset):
        metadata (list[str] | Unset):
        sort (Literal['relevance'] | Unset):  Default: 'relevance'.
        q (str):
        recency (bool | Unset):  Default: True.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SearchHitListEnvelope]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        status=status,
        tag=tag,
        source=source,
        content_type=content_type,
        created_after=created_after,
        created_before=created_before,
        updated_after=updated_after,
        updated_before=updated_before,
        title=title,
        metadata=metadata,
        sort=sort,
        q=q,
        recency=recency,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    status: list[DocumentStatus] | Unset = UNSET,
    tag: list[str] | Unset = UNSET,
    source: list[SourceType] | Unset = UNSET,
    content_type: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    updated_after: datetime.datetime | None | Unset = UNSET,
    updated_before: datetime.datetime | None | Unset = UNSET,
    title: None | str | Unset = UNSET,
    metadata: list[str] | Unset = UNSET,
    sort: Literal["relevance"] | Unset = "relevance",
    q: str,
    recency: bool | Unset = True,
) -> ErrorEnvelope | SearchHitListEnvelope | None:
    """Search documents

     Requires the scope documents:read.

    Search documents.

    Args:
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        status (list[DocumentStatus] | Unset):
        tag (list[str] | Unset):
        source (list[SourceType] | Unset):
        content_type (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        updated_after (datetime.datetime | None | Unset):
        updated_before (datetime.datetime | None | Unset):
        title (None | str | Unset):
        metadata (list[str] | Unset):
        sort (Literal['relevance'] | Unset):  Default: 'relevance'.
        q (str):
        recency (bool | Unset):  Default: True.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SearchHitListEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            status=status,
            tag=tag,
            source=source,
            content_type=content_type,
            created_after=created_after,
            created_before=created_before,
            updated_after=updated_after,
            updated_before=updated_before,
            title=title,
            metadata=metadata,
            sort=sort,
            q=q,
            recency=recency,
        )
    ).parsed
