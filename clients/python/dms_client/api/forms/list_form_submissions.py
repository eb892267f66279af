import datetime
from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.submission_list_envelope import SubmissionListEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    form_id: str,
    *,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    submitted_by: None | str | Unset = UNSET,
    form_version: int | None | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["limit"] = limit

    json_cursor: None | str | Unset
    if isinstance(cursor, Unset):
        json_cursor = UNSET
    else:
        json_cursor = cursor
    params["cursor"] = json_cursor

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

    json_submitted_by: None | str | Unset
    if isinstance(submitted_by, Unset):
        json_submitted_by = UNSET
    else:
        json_submitted_by = submitted_by
    params["submittedBy"] = json_submitted_by

    json_form_version: int | None | Unset
    if isinstance(form_version, Unset):
        json_form_version = UNSET
    else:
        json_form_version = form_version
    params["formVersion"] = json_form_version

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/forms/{form_id}/submissions".format(
            form_id=quote(str(form_id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | SubmissionListEnvelope | None:
    if response.status_code == 200:
        response_200 = SubmissionListEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | SubmissionListEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    form_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    submitted_by: None | str | Unset = UNSET,
    form_version: int | None | Unset = UNSET,
) -> Response[ErrorEnvelope | SubmissionListEnvelope]:
    """List form submissions

     Requires the scope forms:read.

    List form submissions.

    Args:
        form_id (str):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        submitted_by (None | str | Unset):
        form_version (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SubmissionListEnvelope]
    """

    kwargs = _get_kwargs(
        form_id=form_id,
        limit=limit,
        cursor=cursor,
        created_after=created_after,
        created_before=created_before,
        submitted_by=submitted_by,
        form_version=form_version,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    form_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    submitted_by: None | str | Unset = UNSET,
    form_version: int | None | Unset = UNSET,
) -> ErrorEnvelope | SubmissionListEnvelope | None:
    """List form submissions

     Requires the scope forms:read.

    List form submissions.

    Args:
        form_id (str):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        submitted_by (None | str | Unset):
        form_version (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SubmissionListEnvelope
    """

    return sync_detailed(
        form_id=form_id,
        client=client,
        limit=limit,
        cursor=cursor,
        created_after=created_after,
        created_before=created_before,
        submitted_by=submitted_by,
        form_version=form_version,
    ).parsed


async def asyncio_detailed(
    form_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    submitted_by: None | str | Unset = UNSET,
    form_version: int | None | Unset = UNSET,
) -> Response[ErrorEnvelope | SubmissionListEnvelope]:
    """List form submissions

     Requires the scope forms:read.

    List form submissions.

    Args:
        form_id (str):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        submitted_by (None | str | Unset):
        form_version (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | SubmissionListEnvelope]
    """

    kwargs = _get_kwargs(
        form_id=form_id,
        limit=limit,
        cursor=cursor,
        created_after=created_after,
        created_before=created_before,
        submitted_by=submitted_by,
        form_version=form_version,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    form_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: None | str | Unset = UNSET,
    created_after: datetime.datetime | None | Unset = UNSET,
    created_before: datetime.datetime | None | Unset = UNSET,
    submitted_by: None | str | Unset = UNSET,
    form_version: int | None | Unset = UNSET,
) -> ErrorEnvelope | SubmissionListEnvelope | None:
    """List form submissions

     Requires the scope forms:read.

    List form submissions.

    Args:
        form_id (str):
        limit (int | Unset):  Default: 50.
        cursor (None | str | Unset):
        created_after (datetime.datetime | None | Unset):
        created_before (datetime.datetime | None | Unset):
        submitted_by (None | str | Unset):
        form_version (int | None | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | SubmissionListEnvelope
    """

    return (
        await asyncio_detailed(
            form_id=form_id,
            client=client,
            limit=limit,
            cursor=cursor,
            created_after=created_after,
            created_before=created_before,
            submitted_by=submitted_by,
            form_version=form_version,
        )
    ).parsed
