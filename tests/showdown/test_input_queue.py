"""The unit contract's one input queue, which every adapter puts its inputs on: the service
takes everything at once, a wait ends at its timeout, at a put, at a wake, or when a timed
input of the unit's own comes due."""

from __future__ import annotations

import threading
import time

from showdown.contract.events import PaddlePressed, Side, TimerPressed
from showdown.contract.unit import InputQueue


def later(seconds: float, action) -> threading.Thread:  # type: ignore[no-untyped-def]
    """Run `action` on another thread after `seconds` (a press that comes while waiting)."""
    thread = threading.Thread(target=lambda: (threading.Event().wait(seconds), action()),
                              daemon=True)
    thread.start()
    return thread


def test_take_returns_everything_waiting_oldest_first_without_waiting() -> None:
    inputs = InputQueue()
    inputs.put(TimerPressed(1))
    inputs.put(PaddlePressed(Side.LEFT, 2))
    started = time.monotonic()
    assert inputs.take(10.0) == [TimerPressed(1), PaddlePressed(Side.LEFT, 2)]
    assert time.monotonic() - started < 1.0
    assert inputs.take(0) == []


def test_a_wait_ends_at_its_timeout_at_a_put_or_at_a_wake() -> None:
    inputs = InputQueue()
    started = time.monotonic()
    assert inputs.take(0.05) == []
    assert time.monotonic() - started >= 0.05
    later(0.05, lambda: inputs.put(PaddlePressed(Side.RIGHT, 9)))
    started = time.monotonic()
    assert inputs.take(10.0) == [PaddlePressed(Side.RIGHT, 9)]
    assert time.monotonic() - started < 5.0
    later(0.05, inputs.wake)
    started = time.monotonic()
    assert inputs.take(10.0) == []
    assert time.monotonic() - started < 5.0
    inputs.wake()  # a wake before the read ends the next read at once
    started = time.monotonic()
    assert inputs.take(10.0) == [] and time.monotonic() - started < 1.0


def test_a_timed_input_ends_the_wait_when_it_comes_due_and_a_recheck_finds_a_new_one() -> None:
    inputs = InputQueue()
    due_at: list[float] = []

    def due() -> float | None:
        if not due_at:
            return None
        if time.monotonic() >= due_at[0]:
            due_at.clear()
            inputs.put(TimerPressed(42))
            return None
        return due_at[0] - time.monotonic()

    def start_timer() -> None:
        due_at.append(time.monotonic() + 0.05)
        inputs.recheck()  # the waiting take asks `due` again

    later(0.05, start_timer)
    started = time.monotonic()
    assert inputs.take(10.0, due=due) == [TimerPressed(42)]
    assert time.monotonic() - started < 5.0


def test_a_service_that_reads_nothing_holds_a_bounded_queue() -> None:
    inputs = InputQueue(limit=100)
    for n in range(1_000):
        inputs.put(TimerPressed(n))
    got = inputs.take(0)
    assert len(got) == 100 and got[0] == TimerPressed(900) and inputs.dropped == 900
