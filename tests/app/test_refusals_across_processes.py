"""A game's reason for refusing a move keeps its data across processes: a call answered by
the room's owner with a refusal is raised on the asking process with the reason told as
data, for the asker's socket to word it in its reader's language (app/cluster/calls.py)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from app.cluster.calls import Calls
from app.refusal import Refusal
from games.kit.account import N_, say


class Bus:
    """A bus that keeps what is published."""

    def __init__(self) -> None:
        self.published: list[tuple[str, bytes]] = []

    def publish(self, channel: str, data: bytes) -> None:
        self.published.append((channel, data))


class Channels:
    def inbox(self, process_id: str) -> str:
        return f"inbox:{process_id}"


def test_a_refusal_from_the_owner_keeps_the_games_reason() -> None:
    async def scenario() -> Refusal:
        bus = Bus()
        calls = Calls(bus, Channels(), "asker", timeout=5)  # type: ignore[arg-type]
        asked = asyncio.ensure_future(calls.call("owner", "room", "act", {}))
        await asyncio.sleep(0)
        request: dict[str, Any] = orjson.loads(bus.published[0][1])
        reason = say(N_("You do not hold {card}."), card="9S")
        calls.answered(
            {
                "id": request["id"],
                "ok": False,
                "code": "illegal_action",
                "message": "You do not hold 9S.",
                "status": 409,
                "says": reason,
            }
        )
        with pytest.raises(Refusal) as refused:
            await asked
        return refused.value

    refusal = asyncio.run(scenario())
    assert refusal.message == "You do not hold 9S."
    assert refusal.text("es") == "No tienes 9S."
    assert refusal.text("fr") == "Vous n'avez pas 9S."
    # A refusal the catalogue has no words for stays in English.
    assert Refusal("stale_version", "The table moved on.").text("es") == "The table moved on."
