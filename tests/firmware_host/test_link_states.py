"""The host link's named states, and its listener called with no lock held (serial.threaded)."""

from __future__ import annotations

import os
import termios
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.host.link import (
    TRANSITIONS,
    WRITE_TIMEOUT_S,
    BoardLink,
    BoardReport,
    Connected,
    LinkReport,
    LinkState,
    Lost,
    VersionMismatch,
)
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec

OPTIONS = {"heartbeat_s": 0.05, "board_timeout_s": 0.4, "retry_open_s": 0.05}


@pytest.fixture
def board(tmp_path: Path) -> Iterator[VirtualMCU]:
    mcu = VirtualMCU(tmp_path / "board").start()
    try:
        yield mcu
    finally:
        mcu.stop()


def test_a_blocked_listener_does_not_hold_the_link(board: VirtualMCU) -> None:
    """The listener is still inside its call for Connected: the link answers every caller."""
    inside, release = threading.Event(), threading.Event()

    def listener(event: LinkReport) -> None:
        if isinstance(event, Connected):
            inside.set()
            release.wait(5)

    link = BoardLink(board.port, listener, **OPTIONS).start()
    try:
        assert inside.wait(3), "no Connected"
        answered = threading.Event()

        def ask() -> None:
            link.now_us()
            link.pending()
            link.command(codec.BEEP, (0,))
            answered.set()

        threading.Thread(target=ask, daemon=True).start()
        assert answered.wait(2), "the link waited for its listener"
        assert link.state is LinkState.READY
    finally:
        release.set()
        link.close()


def test_a_listener_may_send_a_command_from_another_thread_and_wait_for_it(
    board: VirtualMCU,
) -> None:
    """A listener that hands work to another thread and joins it cannot deadlock the link."""
    sent: list[int | None] = []
    done = threading.Event()
    link: BoardLink | None = None

    def listener(event: LinkReport) -> None:
        if isinstance(event, BoardReport) and event.kind == codec.PADDLE and link is not None:
            worker = threading.Thread(target=lambda: sent.append(link.command(codec.ARROW, (0,))))
            worker.start()
            worker.join(2)
            done.set()

    link = BoardLink(board.port, listener, **OPTIONS).start()
    try:
        assert link.wait_ready(3)
        board.press(codec.LEFT)
        assert done.wait(3) and len(sent) == 1 and sent[0] is not None
        assert board.wait_until(lambda: board.hw is not None and board.hw.arrow_left.value() == 1)
    finally:
        link.close()


def test_a_listener_that_raises_does_not_stop_the_link(board: VirtualMCU) -> None:
    heard: list[LinkReport] = []
    pressed = threading.Event()

    def listener(event: LinkReport) -> None:
        heard.append(event)
        if isinstance(event, BoardReport):
            pressed.set()
        raise RuntimeError("a broken listener")

    link = BoardLink(board.port, listener, **OPTIONS).start()
    try:
        assert link.wait_ready(3)
        board.press(codec.RIGHT)
        assert pressed.wait(3), heard  # heard after raising on Connected before it
        assert isinstance(heard[0], Connected)
        assert link.state is LinkState.READY
    finally:
        link.close()


def test_the_states_are_named_and_a_mismatched_board_is_one_of_them(tmp_path: Path) -> None:
    mismatched = threading.Event()

    def listener(event: LinkReport) -> None:
        if isinstance(event, VersionMismatch):
            mismatched.set()

    with VirtualMCU(tmp_path / "old", version=codec.VERSION + 1) as old:
        link = BoardLink(old.port, listener, **OPTIONS)
        assert link.state is LinkState.DISCONNECTED
        link.start()
        try:
            assert mismatched.wait(3)
            # the event is told after the lock is let go: by then the link may have gone
            # round again (a pty read error reopens the port), so wait for the state itself
            deadline = time.monotonic() + 3
            while link.state is not LinkState.MISMATCH and time.monotonic() < deadline:
                mismatched.wait(0.01)
            assert link.state is LinkState.MISMATCH and not link.ready
            assert link.command(codec.BEEP, (0,)) is None  # nothing is sent to such a board
        finally:
            link.close()


def test_every_state_is_reachable_and_can_be_left() -> None:
    sources = {a for a, _ in TRANSITIONS}
    targets = {b for _, b in TRANSITIONS}
    assert sources == targets == set(LinkState)


def test_the_callers_thread_never_waits_on_a_stalled_port(board: VirtualMCU) -> None:
    """The board stops taking bytes (its USB endpoint busy: here the port's output is
    suspended, so every write blocks until its 0.5 s write timeout). The service's loop
    calls `command` and `now_us` on its own thread: neither may wait on a write, the
    caller's own or the reader thread's heartbeat (serial.threaded: a writer thread writes)."""
    lost = threading.Event()
    link = BoardLink(board.port, lambda e: lost.set() if isinstance(e, Lost) else None,
                **OPTIONS).start()
    stalled = os.open(board.port, os.O_RDWR | os.O_NOCTTY)
    try:
        assert link.wait_ready(3)
        termios.tcflow(stalled, termios.TCOOFF)  # every write to the board now blocks
        slowest = 0.0
        # long enough for a write to time out, the link to give the port up and open it again
        end = time.monotonic() + 2 * WRITE_TIMEOUT_S
        while time.monotonic() < end:
            began = time.perf_counter()
            link.now_us()
            link.command(codec.BEEP, (0,))
            slowest = max(slowest, time.perf_counter() - began)
            time.sleep(0.005)  # the pace of a loop's turns, not a wait for anything
        assert lost.is_set(), "the link never gave up on the stalled port"
        # a call only takes the link's lock and queues a frame; a write may block 0.5 s
        assert slowest < 0.1, f"a caller waited {slowest * 1000:.0f} ms on the port"
    finally:
        termios.tcflow(stalled, termios.TCOON)
        os.close(stalled)
        link.close()
