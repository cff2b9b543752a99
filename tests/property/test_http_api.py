"""Property: no request the HTTP API's own schema allows — nor the mutations of it that
Schemathesis makes — gets a server error, and every refusal keeps the JSON error shape.

Runs against the real server in its own process (as `make run` starts it), with a guest's
session cookie so that the calls that need one are tried for real.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, settings

from app.config import Settings
from app.db import upgrade_to_head
from app.main import create_app
from tests.conftest import LiveServer


def api_document() -> dict[str, Any]:
    """The OpenAPI document the app serves at /openapi.json (making it opens no database)."""
    settings = Settings(database_url="sqlite://", secret_key="schema-" * 6)
    document: dict[str, Any] = create_app(settings).openapi()
    return document


schema = schemathesis.openapi.from_dict(api_document())


@pytest.fixture(scope="module")
def api_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    data = tmp_path_factory.mktemp("api")
    url = f"sqlite:///{data / 'api.db'}"
    upgrade_to_head(url)
    server = LiveServer(url, data).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def guest_cookies(api_server: LiveServer) -> dict[str, str]:
    started = httpx.post(f"{api_server.url}/api/session", json={"name": "Schema"})
    assert started.status_code == 200, started.text
    return dict(started.cookies)


# Bounded for `make test`: a few examples per operation, and no shrinking (a failure
# reports the request as generated, with a curl line to replay it).
@schema.parametrize()
@settings(
    max_examples=15,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=list(HealthCheck),
)
def test_no_request_gets_a_server_error(
    case: schemathesis.Case, api_server: LiveServer, guest_cookies: dict[str, str]
) -> None:
    response = case.call(base_url=api_server.url, cookies=guest_cookies, timeout=30)
    assert response.status_code < 500, case.as_curl_command()
    if response.status_code >= 400:
        body = response.json()
        assert isinstance(body.get("code"), str) and body.get("message"), body
