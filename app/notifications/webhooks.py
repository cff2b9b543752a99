"""Webhooks: a JSON POST per event to the URL an account gave, signed.

The body carries the event's line both as ``content`` (what Discord reads) and ``text``
(what Slack reads), so one URL of either works as it is. ``X-Parlour-Signature:
sha256=<hex>`` is the HMAC-SHA256 of the raw body keyed by the account's webhook secret:
a receiver that computes it the same way knows the POST came from this server.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Any

import aiohttp
import orjson

SIGNATURE_HEADER = "X-Parlour-Signature"


def new_secret() -> str:
    return secrets.token_hex(24)


def body(*, line: str, event: str, room_id: str | None, url: str | None) -> bytes:
    payload: dict[str, Any] = {
        "content": line,
        "text": line,
        "event": event,
        "room_id": room_id,
        "url": url,
    }
    return orjson.dumps(payload)


def signature(secret: str, raw: bytes) -> str:
    return "sha256=" + hmac.new(secret.encode(), raw, hashlib.sha256).hexdigest()


class WebhookFailed(Exception):
    """The receiver did not take the POST; the message says how (for the settings page)."""


async def post(
    client: aiohttp.ClientSession, *, url: str, secret: str, raw: bytes, timeout: float
) -> None:
    """POST ``raw`` to ``url``, signed; WebhookFailed unless the receiver answers 2xx.
    Redirects are not followed: the URL checked is the URL sent to."""
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "Parlour-Webhook/1",
        SIGNATURE_HEADER: signature(secret, raw),
    }
    try:
        async with client.post(
            url,
            data=raw,
            headers=headers,
            allow_redirects=False,
            timeout=aiohttp.ClientTimeout(total=timeout),
        ) as response:
            if not 200 <= response.status < 300:
                raise WebhookFailed(f"the receiver answered HTTP {response.status}")
    except TimeoutError:
        raise WebhookFailed(f"the receiver did not answer within {timeout:g} s") from None
    except aiohttp.ClientError as error:
        raise WebhookFailed(f"could not reach the receiver ({type(error).__name__})") from None
