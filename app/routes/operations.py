"""The operator's routes: ``GET /healthz`` (the process answers), ``GET /readyz`` (it can
serve: the database, and Redis when several processes share the rooms, answer) and
``GET /metrics`` (Prometheus' text format, for this machine and the addresses
METRICS_ALLOW names)."""

from __future__ import annotations

import ipaddress
import os
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, REGISTRY, CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from starlette.responses import Response

from app.config import Settings
from app.http.deps import client_address
from app.i18n.marks import N_
from app.observability import health
from app.observability.metrics_directory import VARIABLE as METRICS_DIRECTORY
from app.refusal import Refusal

router = APIRouter()


@router.get("/healthz")
def alive() -> dict[str, str]:
    """The process is up and its event loop answers; nothing else is checked."""
    return {"status": "ok"}


@router.get("/readyz", response_model=None)
async def ready(request: Request) -> dict[str, Any] | JSONResponse:
    """200 when every dependency answers, else 503; the body says which answered."""
    answers = await health.check(request.app.state.readiness_probes)
    body = {"status": "ok" if health.ready(answers) else "unavailable", "checks": answers}
    if health.ready(answers):
        return body
    return JSONResponse(body, status_code=503)


def metrics_reader_allowed(settings: Settings, address: str) -> bool:
    try:
        caller = ipaddress.ip_address(address)
    except ValueError:  # not an IP address (an in-process test client): not this machine
        return False
    return any(caller in network for network in settings.metrics_networks())


def current_metrics() -> bytes:
    """Every metric in Prometheus' text format: of every process sharing the metrics
    directory when there is one (app/observability/metrics_directory.py), else this one's."""
    if not os.environ.get(METRICS_DIRECTORY):
        return generate_latest(REGISTRY)
    registry = CollectorRegistry()
    MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


@router.get("/metrics")
def metrics(request: Request) -> Response:
    settings: Settings = request.app.state.settings
    if not metrics_reader_allowed(settings, client_address(request)):
        raise Refusal(
            "metrics_not_allowed",
            N_("The metrics are served to this machine and to the addresses METRICS_ALLOW names."),
            403,
        )
    return Response(current_metrics(), media_type=CONTENT_TYPE_LATEST)
