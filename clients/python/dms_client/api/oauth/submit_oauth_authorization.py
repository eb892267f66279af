from http import HTTPStatus
from typing import Any, cast

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.submit_oauth_authorization_code_challenge_method import (
    SubmitOauthAuthorizationCodeChallengeMethod,
)
from ...models.submit_oauth_authorization_response_type import (
    SubmitOauthAuthorizationResponseType,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    response_type: SubmitOauthAuthorizationResponseType,
    client_id: str,
    redirect_uri: str,
    scope: str,
    code_challenge: str,
    code_challenge_method: SubmitOauthAuthorizationCodeChallengeMethod,
    state: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_response_type = response_type.value
    params["response_type"] = json_response_type

    params["client_id"] = client_id

    params["redirect_uri"] = redirect_uri

    params["scope"] = scope

    params["code_challenge"] = code_challenge

    json_code_challenge_method = code_challenge_method.value
    params["code_challenge_method"] = json_code_challenge_method

    params["state"] = state

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/oauth/authorize",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | ErrorEnvelope | str | None:
    if response.status_code == 200:
        response_200 = response.text
        return response_200

    if response.status_code == 302:
        response_302 = cast(Any, None)
        return response_302

    if response.status_code == 400:
        response_400 = response.text
        return response_400

    if response.status_code == 401:
        response_401 = ErrorEnvelope.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = response.text
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
) -> Response[Any | ErrorEnvelope | str]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    response_type: SubmitOauthAuthorizationResponseType,
    client_id: str,
    redirect_uri: str,
    scope: str,
    code_challenge: str,
    code_challenge_method: SubmitOauthAuthorizationCodeChallengeMethod,
    state: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | str]:
    """Authorization page: sign in, consent, back to the app with a code

     Authorization page: sign in, consent, back to the app with a code.

    Args:
        response_type (SubmitOauthAuthorizationResponseType):
        client_id (str):
        redirect_uri (str):
        scope (str): Space-separated scopes.
        code_challenge (str):
        code_challenge_method (SubmitOauthAuthorizationCodeChallengeMethod):
        state (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | str]
    """

    kwargs = _get_kwargs(
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        scope=scope,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
        state=state,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    response_type: SubmitOauthAuthorizationResponseType,
    client_id: str,
    redirect_uri: str,
    scope: str,
    code_challenge: str,
    code_challenge_method: SubmitOauthAuthorizationCodeChallengeMethod,
    state: str | Unset = UNSET,
) -> Any | ErrorEnvelope | str | None:
    """Authorization page: sign in, consent, back to the app with a code

     Authorization page: sign in, consent, back to the app with a code.

    Args:
        response_type (SubmitOauthAuthorizationResponseType):
        client_id (str):
        redirect_uri (str):
        scope (str): Space-separated scopes.
        code_challenge (str):
        code_challenge_method (SubmitOauthAuthorizationCodeChallengeMethod):
        state (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | str
    """

    return sync_detailed(
        client=client,
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        scope=scope,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
        state=state,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    response_type: SubmitOauthAuthorizationResponseType,
    client_id: str,
    redirect_uri: str,
    scope: str,
    code_challenge: str,
    code_challenge_method: SubmitOauthAuthorizationCodeChallengeMethod,
    state: str | Unset = UNSET,
) -> Response[Any | ErrorEnvelope | str]:
    """Authorization page: sign in, consent, back to the app with a code

     Authorization page: sign in, consent, back to the app with a code.

    Args:
        response_type (SubmitOauthAuthorizationResponseType):
        client_id (str):
        redirect_uri (str):
        scope (str): Space-separated scopes.
        code_challenge (str):
        code_challenge_method (SubmitOauthAuthorizationCodeChallengeMethod):
        state (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | ErrorEnvelope | str]
    """

    kwargs = _get_kwargs(
        response_type=response_type,
        client_id=client_id,
        redirect_uri=redirect_uri,
        scope=scope,
        code_challenge=code_challenge,
        code_challenge_method=code_challenge_method,
        state=state,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    response_type: SubmitOauthAuthorizationResponseType,
    client_id: str,
    redirect_uri: str,
    scope: str,
    code_challenge: str,
    code_challenge_method: SubmitOauthAuthorizationCodeChallengeMethod,
    state: str | Unset = UNSET,
) -> Any | ErrorEnvelope | str | None:
    """Authorization page: sign in, consent, back to the app with a code

     Authorization page: sign in, consent, back to the app with a code.

    Args:
        response_type (SubmitOauthAuthorizationResponseType):
        client_id (str):
        redirect_uri (str):
        scope (str): Space-separated scopes.
        code_challenge (str):
        code_challenge_method (SubmitOauthAuthorizationCodeChallengeMethod):
        state (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | ErrorEnvelope | str
    """

    return (
        await asyncio_detailed(
            client=client,
            response_type=response_type,
            client_id=client_id,
            redirect_uri=redirect_uri,
            scope=scope,
            code_challenge=code_challenge,
            code_challenge_method=code_challenge_method,
            state=state,
        )
    ).parsed
