"""Every refused or failed HTTP request answers in one JSON shape.

``{"code", "message", "detail"}`` with the status: a refusal of the rooms (``Refusal``),
a body or parameter of the wrong shape (422 ``bad_request``), a route that does not exist
(404 ``not_found``), a database that is not answering (503 ``unavailable``, logged once per
outage by app/store/outage.py), and anything unforeseen (500 ``internal_error``, logged with its
traceback).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException
from starlette.responses import Response

from app.observability.metrics import REFUSALS
from app.refusal import Refusal, unavailable
from app.store.outage import is_outage

log = logging.getLogger("parlour")

STATUS_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def error_response(code: str, message: str, status: int) -> JSONResponse:
    """The error's JSON answer; every one is counted by its code (``parlour_refusals_total``)."""
    REFUSALS.labels(code=code).inc()
    return JSONResponse({"code": code, "message": message, "detail": message}, status_code=status)


async def _room_error(_request: Request, error: Exception) -> Response:
    assert isinstance(error, Refusal)
    return error_response(error.code, error.message, error.status)


async def _validation_error(_request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "bad request"}
    if first.get("type") == "json_invalid":
        # Its "loc" is a character offset and its words the parser's: say it plainly.
        return error_response("bad_request", "The request body is not valid JSON.", 422)
    where = ".".join(str(p) for p in first["loc"] if p != "body")
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return error_response("bad_request", message, 422)


async def _http_error(_request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = STATUS_CODES.get(error.status_code, "bad_request")
    return error_response(code, str(error.detail), error.status_code)


async def _database_error(request: Request, error: Exception) -> Response:
    if is_outage(error):
        down = unavailable()
        return error_response(down.code, down.message, down.status)
    return await _unforeseen(request, error)


async def _unforeseen(request: Request, error: Exception) -> Response:
    log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    return error_response("internal_error", "Something went wrong on the server.", 500)


def install(app: FastAPI) -> None:
    """Register the handlers that keep every error in the JSON shape."""
    app.add_exception_handler(Refusal, _room_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(Exception, _unforeseen)
