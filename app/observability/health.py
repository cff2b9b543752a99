"""Readiness: whether what a server needs to serve answers — the database always, Redis
when several processes share the rooms (``GET /readyz``, app/routes/operations.py).

Each dependency is a probe, a coroutine function that returns once the dependency has
answered (app/main.py builds them: a ``SELECT 1`` on a worker thread, a Redis ``PING``).
A probe that raises, or does not answer within ``PROBE_TIMEOUT``, marks its dependency
unreachable; the probes run side by side, so one hanging does not delay the others.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping

Probe = Callable[[], Awaitable[object]]

PROBE_TIMEOUT = 2.0  # seconds; a load balancer's health check must not wait longer
READY, UNREACHABLE = "ok", "unreachable"


async def _answer(probe: Probe, timeout: float) -> str:
    try:
        async with asyncio.timeout(timeout):
            await probe()
    except Exception:  # any failure means the same to a health check: not ready
        return UNREACHABLE
    return READY


async def check(probes: Mapping[str, Probe], timeout: float = PROBE_TIMEOUT) -> dict[str, str]:
    """Each dependency's answer, ``ok`` or ``unreachable``, by name."""
    names = list(probes)
    answers = await asyncio.gather(*(_answer(probes[name], timeout) for name in names))
    return dict(zip(names, answers, strict=True))


def ready(answers: Mapping[str, str]) -> bool:
    return all(answer == READY for answer in answers.values())
