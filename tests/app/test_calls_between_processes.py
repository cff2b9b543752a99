"""Calls between processes (app/cluster/calls.py): a game's reason for refusing a move keeps
its data across processes — a call answered by the room's owner with a refusal is raised on
the asking process with the reason told as data, for the asker's socket to word it in its
reader's language — and an owner's notice acknowledges only the calls it names, whichever
process asked them."""

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


def test_a_notice_acknowledges_only_the_calls_it_names_whichever_process_asked() -> None:
    """Every process following a room reads its owner's notices, and each looks up the
    acknowledged call ids among its own waiting calls: two processes' calls never share
    an id, however many each has made."""

    async def scenario() -> tuple[bool, bool]:
        first_bus, second_bus = Bus(), Bus()
        first = Calls(first_bus, Channels(), "first", timeout=5)  # type: ignore[arg-type]
        second = Calls(second_bus, Channels(), "second", timeout=5)  # type: ignore[arg-type]
        first_call = asyncio.ensure_future(first.call("owner", "r1", "act", {}))
        second_call = asyncio.ensure_future(second.call("owner", "r2", "act", {}))
        await asyncio.sleep(0)
        first_id = orjson.loads(first_bus.published[0][1])["id"]
        second_id = orjson.loads(second_bus.published[0][1])["id"]
        assert first_id != second_id
        # The owner of r1 acknowledges the first process's act; both processes read it.
        for calls in (first, second):
            calls.acknowledged([first_id])
        await asyncio.sleep(0)
        answered = (first_call.done(), second_call.done())
        second_call.cancel()
        return answered

    assert asyncio.run(scenario()) == (True, False)
