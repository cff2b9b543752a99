"""Verbs asked of another process: the request on its inbox, the answer on ours.

A call waits at most ``timeout`` seconds. Its answer is a reply on the asker's inbox — or,
for an act, the owner's notice of the act, which names the calls it acknowledges (the
commonest message between processes costs one message, not two). A notice goes to every
process following the room, so a call's id is unique across processes: the asker's own id
and the call's number in it. (Counted, not random: a random id costs a system call for
fresh entropy on every forwarded move, which nothing here needs.)
"""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import orjson

from app.cluster.bus import RedisBus
from app.cluster.channels import Channels
from app.refusal import MoveRefusal, Refusal, not_owner


class Calls:
    """The calls this process is waiting on, by id."""

    def __init__(self, bus: RedisBus, channels: Channels, process_id: str, timeout: float) -> None:
        self._bus = bus
        self._channels = channels
        self._process_id = process_id
        self.timeout = timeout
        self._waiting: dict[str, asyncio.Future[Any]] = {}
        self._asked: dict[str, str] = {}  # call id -> the process asked
        self._left: set[str] = set()  # processes that handed their rooms over
        self._numbers = itertools.count(1)

    async def call(self, owner: str, room_id: str, verb: str, args: dict[str, Any]) -> Any:
        """Run ``verb`` on ``owner``: its result, or its refusal raised as a Refusal;
        TimeoutError if it does not answer in time."""
        if owner in self._left:
            raise not_owner()  # it referees nothing any more
        call_id = f"{self._process_id}.{next(self._numbers)}"
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting[call_id] = answer
        self._asked[call_id] = owner
        request = {
            "kind": "call",
            "id": call_id,
            "from": self._process_id,
            "room": room_id,
            "verb": verb,
            "args": args,
        }
        self._bus.publish(self._channels.inbox(owner), orjson.dumps(request))
        try:
            async with asyncio.timeout(self.timeout):
                return await answer
        finally:
            self._waiting.pop(call_id, None)
            self._asked.pop(call_id, None)

    def answered(self, reply: dict[str, Any]) -> None:
        """A reply arrived on this process's inbox."""
        answer = self._waiting.get(reply["id"])
        if answer is None or answer.done():
            return
        if "says" in reply:  # a move the rules refused: its reason as data
            answer.set_exception(MoveRefusal(reply["message"], reply["says"]))
            return
        if reply["ok"]:
            answer.set_result(reply["result"])
        else:
            refused = Refusal(
                reply["code"], reply["message"], reply["status"], **reply.get("params", {})
            )
            answer.set_exception(refused)

    def owner_left(self, process_id: str) -> None:
        """``process_id`` handed its rooms over: whatever it did, its answers and notices
        came before its word of the handover, so the calls still waiting on it are refused
        ``not_owner`` at once, and their askers find the room's new owner; so is any call
        made to it from now on."""
        self._left.add(process_id)
        for call_id, asked in list(self._asked.items()):
            answer = self._waiting.get(call_id)
            if asked == process_id and answer is not None and not answer.done():
                answer.set_exception(not_owner())

    def acknowledged(self, call_ids: list[str]) -> None:
        """A notice says these forwarded acts were done."""
        for call_id in call_ids:
            answer = self._waiting.get(call_id)
            if answer is not None and not answer.done():
                answer.set_result(None)
