from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.custom_field_envelope import CustomFieldEnvelope
from ...models.custom_field_patch import CustomFieldPatch
from ...models.error_envelope import ErrorEnvelope
from ...types import Response


def _get_kwargs(
    field_id: str,
    *,
    body: CustomFieldPatch,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/custom-fields/{field_id}".format(
            field_id=quote(str(field_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CustomFieldEnvelope | ErrorEnvelope | None:
    if response.status_code == 200:
        response_200 = CustomFieldEnvelope.from_dict(response.json())

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
) -> Response[CustomFieldEnvelope | ErrorEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    field_id: str,
    *,
    client: AuthenticatedClient,
    body: CustomFieldPatch,
) -> Response[CustomFieldEnvelope | ErrorEnvelope]:
    """Update custom field

     Requires the scope documents:write.

    Rename (values stay), change a select's options, or change the data type while no
    document has a value (409 CONFLICT otherwise).

    Args:
        field_id (str):
        body (CustomFieldPatch): PATCH /custom-fields/{id}: only the fields sent change. A rename
            keeps every value; a
            select's options sent replace its options (options left out lose their values); the
            data type changes only while no document has a value (409 CONFLICT otherwise).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomFieldEnvelope | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        field_id=field_id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    field_id: str,
    *,
    client: AuthenticatedClient,
    body: CustomFieldPatch,
) -> CustomFieldEnvelope | ErrorEnvelope | None:
    """Update custom field

     Requires the scope documents:write.

    Rename (values stay), change a select's options, or change the data type while no
    document has a value (409 CONFLICT otherwise).

    Args:
        field_id (str):
        body (CustomFieldPatch): PATCH /custom-fields/{id}: only the fields sent change. A rename
            keeps every value; a
            select's options sent replace its options (options left out lose their values); the
            data type changes only while no document has a value (409 CONFLICT otherwise).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomFieldEnvelope | ErrorEnvelope
    """

    return sync_detailed(
        field_id=field_id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    field_id: str,
    *,
    client: AuthenticatedClient,
    body: CustomFieldPatch,
) -> Response[CustomFieldEnvelope | ErrorEnvelope]:
    """Update custom field

     Requires the scope documents:write.

    Rename (values stay), change a select's options, or change the data type while no
    document has a value (409 CONFLICT otherwise).

    Args:
        field_id (str):
        body (CustomFieldPatch): PATCH /custom-fields/{id}: only the fields sent change. A rename
            keeps every value; a
            select's options sent replace its options (options left out lose their values); the
            data type changes only while no document has a value (409 CONFLICT otherwise).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CustomFieldEnvelope | ErrorEnvelope]
    """

    kwargs = _get_kwargs(
        field_id=field_id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    field_id: str,
    *,
    client: AuthenticatedClient,
    body: CustomFieldPatch,
) -> CustomFieldEnvelope | ErrorEnvelope | None:
    """Update custom field

     Requires the scope documents:write.

    Rename (values stay), change a select's options, or change the data type while no
    document has a value (409 CONFLICT otherwise).

    Args:
        field_id (str):
        body (CustomFieldPatch): PATCH /custom-fields/{id}: only the fields sent change. A rename
            keeps every value; a
            select's options sent replace its options (options left out lose their values); the
            data type changes only while no document has a value (409 CONFLICT otherwise).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CustomFieldEnvelope | ErrorEnvelope
    """

    return (
        await asyncio_detailed(
            field_id=field_id,
            client=client,
            body=body,
        )
    ).parsed
