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
them from every line.
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


def drop_secrets(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """Remove every field whose name says it may hold a secret."""
    for key in [key for key in event_dict if any(p in key.lower() for p in SECRET_KEY_PARTS)]:
        del event_dict[key]
    for key in NOISE:
        event_dict.pop(key, None)
    return event_dict


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
