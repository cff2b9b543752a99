"""The monitoring that `docker compose --profile monitoring up` adds: Prometheus scrapes
every app process over a network of its own, and Grafana's provisioned dashboard shows
the app's metrics — every one it defines, and nothing it does not."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from typing import Any

import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase

from app.config import Settings
from app.observability import metrics
from tests.conftest import ROOT

DEPLOY = ROOT / "deploy"
SAMPLE_SUFFIXES = {
    "counter": ("_total",),
    "gauge": ("",),
    "histogram": ("_bucket", "_sum", "_count"),
}


def defined_families() -> dict[str, str]:
    """Every metric app/observability/metrics.py defines: its family name and type."""
    families = {}
    for value in vars(metrics).values():
        if isinstance(value, MetricWrapperBase):
            families[value._name] = value._type
    return families


def sample_names() -> dict[str, str]:
    """Every sample name Prometheus can be asked for, with the family it belongs to."""
    return {
        family + suffix: family
        for family, kind in defined_families().items()
        for suffix in SAMPLE_SUFFIXES[kind]
    }


def dashboard() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((DEPLOY / "grafana/dashboards/parlour.json").read_text())
    return loaded


def expressions() -> list[str]:
    return [
        target["expr"] for panel in dashboard()["panels"] for target in panel.get("targets", [])
    ]


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def test_the_contract_metrics_are_defined() -> None:
    families = defined_families()
    for name, kind in {
        "parlour_moves": "counter",
        "parlour_move_seconds": "histogram",
        "parlour_connections": "gauge",
        "parlour_rooms_held": "gauge",
        "parlour_event_log_commit_seconds": "histogram",
        "parlour_notifications_sent": "counter",
        "parlour_notifications_failed": "counter",
    }.items():
        assert families.get(name) == kind, name


def test_the_dashboard_names_only_metrics_the_app_defines_and_shows_them_all() -> None:
    known = sample_names()
    named = {name for expr in expressions() for name in re.findall(r"\bparlour_\w+", expr)}
    assert named, "the dashboard queries no metric"
    assert named <= known.keys(), named - known.keys()
    assert {known[name] for name in named} == defined_families().keys()


def test_the_dashboard_reads_the_provisioned_data_source() -> None:
    provisioned = yaml.safe_load(
        (DEPLOY / "grafana/provisioning/datasources/prometheus.yml").read_text()
    )
    (source,) = provisioned["datasources"]
    for panel in dashboard()["panels"]:
        for target in [panel, *panel.get("targets", [])]:
            if "datasource" in target:
                assert target["datasource"]["uid"] == source["uid"], panel["title"]
    assert source["url"] == "http://prometheus:9090"


def test_prometheus_scrapes_every_app_over_the_monitoring_network_alone() -> None:
    services = compose()["services"]
    apps = sorted(
        name for name, service in services.items() if "app.serve" in service.get("command", [])
    )
    assert apps == ["app1", "app2"]
    scrape = yaml.safe_load((DEPLOY / "prometheus/prometheus.yml").read_text())
    (job,) = scrape["scrape_configs"]
    targets = [target for config in job["static_configs"] for target in config["targets"]]
    assert targets == [f"{app}:8000" for app in apps]
    monitoring = compose()["networks"]["monitoring"]
    assert monitoring["internal"] is True
    (subnet,) = (entry["subnet"] for entry in monitoring["ipam"]["config"])
    for app in apps:
        settings = Settings(metrics_allow=services[app]["environment"]["METRICS_ALLOW"])
        assert str(settings.metrics_networks()[-1]) == subnet
        assert "monitoring" in services[app]["networks"]
    # Prometheus reaches the apps by the monitoring network only (its scrapes come from an
    # address METRICS_ALLOW names), and the proxy the world reaches is not on it.
    assert services["prometheus"]["networks"] == ["monitoring"]
    assert "networks" not in services["proxy"] or "monitoring" not in services["proxy"]["networks"]
    for name in ("prometheus", "grafana"):
        assert services[name]["profiles"] == ["monitoring"]


def test_compose_checks_each_app_is_ready_before_the_proxy_sends_it_anyone() -> None:
    services = compose()["services"]
    for app in ("app1", "app2"):
        assert "/readyz" in " ".join(services[app]["healthcheck"]["test"])
        assert services["proxy"]["depends_on"][app]["condition"] == "service_healthy"


def test_the_compose_file_validates() -> None:
    if shutil.which("docker-compose") is None:
        # CI installs it (.ci/run); elsewhere the check needs `apt-get install docker-compose`.
        if os.environ.get("CI"):
            pytest.fail("docker-compose must be installed in CI to validate docker-compose.yml")
        pytest.skip("docker-compose is not installed (apt-get install docker-compose)")
    env = {**os.environ, "SECRET_KEY": "only-for-validating-the-compose-file"}
    for profile in ([], ["--profile", "monitoring"]):
        checked = subprocess.run(
            ["docker-compose", *profile, "config", "-q"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert checked.returncode == 0, checked.stderr
