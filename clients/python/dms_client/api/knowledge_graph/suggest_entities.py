from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.suggestions_envelope import SuggestionsEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    document_id: str,
    limit: int | Unset = 50,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["documentId"] = document_id

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/knowledge-graph/entities/suggest",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | SuggestionsEnvelope | None:
    if response.status_code == 200:
        response_200 = SuggestionsEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | SuggestionsEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    document_id: str,
    limit: int | Unset = 50,
) -> Response[ErrorEnvelope | SuggestionsEnvelope]:
    """Suggest entities

     Requires the scope knowledge-graph:read and documents:read.

    Propose entities from a document's extracted text: capitalised multi-word names
    ("Acme Widget Corporation", "Maria Lopez") that are not yet a name or alias of an entity,
    most frequent first. Creates nothing (create the ones you want with POST
    …/entities). 409 CONFLICT while the document has no extracted text.

    Args:
        document_id (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SuggestionsEnvelope]
    """

    kwargs = _get_kwargs(
        document_id=document_id,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    document_id: str,
    limit: int | Unset = 50,
) -> ErrorEnvelope | SuggestionsEnvelope | None:
    """Suggest entities

     Requires the scope knowledge-graph:read and documents:read.

    Propose entities from a document's extracted text: capitalised multi-word names
    ("Acme Widget Corporation", "Maria Lopez") that are not yet a name or alias of an entity,
    most frequent first. Creates nothing (create the ones you want with POST
    …/entities). 409 CONFLICT while the document has no extracted text.

    Args:
        document_id (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SuggestionsEnvelope
    """

    return sync_detailed(
        client=client,
        document_id=document_id,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    document_id: str,
    limit: int | Unset = 50,
) -> Response[ErrorEnvelope | SuggestionsEnvelope]:
    """Suggest entities

     Requires the scope knowledge-graph:read and documents:read.

    Propose entities from a document's extracted text: capitalised multi-word names
    ("Acme Widget Corporation", "Maria Lopez") that are not yet a name or alias of an entity,
    most frequent first. Creates nothing (create the ones you want with POST
    …/entities). 409 CONFLICT while the document has no extracted text.

    Args:
        document_id (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SuggestionsEnvelope]
    """

    kwargs = _get_kwargs(
        document_id=document_id,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    document_id: str,
    limit: int | Unset = 50,
) -> ErrorEnvelope | SuggestionsEnvelope | None:
    """Suggest entities

     Requires the scope knowledge-graph:read and documents:read.

    Propose entities from a document's extracted text: capitalised multi-word names
    ("Acme Widget Corporation", "Maria Lopez") that are not yet a name or alias of an entity,
    most frequent first. Creates nothing (create the ones you want with POST
    …/entities). 409 CONFLICT while the document has no extracted text.

    Args:
        document_id (str):
        limit (int | Unset):  Default: 50.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SuggestionsEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            document_id=document_id,
            limit=limit,
        )
    ).parsed
