import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_list_envelope import DocumentListEnvelope
from ...models.document_status import DocumentStatus
from ...models.error_envelope import ErrorEnvelope
from ...models.list_documents_sort import ListDocumentsSort
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
    sort: ListDocumentsSort | Unset = ListDocumentsSort.VALUE_1,
    custom_field_query: None | str | Unset = UNSET,
    saved_view: None | str | Unset = UNSET,
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

    json_sort: str | Unset = UNSET
    if not isinstance(sort, Unset):
        json_sort = sort.value

    params["sort"] = json_sort

    json_custom_field_query: None | str | Unset
    if isinstance(custom_field_query, Unset):
        json_custom_field_query = UNSET
    else:
        json_custom_field_query = custom_field_query
    params["customFieldQuery"] = json_custom_field_query

    json_saved_view: None | str | Unset
    if isinstance(saved_view, Unset):
        json_saved_view = UNSET
    else:
        json_saved_view = saved_view
    params["savedView"] = json_saved_view

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/documents",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DocumentListEnvelope | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = DocumentListEnvelope.from_dict(response.json())

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
) -> Response[DocumentListEnvelope | ErrorEnvelope]:
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
    sort: ListDocumentsSort | Unset = ListDocumentsSort.VALUE_1,
    custom_field_query: None | str | Unset = UNSET,
    saved_view: None | str | Unset = UNSET,
) -> Response[DocumentListEnvelope | ErrorEnvelope]:
    """List documents

     Requires the scope documents:read.

    List documents.

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
        sort (ListDocumentsSort | Unset):  Default: ListDocumentsSort.VALUE_1.
        custom_field_query (None | str | Unset):
        saved_view (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentListEnvelope | ErrorEnvelope]
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
        custom_field_query=custom_field_query,
        saved_view=saved_view,
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
    sort: ListDocumentsSort | Unset = ListDocumentsSort.VALUE_1,
    custom_field_query: None | str | Unset = UNSET,
    saved_view: None | str | Unset = UNSET,
) -> DocumentListEnvelope | ErrorEnvelope | None:
    """List documents

     Requires the scope documents:read.

    List documents.

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
        sort (ListDocumentsSort | Unset):  Default: ListDocumentsSort.VALUE_1.
        custom_field_query (None | str | Unset):
        saved_view (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentListEnvelope | ErrorEnvelope
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
        custom_field_query=custom_field_query,
        saved_view=saved_view,
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
    sort: ListDocumentsSort | Unset = ListDocumentsSort.VALUE_1,
    custom_field_query: None | str | Unset = UNSET,
    saved_view: None | str | Unset = UNSET,
) -> Response[DocumentListEnvelope | ErrorEnvelope]:
    """List documents

     Requires the scope documents:read.

    List documents.

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
        sort (ListDocumentsSort | Unset):  Default: ListDocumentsSort.VALUE_1.
        custom_field_query (None | str | Unset):
        saved_view (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentListEnvelope | ErrorEnvelope]
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
        custom_field_query=custom_field_query,
        saved_view=saved_view,
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
    sort: ListDocumentsSort | Unset = ListDocumentsSort.VALUE_1,
    custom_field_query: None | str | Unset = UNSET,
    saved_view: None | str | Unset = UNSET,
) -> DocumentListEnvelope | ErrorEnvelope | None:
    """List documents

     Requires the scope documents:read.

    List documents.

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
        sort (ListDocumentsSort | Unset):  Default: ListDocumentsSort.VALUE_1.
        custom_field_query (None | str | Unset):
        saved_view (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentListEnvelope | ErrorEnvelope
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
            custom_field_query=custom_field_query,
            saved_view=saved_view,
        )
    ).parsed
