"""The language of a request or a socket, and the picker's cookie.

``?lang=fr`` on any page (the picker's links) answers in French and stores the choice in
the ``lang`` cookie (:class:`LanguageCookie`), so the pages that follow, the sockets they
open and the e-mails sent later speak it too.
"""

from __future__ import annotations

from http.cookies import SimpleCookie

from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.i18n.languages import COOKIE, COOKIE_SECONDS, choose, known


def request_language(connection: HTTPConnection, account: str | None = None) -> str:
    """The language this request (or socket) is answered in; ``account``: the signed-in
    account's setting, if any."""
    return choose(
        asked=connection.query_params.get("lang"),
        account=account,
        cookie=connection.cookies.get(COOKIE),
        accept_language=connection.headers.get("accept-language"),
        pseudo=connection.app.state.settings.pseudo_language,
    )


class LanguageCookie:
    """Stores a language asked for in the address (``?lang=es``) in the ``lang`` cookie."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        connection = HTTPConnection(scope)
        pseudo = connection.app.state.settings.pseudo_language
        asked = known(connection.query_params.get("lang"), pseudo=pseudo)
        if asked is None or connection.cookies.get(COOKIE) == asked:
            await self.app(scope, receive, send)
            return
        cookie = SimpleCookie()
        cookie[COOKIE] = asked
        cookie[COOKIE]["path"] = "/"
        cookie[COOKIE]["max-age"] = COOKIE_SECONDS
        cookie[COOKIE]["samesite"] = "Lax"
        header = cookie.output(header="").strip().encode("latin-1")

        async def with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message.setdefault("headers", [])
                message["headers"] = [*message["headers"], (b"set-cookie", header)]
            await send(message)

        await self.app(scope, receive, with_cookie)
