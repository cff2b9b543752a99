"""Whose address a request comes from, behind reverse proxies named in TRUSTED_PROXIES.

Every per-address limit (logins, tables opened, room codes, sockets) counts the caller's
address, so the caller must not be able to choose it. ``X-Forwarded-For`` is a header
anyone can send: it is believed only from a connection made by a trusted proxy, and then
only up to the first hop that no trusted proxy added — the right-most address that is not
a trusted proxy's — since each proxy appends the address it was reached from and anything
left of that came from the client. With no trusted proxy (the default) the header is
ignored and the connection's own address counts.

uvicorn's ProxyHeadersMiddleware reads the header this way; the server runs it here, from
the settings, rather than in uvicorn (whose default trusts any local caller, and whose
``FORWARDED_ALLOW_IPS="*"`` believes the left-most hop, which the client wrote).
"""

from __future__ import annotations

from typing import Any, cast

from starlette.types import ASGIApp
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware


def behind_proxies(app: ASGIApp, trusted_proxies: list[str]) -> ASGIApp:
    """``app`` seeing each caller's address as the trusted proxies report it (itself, when
    no proxy is trusted)."""
    if not trusted_proxies:
        return app
    # uvicorn types ASGI apps with its own (narrower) scope types; the app is Starlette's.
    middleware = ProxyHeadersMiddleware(cast(Any, app), trusted_hosts=trusted_proxies)
    return cast(ASGIApp, middleware)
