"""The collector kept out of the event loop's way (app/heap.py): while paced, the start-up
heap is frozen, the young generation is collected on a timer whatever the allocation count
says, the middle one in its turn (once the young collections its threshold counts have
been made), and the collector is as it was afterwards."""

from __future__ import annotations

import asyncio
import gc
import time

from app.heap import THRESHOLDS, collector_paced


def collections() -> tuple[int, int]:
    """How many young and middle collections this process has made."""
    young, middle, _ = gc.get_stats()
    return young["collections"], middle["collections"]


def test_the_young_generation_is_collected_on_a_timer_and_the_middle_one_in_its_turn() -> None:
    async def scenario() -> None:
        threshold, frozen = gc.get_threshold(), gc.get_freeze_count()
        with collector_paced(asyncio.get_running_loop(), 0.005):
            assert gc.get_threshold() == THRESHOLDS
            assert gc.get_freeze_count() > frozen
            young, middle = collections()
            # Far fewer objects are made meanwhile than the 7,000 that would start a
            # collection by themselves: the timer's are the ones counted.
            deadline = time.monotonic() + 20
            while collections()[1] < middle + 2 and time.monotonic() < deadline:
                await asyncio.sleep(0.005)
            young_now, middle_now = collections()
            assert middle_now >= middle + 2
            # Between two middle collections come the young ones that make its turn.
            assert young_now - young >= THRESHOLDS[1]
        assert gc.get_threshold() == threshold
        assert gc.get_freeze_count() == 0

    asyncio.run(scenario())


def test_with_no_pace_the_collector_is_left_to_itself() -> None:
    async def scenario() -> None:
        young, _ = collections()
        with collector_paced(asyncio.get_running_loop(), 0):
            for _ in range(20):
                await asyncio.sleep(0.005)
        # Without the timer, the few objects the loop made start a collection or two at most.
        assert collections()[0] - young <= 2

    asyncio.run(scenario())
