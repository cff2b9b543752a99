"""uvicorn's HTTP protocol with a deadline for each request's headers.

uvicorn closes a keep-alive connection that stays idle, but waits for ever on a request
whose headers never finish — so a client can hold thousands of sockets open by sending a
header line now and then (slowloris). This protocol gives every request ``header_timeout``
seconds from its connection (or from its first byte, on a kept-alive connection) to finish
its headers, then closes the connection. A WebSocket is past its headers once upgraded.
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HEADER_TIMEOUT = 10.0


class HeaderDeadlineProtocol(HttpToolsProtocol):
    header_timeout = HEADER_TIMEOUT
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_header_timer()

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._start_header_timer()

    def on_headers_complete(self) -> None:
        self._stop_header_timer()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_header_timer()
        super().connection_lost(exc)

    def _start_header_timer(self) -> None:
        if self._header_timer is None:
            self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _stop_header_timer(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        self.transport.abort()


def with_header_timeout(seconds: float) -> type[HeaderDeadlineProtocol]:
    """The protocol class with its own deadline (uvicorn instantiates the class itself)."""
    return type("HeaderDeadlineProtocol", (HeaderDeadlineProtocol,), {"header_timeout": seconds})
