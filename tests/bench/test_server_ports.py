"""The benchmarks' servers listen on ports of their own: a port another program took
between its choice and the server's start is not mistaken for the server."""

from __future__ import annotations

import socket
from pathlib import Path

from bench.load.servers import ECHO_APP, Server


def test_a_server_whose_port_was_taken_starts_on_another(tmp_path: Path) -> None:
    server = Server(ECHO_APP, {}, tmp_path, factory=False, ws="auto")
    taken = server.port
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", taken))
        squatter.listen()
        assert not server.process  # not started: only the squatter answers on the port
        server.start()
        try:
            assert server.port != taken
            assert server.listening()
            with socket.create_connection(("127.0.0.1", server.port), timeout=2):
                pass
        finally:
            server.stop()
