import datetime
from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error_envelope import ErrorEnvelope
from ...models.get_analytics_usage_granularity import GetAnalyticsUsageGranularity
from ...models.get_analytics_usage_metric import GetAnalyticsUsageMetric
from ...models.usage_point_list_envelope import UsagePointListEnvelope
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    metric: GetAnalyticsUsageMetric,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    granularity: GetAnalyticsUsageGranularity
    | Unset = GetAnalyticsUsageGranularity.DAY,
    key_id: None | str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_metric = metric.value
    params["metric"] = json_metric

    json_from_: None | str | Unset
    if isinstance(from_, Unset):
        json_from_ = UNSET
    elif isinstance(from_, datetime.datetime):
        json_from_ = from_.isoformat()
    else:
        json_from_ = from_
    params["from"] = json_from_

    json_to: None | str | Unset
    if isinstance(to, Unset):
        json_to = UNSET
    elif isinstance(to, datetime.datetime):
        json_to = to.isoformat()
    else:
        json_to = to
    params["to"] = json_to

    json_granularity: str | Unset = UNSET
    if not isinstance(granularity, Unset):
        json_granularity = granularity.value

    params["granularity"] = json_granularity

    json_key_id: None | str | Unset
    if isinstance(key_id, Unset):
        json_key_id = UNSET
    else:
        json_key_id = key_id
    params["keyId"] = json_key_id

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/analytics/usage",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ErrorEnvelope | UsagePointListEnvelope | None:
    if response.status_code == 200:
        response_200 = UsagePointListEnvelope.from_dict(response.json())

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
) -> Response[ErrorEnvelope | UsagePointListEnvelope]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    metric: GetAnalyticsUsageMetric,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    granularity: GetAnalyticsUsageGranularity
    | Unset = GetAnalyticsUsageGranularity.DAY,
    key_id: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | UsagePointListEnvelope]:
    """Get analytics usage

     Requires the scope analytics:read.

    One point per hour or day of [from, to), UTC; periods with nothing are 0. Gauges
    (storageBytes, documents) give the level at the end of each period.

    Args:
        metric (GetAnalyticsUsageMetric):
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        granularity (GetAnalyticsUsageGranularity | Unset):  Default:
            GetAnalyticsUsageGranularity.DAY.
        key_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | UsagePointListEnvelope]
    """

    kwargs = _get_kwargs(
        metric=metric,
        from_=from_,
        to=to,
        granularity=granularity,
        key_id=key_id,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    metric: GetAnalyticsUsageMetric,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    granularity: GetAnalyticsUsageGranularity
    | Unset = GetAnalyticsUsageGranularity.DAY,
    key_id: None | str | Unset = UNSET,
) -> ErrorEnvelope | UsagePointListEnvelope | None:
    """Get analytics usage

     Requires the scope analytics:read.

    One point per hour or day of [from, to), UTC; periods with nothing are 0. Gauges
    (storageBytes, documents) give the level at the end of each period.

    Args:
        metric (GetAnalyticsUsageMetric):
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        granularity (GetAnalyticsUsageGranularity | Unset):  Default:
            GetAnalyticsUsageGranularity.DAY.
        key_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | UsagePointListEnvelope
    """

    return sync_detailed(
        client=client,
        metric=metric,
        from_=from_,
        to=to,
        granularity=granularity,
        key_id=key_id,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    metric: GetAnalyticsUsageMetric,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    granularity: GetAnalyticsUsageGranularity
    | Unset = GetAnalyticsUsageGranularity.DAY,
    key_id: None | str | Unset = UNSET,
) -> Response[ErrorEnvelope | UsagePointListEnvelope]:
    """Get analytics usage

     Requires the scope analytics:read.

    One point per hour or day of [from, to), UTC; periods with nothing are 0. Gauges
    (storageBytes, documents) give the level at the end of each period.

    Args:
        metric (GetAnalyticsUsageMetric):
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        granularity (GetAnalyticsUsageGranularity | Unset):  Default:
            GetAnalyticsUsageGranularity.DAY.
        key_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ErrorEnvelope | UsagePointListEnvelope]
    """

    kwargs = _get_kwargs(
        metric=metric,
        from_=from_,
        to=to,
        granularity=granularity,
        key_id=key_id,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    metric: GetAnalyticsUsageMetric,
    from_: datetime.datetime | None | Unset = UNSET,
    to: datetime.datetime | None | Unset = UNSET,
    granularity: GetAnalyticsUsageGranularity
    | Unset = GetAnalyticsUsageGranularity.DAY,
    key_id: None | str | Unset = UNSET,
) -> ErrorEnvelope | UsagePointListEnvelope | None:
    """Get analytics usage

     Requires the scope analytics:read.

    One point per hour or day of [from, to), UTC; periods with nothing are 0. Gauges
    (storageBytes, documents) give the level at the end of each period.

    Args:
        metric (GetAnalyticsUsageMetric):
        from_ (datetime.datetime | None | Unset):
        to (datetime.datetime | None | Unset):
        granularity (GetAnalyticsUsageGranularity | Unset):  Default:
            GetAnalyticsUsageGranularity.DAY.
        key_id (None | str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ErrorEnvelope | UsagePointListEnvelope
    """

    return (
        await asyncio_detailed(
            client=client,
            metric=metric,
            from_=from_,
            to=to,
            granularity=granularity,
            key_id=key_id,
        )
    ).parsed
