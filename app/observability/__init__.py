"""What an operator sees of a running server: Prometheus metrics (``metrics``, every one
defined there; ``metrics_directory``, where several processes keep them), structured logs
(``logs``, with the request's or room's context from ``context``), and the health checks'
probes (``health``)."""
