"""The deployment's own nginx (deploy/nginx.conf) in front of test servers: the file as it
ships, with the compose apps' addresses replaced by the test servers' and its own port."""

from __future__ import annotations

import getpass
import os
import shutil
import subprocess
import time
from pathlib import Path

import httpx

from tests.conftest import ROOT, Endpoint, LiveServer, free_port


class ProxyServer(Endpoint):
    """nginx with deploy/nginx.conf, in front of the servers ``start`` is given."""

    def __init__(self, workdir: Path) -> None:
        super().__init__(free_port())
        self.workdir = workdir / "nginx"
        self.process: subprocess.Popen[bytes] | None = None

    def _site(self, servers: dict[str, LiveServer]) -> str:
        site = (ROOT / "deploy" / "nginx.conf").read_text()
        for name, server in servers.items():
            site = site.replace(f"{name}:8000", f"127.0.0.1:{server.port}")
        assert "listen 80;" in site
        return site.replace("listen 80;", f"listen 127.0.0.1:{self.port};")

    def start(self, servers: dict[str, LiveServer]) -> ProxyServer:
        """Serve in front of ``servers``, by the names deploy/nginx.conf gives them (app1,
        app2). FileNotFoundError: nginx is not installed."""
        binary = shutil.which("nginx", path=f"{os.environ.get('PATH', '')}:/usr/sbin")
        if binary is None:
            raise FileNotFoundError("nginx")
        self.workdir.mkdir(exist_ok=True)
        (self.workdir / "site.conf").write_text(self._site(servers))
        temp = self.workdir / "temp"
        temp.mkdir(exist_ok=True)
        paths = "\n".join(
            f"    {kind}_temp_path {temp / kind};"
            for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        )
        (self.workdir / "nginx.conf").write_text(
            f"""daemon off;
user {getpass.getuser()};
worker_processes 1;
pid {self.workdir / "nginx.pid"};
error_log {self.workdir / "error.log"} warn;
events {{ worker_connections 256; }}
http {{
    access_log off;
{paths}
    include {self.workdir / "site.conf"};
}}
"""
        )
        log = (self.workdir / "output.log").open("ab")
        self.process = subprocess.Popen(
            [binary, "-p", str(self.workdir), "-c", str(self.workdir / "nginx.conf")],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        log.close()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                logged = (self.workdir / "output.log").read_text(errors="replace")
                error = (self.workdir / "error.log").read_text(errors="replace")
                raise RuntimeError(f"nginx did not start: {logged}{error}")
            try:
                httpx.get(f"{self.url}/healthz", timeout=1)
                return self
            except httpx.TransportError:
                time.sleep(0.05)
        raise RuntimeError("nginx did not answer in 10 s")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(10)
