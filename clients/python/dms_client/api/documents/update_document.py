from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.document_envelope import DocumentEnvelope
from ...models.document_patch import DocumentPatch
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    document_id: str,
    *,
    body: DocumentPatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/documents/{document_id}".format(
            document_id=quote(str(document_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DocumentEnvelope | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = DocumentEnvelope.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = ErrorEnvelope.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = ErrorEnvelope.from_dict(response.json())

        return response_413

    if response.status_code == 414:
        response_414 = ErrorEnvelope.from_dict(response.json())

        return response_414

    if response.status_code == 415:
        response_415 = ErrorEnvelope.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = ErrorEnvelope.from_dict(response.json())

        return response_422

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
) -> Response[DocumentEnvelope | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    document_id: str,
    *,
    client: AuthenticatedClient,
    body: DocumentPatch,
) -> Response[DocumentEnvelope | ErrorEnvelope]:
    """Update document

     Requires the scope documents:write.

    Change the title, tags, metadata (merged; null removes a key), status, and custom
    field values (`customFields`: field id -> value, null removes it).

    Args:
        document_id (str):
        body (DocumentPatch): PATCH body: every field optional. `metadata` merges (RFC 7386): null
            removes a key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentEnvelope | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        document_id=document_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    document_id: str,
    *,
    client: AuthenticatedClient,
    body: DocumentPatch,
) -> DocumentEnvelope | ErrorEnvelope | None:
    """Update document

     Requires the scope documents:write.

    Change the title, tags, metadata (merged; null removes a key), status, and custom
    field values (`customFields`: field id -> value, null removes it).

    Args:
        document_id (str):
        body (DocumentPatch): PATCH body: every field optional. `metadata` merges (RFC 7386): null
            removes a key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentEnvelope | ErrorEnvelope
    """

    return sync_detailed(
        document_id=document_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    document_id: str,
    *,
    client: AuthenticatedClient,
    body: DocumentPatch,
) -> Response[DocumentEnvelope | ErrorEnvelope]:
    """Update document

     Requires the scope documents:write.

    Change the title, tags, metadata (merged; null removes a key), status, and custom
    field values (`customFields`: field id -> value, null removes it).

    Args:
        document_id (str):
        body (DocumentPatch): PATCH body: every field optional. `metadata` merges (RFC 7386): null
            removes a key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DocumentEnvelope | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        document_id=document_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    document_id: str,
    *,
    client: AuthenticatedClient,
    body: DocumentPatch,
) -> DocumentEnvelope | ErrorEnvelope | None:
    """Update document

     Requires the scope documents:write.

    Change the title, tags, metadata (merged; null removes a key), status, and custom
    field values (`customFields`: field id -> value, null removes it).

    Args:
        document_id (str):
        body (DocumentPatch): PATCH body: every field optional. `metadata` merges (RFC 7386): null
            removes a key.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DocumentEnvelope | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            document_id=document_id,
            client=client,
            body=body,
        )
    ).parsed
