"""Every refused or failed HTTP request answers in one JSON shape.

``{"code", "message", "detail"}`` with the status: a refusal of the rooms (``Refusal``),
a body or parameter of the wrong shape (422 ``bad_request``), a route that does not exist
(404 ``not_found``), a database that is not answering (503 ``unavailable``, logged once per
outage by app/store/outage.py), and anything unforeseen (500 ``internal_error``, logged with its
traceback).

The code is for programs and stays English; the message is in the request's language (the
signed-in account's setting when the request named its caller, else the ``lang`` cookie or
``Accept-Language``).
"""

from __future__ import annotations

import logging

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import DBAPIError
from starlette.exceptions import HTTPException
from starlette.responses import Response

from app.i18n.catalogues import words
from app.i18n.marks import N_
from app.i18n.requests import request_language
from app.observability.metrics import REFUSALS
from app.refusal import Refusal, unavailable
from app.store.outage import is_outage

log = logging.getLogger("parlour")

STATUS_CODES = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}


def error_response(code: str, message: str, status: int) -> JSONResponse:
    """The error's JSON answer; every one is counted by its code (``parlour_refusals_total``)."""
    REFUSALS.labels(code=code).inc()
    return JSONResponse({"code": code, "message": message, "detail": message}, status_code=status)


def language_of(request: Request) -> str:
    """The language an error answering ``request`` speaks."""
    return request_language(request, account=getattr(request.state, "account_language", None))


def refusal_response(request: Request, error: Refusal) -> JSONResponse:
    return error_response(error.code, error.text(language_of(request)), error.status)


async def _room_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refusal)
    return refusal_response(request, error)


# The words of the framework's own errors, by the HTTP status it answers with.
STATUS_WORDS = {
    404: N_("Not Found"),
    405: N_("Method Not Allowed"),
    413: N_("Request body too large"),
}


async def _validation_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, RequestValidationError)
    said = words(language_of(request))
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "bad request"}
    if first.get("type") == "json_invalid":
        # Its "loc" is a character offset and its words the parser's: say it plainly.
        return error_response(
            "bad_request", said.gettext(N_("The request body is not valid JSON.")), 422
        )
    where = ".".join(str(p) for p in first["loc"] if p != "body")
    # Pydantic's own words (which rule a field breaks) are English: they name the field and
    # the rule as an API client reads them.
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return error_response("bad_request", message, 422)


async def _http_error(request: Request, error: Exception) -> Response:
    assert isinstance(error, HTTPException)
    code = STATUS_CODES.get(error.status_code, "bad_request")
    detail = str(error.detail)
    # The framework's stock words for a status are translated; any other detail is the
    # raiser's own sentence, already in the right words.
    if STATUS_WORDS.get(error.status_code) == detail:
        detail = words(language_of(request)).gettext(detail)
    return error_response(code, detail, error.status_code)


async def _database_error(request: Request, error: Exception) -> Response:
    if is_outage(error):
        return refusal_response(request, unavailable())
    return await _unforeseen(request, error)


async def _unforeseen(request: Request, error: Exception) -> Response:
    log.error("%s %s failed", request.method, request.url.path, exc_info=error)
    text = words(language_of(request)).gettext(N_("Something went wrong on the server."))
    return error_response("internal_error", text, 500)


def install(app: FastAPI) -> None:
    """Register the handlers that keep every error in the JSON shape."""
    app.add_exception_handler(Refusal, _room_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(DBAPIError, _database_error)
    app.add_exception_handler(Exception, _unforeseen)
