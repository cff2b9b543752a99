"""Web Push: the server's VAPID keys and sending one notification to one subscription
(pywebpush encrypts the payload to the browser's keys, aes128gcm, and signs the request).

The VAPID private key comes from VAPID_PRIVATE_KEY, else from DATA_DIR/vapid_private_key.pem,
generated there once (created exclusively, so processes sharing DATA_DIR agree on one key).
Browsers subscribe with the public key; a new key would orphan every subscription.
"""

from __future__ import annotations

import base64
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import orjson
from cryptography.hazmat.primitives import serialization
from py_vapid import Vapid
from pywebpush import WebPushException, webpush_async

from app.config import Settings

KEY_FILE = "vapid_private_key.pem"
# Seconds a push service keeps a message for a browser that is offline.
TTL = 24 * 3600


@dataclass(frozen=True)
class Subscription:
    endpoint: str
    p256dh: str
    auth: str


class PushGone(Exception):
    """The push service says the subscription no longer exists (404 or 410)."""


class PushFailed(Exception):
    """The push service did not take the message; try again later."""


def load_vapid(settings: Settings) -> Vapid:
    """The server's VAPID key: from the settings, or the one generated into DATA_DIR."""
    if settings.vapid_private_key:
        key = settings.vapid_private_key.strip()
        if key.startswith("-----BEGIN"):
            return Vapid.from_pem(key.encode())
        return Vapid.from_string(private_key=key)
    path = settings.data_dir / KEY_FILE
    if not path.exists():
        _generate(path)
    return Vapid.from_file(str(path))


def _generate(path: Path) -> None:
    """A new key written whole under a temporary name, then linked into place: of
    processes starting at once, one key wins and nobody reads a half-written file."""
    vapid = Vapid()
    vapid.generate_keys()
    path.parent.mkdir(parents=True, exist_ok=True)
    spare = path.with_name(f"{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    spare.write_bytes(vapid.private_pem())
    spare.chmod(0o600)
    try:
        os.link(spare, path)
    except FileExistsError:
        pass  # another process was first: its key is the one
    finally:
        spare.unlink()


def public_key(vapid: Vapid) -> str:
    """The application server key browsers subscribe with: the uncompressed P-256 point in
    base64url, unpadded."""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def payload(*, title: str, body: str, url: str) -> str:
    """What the service worker (static/sw.js) shows."""
    return orjson.dumps({"title": title, "body": body, "url": url}).decode()


async def send(
    client: aiohttp.ClientSession,
    subscription: Subscription,
    data: str,
    *,
    vapid: Vapid,
    subject: str,
    timeout: float,
) -> None:
    """Deliver ``data`` to the subscription's push service; PushGone or PushFailed."""
    keys = {"p256dh": subscription.p256dh, "auth": subscription.auth}
    info: dict[str, str | bytes | dict[str, str | bytes]] = {
        "endpoint": subscription.endpoint,
        "keys": dict(keys),
    }
    try:
        await webpush_async(
            info,
            data=data,
            vapid_private_key=vapid,
            vapid_claims={"sub": subject},
            timeout=timeout,
            ttl=TTL,
            aiohttp_session=client,
        )
    except WebPushException as error:
        status = error.status_code
        if status in (404, 410):
            raise PushGone(str(status)) from None
        raise PushFailed(f"the push service answered {status}") from None
    except (aiohttp.ClientError, TimeoutError, ValueError) as error:
        raise PushFailed(f"could not reach the push service ({type(error).__name__})") from None
