"""The server's log: one formatter for every line, structured by structlog.

``configure(environment)`` (called by app/serve.py before uvicorn starts) sends every
stdlib logger — the app's (``logging.getLogger("parlour...")``), uvicorn's server and
access lines, SQLAlchemy's and Redis' if they speak — through structlog's
``ProcessorFormatter`` to standard error: one JSON object per line in production
(``ENVIRONMENT=production``), for a log collector; aligned, readable lines in development.

Each line carries what app/observability/context.py bound for the request, socket or room
it was written in — ``request_id``, ``room_id``, ``user_id`` — besides its time, level,
logger and message. Fields that could hold a secret (a password, a cookie, a session id,
a token, the secret key) are never written, whoever passes them: ``drop_secrets`` removes
them from every line. What uvicorn writes of every socket follows the access log's setting
(``quiet_sockets``, set by the app itself, so that it holds in every server, those started
without ``configure`` too).
"""

from __future__ import annotations

import logging
import sys
from collections.abc import MutableMapping
from typing import Any

import structlog
from structlog.typing import Processor

# Keys (or parts of keys, lower case) a line may not carry: what could let a reader sign
# in as someone, or sign cookies.
SECRET_KEY_PARTS = ("password", "cookie", "session", "secret", "token", "authorization")


# Fields that say nothing a reader needs (uvicorn's message again, with colour codes).
NOISE = ("color_message",)

# What uvicorn's WebSocket protocol says at INFO of every socket, through its logger
# "uvicorn.error": the line of a socket accepted, with its address and path, then the
# websockets library's "connection open" (the same moment again, with less) and, after a
# closing handshake, "connection closed". The first and last are the socket's access lines.
SOCKET_ACCESS = frozenset({'%s - "WebSocket %s" [accepted]', "connection closed"})
SOCKET_OPEN_AGAIN = "connection open"


def drop_secrets(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """Remove every field whose name says it may hold a secret."""
    for key in [key for key in event_dict if any(p in key.lower() for p in SECRET_KEY_PARTS)]:
        del event_dict[key]
    for key in NOISE:
        event_dict.pop(key, None)
    return event_dict


class QuietSockets(logging.Filter):
    """Keeps out of the log what is written of every socket and tells nobody anything new:
    "connection open", always (the accepted line just before it says more), and the
    socket's access lines when the access log is off (``access_log``), as a proxy in front
    logs each socket's upgrade as it logs every request. Refusals and errors pass."""

    def __init__(self, access_log: bool) -> None:
        super().__init__()
        self.access_log = access_log

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno != logging.INFO or not isinstance(record.msg, str):
            return True
        if record.msg == SOCKET_OPEN_AGAIN:
            return False
        return self.access_log or record.msg not in SOCKET_ACCESS


def quiet_sockets(access_log: bool) -> None:
    """Filter uvicorn's lines of every socket (:class:`QuietSockets`), in place of any
    filter an earlier app of this process set."""
    logger = logging.getLogger("uvicorn.error")
    for earlier in [f for f in logger.filters if isinstance(f, QuietSockets)]:
        logger.removeFilter(earlier)
    logger.addFilter(QuietSockets(access_log))


def shared_processors() -> list[Processor]:
    """What every line goes through, from structlog or from a stdlib logger."""
    return [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_logger_name,
        structlog.stdlib.add_log_level,
        structlog.stdlib.ExtraAdder(),
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        drop_secrets,
    ]


def renderer(environment: str) -> Processor:
    if environment == "production":
        return structlog.processors.JSONRenderer()
    return structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())


def formatter(environment: str) -> logging.Formatter:
    """The one formatter of every line: JSON in production, readable otherwise."""
    final: list[Processor] = [structlog.stdlib.ProcessorFormatter.remove_processors_meta]
    if environment == "production":
        # A traceback as one JSON string field, not a multi-line dump.
        final.append(structlog.processors.format_exc_info)
    final.append(renderer(environment))
    return structlog.stdlib.ProcessorFormatter(
        foreign_pre_chain=shared_processors(), processors=final
    )


def configure(environment: str, level: int = logging.INFO) -> None:
    """Route every logger of the process through one structlog formatter to stderr."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(formatter(environment))
    root = logging.getLogger()
    root.handlers = [handler]
    root.setLevel(level)
    # Alembic announces each of its plugins at start: not news to an operator.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.WARNING)
    # uvicorn's loggers write through the root's handler like everyone else's (uvicorn is
    # started without a logging configuration of its own, app/serve.py).
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access", "uvicorn.asgi"):
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
    structlog.configure(
        processors=[*shared_processors(), structlog.stdlib.ProcessorFormatter.wrap_for_formatter],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=True,
    )
