"""Database outages: told once, answered with a code, never a traceback per request.

When the database stops answering, every request that needs it fails the same way. The
engine's error hook logs the first failure of an outage as one line and counts the rest;
the first new connection that works afterwards ends the outage with one more line. The
routes turn these errors into the documented ``unavailable`` refusal (HTTP 503, or an
``error`` message on the play socket that stays open).
"""

from __future__ import annotations

import logging
import sys

from sqlalchemy import Engine, event
from sqlalchemy.engine import ExceptionContext
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.exc import TimeoutError as PoolTimeout

from app.observability.metrics import DATABASE_ERRORS

log = logging.getLogger("parlour.database")


def is_outage(error: BaseException) -> bool:
    """Whether ``error`` means the database cannot be used right now (not a refused row)."""
    if isinstance(error, IntegrityError):
        return False
    return isinstance(error, DBAPIError | PoolTimeout | ConnectionError)


def log_failure(logger: logging.Logger, message: str, *args: object) -> None:
    """In an ``except`` block of work off the request path (a task, a loop): log the error
    being handled with its traceback — unless it is the database out of reach, which the
    engine's hook has told once for the whole outage."""
    error = sys.exc_info()[1]
    if error is not None and is_outage(error):
        return
    logger.exception(message, *args)


class OutageLog:
    """Logs an engine's outages: one line when one starts, one when it ends."""

    def __init__(self, engine: Engine) -> None:
        self.failures = 0
        event.listen(engine, "handle_error", self._failed)
        event.listen(engine, "connect", self._connected)

    def _failed(self, context: ExceptionContext) -> None:
        if not is_outage(context.sqlalchemy_exception or context.original_exception):
            return
        DATABASE_ERRORS.inc()
        if self.failures == 0:
            log.warning(
                "the database is not answering (%s); further errors are counted, not logged",
                str(context.original_exception).strip().splitlines()[0],
            )
        self.failures += 1

    def _connected(self, _connection: object, _record: object) -> None:
        if self.failures:
            log.warning("the database answers again after %d failed attempts", self.failures)
            self.failures = 0
