"""The one bounded queue and worker the service and the recorder hand their work to: what a
full queue drops is counted and said, a flush and a close end by their deadline, and a
handler that is stuck or broken holds up nobody who puts."""

from __future__ import annotations

import logging
import threading
import time

import pytest

from showdown.contract.worker import BoundedQueue, DropPolicy, Unfinished, Worker


def test_a_full_queue_drops_its_oldest_and_counts_each(caplog: pytest.LogCaptureFixture) -> None:
    queue: BoundedQueue[int] = BoundedQueue("a window", 3, DropPolicy.OLDEST)
    lost = [queue.put(n) for n in range(7)]
    assert lost == [None, None, None, 0, 1, 2, 3]  # each put hands back what made room
    assert queue.drain() == [4, 5, 6] and queue.dropped == 4
    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "a window has not taken an item for 3 items" in errors[0].message


def test_a_full_queue_refuses_new_items_until_it_has_room_and_the_owner_agrees(
        caplog: pytest.LogCaptureFixture) -> None:
    """NEWEST: a gap, then whole runs again from an item `resumes` accepts."""
    queue: BoundedQueue[str] = BoundedQueue("a log", 4, DropPolicy.NEWEST,
                                            resumes=lambda item: item.startswith("start"),
                                            noun=("a line", "lines"))
    for item in ("start 1", "a", "b", "c", "d", "e"):
        queue.put(item)
    assert queue.pending() == ["start 1", "a", "b", "c"] and queue.dropped == 2
    assert queue.get(0) == "start 1" and queue.get(0) == "a"  # room again: 2 of 4 waiting
    assert queue.put("f") == "f"  # not a start: the gap goes on
    assert queue.put("start 2") is None and queue.put("g") is None
    assert queue.pending() == ["b", "c", "start 2", "g"] and queue.dropped == 3
    said = [r.message for r in caplog.records]
    assert sum("has not taken a line for 4 lines" in m for m in said) == 1
    assert sum("a log takes lines again; 3 lines dropped so far" in m for m in said) == 1


def test_a_put_never_waits_on_a_stuck_handler_and_flush_ends_by_its_deadline() -> None:
    entered, release = threading.Event(), threading.Event()
    handled: list[int] = []

    def handle(n: int) -> None:
        entered.set()
        release.wait(10)
        handled.append(n)

    worker: Worker[int] = Worker("a stuck listener", handle, 100)
    try:
        worker.put(0)
        assert entered.wait(5)
        started = time.monotonic()
        for n in range(1, 500):
            worker.put(n)
        assert time.monotonic() - started < 1.0  # appends only
        assert worker.dropped == 500 - 100 - 1  # one in hand, a hundred waiting
        started = time.monotonic()
        assert worker.flush(0.2) is False
        assert 0.15 < time.monotonic() - started < 2.0
    finally:
        release.set()
    assert worker.flush(10.0) and len(handled) == 101
    assert handled[0] == 0 and handled[1:] == list(range(400, 500))  # the newest kept
    assert not worker.close()


def test_close_gives_back_what_it_could_not_handle_in_time() -> None:
    entered, release = threading.Event(), threading.Event()

    def handle(n: int) -> None:
        entered.set()
        release.wait(10)

    worker: Worker[int] = Worker("a file that hangs", handle, 100)
    try:
        worker.put(1)
        assert entered.wait(5)
        worker.put(2)
        worker.put(3)
        started = time.monotonic()
        left = worker.close(0.1)
        assert time.monotonic() - started < 2.0
        assert left.items == [2, 3] and left.in_hand == 1 and left.stuck
        assert worker.put(4) is None and worker.pending() == []  # a closed worker takes none
    finally:
        release.set()


def test_close_waits_for_the_work_queued_before_it() -> None:
    done: list[int] = []
    worker: Worker[int] = Worker("a file", done.append, 1_000)
    for n in range(50):
        worker.put(n)
    assert not worker.close(10.0)
    assert done == list(range(50))


def test_a_handler_that_gives_up_while_closing_has_its_item_given_back() -> None:
    """A handler waiting to try again (a locked file) is woken by close, not waited for."""
    tried = threading.Event()

    def handle(n: int) -> None:
        tried.set()
        if worker.wait_closing(30):
            raise Unfinished

    worker: Worker[int] = Worker("a locked file", handle, 10)
    worker.put(7)
    assert tried.wait(5)
    started = time.monotonic()
    left = worker.close(0.05, grace_s=5)
    assert time.monotonic() - started < 2.0
    assert left.items == [7] and not left.stuck


def test_a_handler_that_raises_is_logged_and_the_next_item_is_handled(
        caplog: pytest.LogCaptureFixture) -> None:
    handled: list[int] = []

    def handle(n: int) -> None:
        if n == 1:
            raise RuntimeError("broken")
        handled.append(n)

    worker: Worker[int] = Worker("a broken listener", handle, 10)
    for n in range(3):
        worker.put(n)
    assert worker.flush(5.0) and handled == [0, 2] and worker.failed == 1
    assert any("a broken listener failed on 1" in r.message for r in caplog.records)
    worker.close()


def test_what_a_handler_queues_while_its_worker_closes_is_still_handled() -> None:
    """The duel recorder writes a duel, then queues the reactions that came in meanwhile: a
    close that began during the write must not lose them (the screen would show no time)."""
    started, may_finish = threading.Event(), threading.Event()
    handled: list[str] = []
    worker: Worker[str]

    def handle(item: str) -> None:
        if item == "duel":
            started.set()
            assert may_finish.wait(10)
            worker.put("reactions")  # the rest of this item, learnt while writing it
        handled.append(item)

    worker = Worker("recorder", handle, limit=10)
    worker.put("duel")
    assert started.wait(10)
    closing = threading.Thread(target=lambda: left.append(worker.close(10)))
    left: list[object] = []
    closing.start()
    assert _until(lambda: worker.closed)
    worker.put("after close")  # anyone else is refused once closing
    may_finish.set()
    closing.join(20)
    assert handled == ["duel", "reactions"]
    assert not left[0].items and left[0].in_hand is None  # type: ignore[attr-defined]


def _until(condition, timeout_s: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.001)
    return False
