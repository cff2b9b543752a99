"""The few HTTP calls of Parlour's API a benchmark table needs, each made as a given user."""

from __future__ import annotations

import asyncio
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any

import httpx

COOKIE = "parlour_session"
CONNECTIONS = 32  # HTTP connections to each server


def cookie_header(cookie: str) -> dict[str, str]:
    """The header that makes a request (or a WebSocket handshake) its user's."""
    return {"cookie": f"{COOKIE}={cookie}"}


class _NoCookies(DefaultCookiePolicy):
    def set_ok(self, cookie: Any, request: Any) -> bool:
        return False


class Api:
    """The HTTP calls that open a table and its rematches, on one server."""

    def __init__(self, base_url: str) -> None:
        # Idle connections are dropped well before the server's own idle timeout (uvicorn's
        # 5 s), so a request never goes out on a connection the server is closing.
        limits = httpx.Limits(
            max_connections=CONNECTIONS, max_keepalive_connections=CONNECTIONS, keepalive_expiry=2.0
        )
        self.client = httpx.AsyncClient(base_url=base_url, timeout=30, limits=limits)
        # One client for every user: keep no cookies, each call sends its user's own.
        self.client.cookies = CookieJar(policy=_NoCookies())
        # Requests beyond the pool's connections wait here, not in httpcore's pool, whose
        # queue costs time in the square of its length: thousands of tables set up at once
        # (the crowd run) kept the generator busy with it instead of sending.
        self._slots = asyncio.Semaphore(CONNECTIONS)

    async def close(self) -> None:
        await self.client.aclose()

    async def call(self, method: str, path: str, cookie: str | None, body: Any = None) -> Any:
        headers = cookie_header(cookie) if cookie else {}
        async with self._slots:
            response = await self.client.request(method, path, json=body, headers=headers)
        if response.status_code >= 400:
            raise RuntimeError(f"{method} {path}: {response.status_code} {response.text[:200]}")
        return response

    async def session(self, name: str) -> str:
        response = await self.call("POST", "/api/session", None, {"name": name})
        return str(response.cookies[COOKIE])

    async def new_table(self, cookies: list[str], game: str, options: dict[str, Any]) -> str:
        body = {"game": game, "seats": len(cookies), "options": options, "visibility": "private"}
        room = (await self.call("POST", "/api/rooms", cookies[0], body)).json()
        for cookie in cookies[1:]:
            await self.call("POST", f"/api/rooms/{room['id']}/join", cookie, {})
        await self.call("POST", f"/api/rooms/{room['id']}/start", cookies[0])
        return str(room["id"])

    async def rematch(self, room_id: str, cookie: str) -> str:
        room = (await self.call("POST", f"/api/rooms/{room_id}/rematch", cookie)).json()
        await self.call("POST", f"/api/rooms/{room['id']}/start", cookie)
        return str(room["id"])
