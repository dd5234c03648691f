"""The board's anti-replay window, driven with every pattern of lost frames hypothesis finds.

The host numbers its commands and sends them back to back; a frame lost on the
line is sent again after some later ones have gone through, and every frame
may also be repeated (a lost acknowledgement). Whatever the pattern, the
firmware must run a launch or countdown at most once (and any command at most
once while its number is in the window), always run a stop, never run a
launch or countdown after a newer stop ran, and run a launch whose retry came
while the board could still vouch for it. The reverse holds too: a stop's late
retry never ends a launch or countdown a newer command started while the window
can place it, and whatever a stop ends, the board reports.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.firmware.fw_core import CMD_WINDOW, Firmware
from firmware_host.virtual.sim_hw import SimClock, SimHardware
from firmware_host.wire import codec

KINDS = (codec.LAUNCH, codec.STOP, codec.ARROW, codec.BEEP, codec.COUNTDOWN, codec.FREEZE)
ARGS = {codec.LAUNCH: (codec.LEFT, 1), codec.ARROW: (codec.RIGHT,), codec.BEEP: (0,),
        codec.COUNTDOWN: (300_000, 0)}


class RecordingFirmware(Firmware):
    """The real firmware, with its answers to commands and its events kept (nothing written)."""

    def __init__(self, hw: SimHardware) -> None:
        self.replies: list[tuple[str, int, int]] = []
        self.events: list[tuple[str, tuple[int, ...]]] = []
        super().__init__(hw)

    def _send(self, seq, kind, args=()):  # type: ignore[no-untyped-def]
        if kind in (codec.ACK, codec.NAK):
            self.replies.append((kind, args[0], args[1]))

    def _answer(self, kind, a, b):  # type: ignore[no-untyped-def]
        self._send(0, kind, (a, b))

    def _event(self, kind, args):  # type: ignore[no-untyped-def]
        self.events.append((kind, tuple(args)))


@pytest.fixture
def pty() -> Iterator[int]:
    """A pseudo-terminal for the simulated hardware; only the firmware's events reach it."""
    master, slave = os.openpty()
    os.set_blocking(master, False)
    try:
        yield master
    finally:
        os.close(master)
        os.close(slave)


def _board(master: int) -> RecordingFirmware:
    fw = RecordingFirmware(SimHardware(master, SimClock(manual=True)))
    fw._handle(0, codec.HELLO, (codec.VERSION,))
    fw._handle(0, codec.HB, ())  # a heartbeat just now: launches are allowed
    return fw


commands = st.lists(st.sampled_from(KINDS), min_size=1, max_size=40)
# how many later commands go through before a lost one's retry; the window's edges often
delays = st.one_of(st.sampled_from([1, CMD_WINDOW - 1, CMD_WINDOW, CMD_WINDOW + 1]),
                   st.integers(0, 2 * CMD_WINDOW))


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # a fresh board each
@given(data=st.data(), kinds=commands)
def test_lost_and_repeated_frames_never_run_a_command_twice_nor_out_of_turn(
    pty: int, data: st.DataObject, kinds: list[str]
) -> None:
    # When does each command reach the board? Its first frame is on time or lost; a lost
    # one arrives as a retry after `delay` later commands; any frame may come twice.
    arrivals: list[tuple[float, int]] = []
    for seq, _kind in enumerate(kinds, start=1):
        lost = data.draw(st.booleans(), label=f"#{seq} lost")
        delay = data.draw(delays, label=f"#{seq} delay") if lost else 0
        arrivals.append((seq + delay + 0.5 * lost, seq))
        if data.draw(st.booleans(), label=f"#{seq} repeated"):
            arrivals.append((seq + delay + 0.7, seq))
    fw = _board(pty)
    running: dict[int, int] = {}  # what runs (2 the motor, 1 a live countdown) -> its number
    top = 0
    for _, seq in sorted(arrivals):
        kind = kinds[seq - 1]
        if kind == codec.LAUNCH and fw.motor_on:
            fw._motor_off()  # the last launch is over before this one comes (the motor is free)
            del running[2]
        events_before, replies_before = len(fw.events), len(fw.replies)
        fw._handle(seq, kind, ARGS.get(kind, ()))
        answer = fw.replies[replies_before]
        if kind == codec.STOP and answer == (codec.ACK, seq, codec.ACK_DONE):
            _check_stop(fw, seq, top, running, fw.events[events_before:])
        elif answer == (codec.ACK, seq, codec.ACK_DONE) and kind in (codec.LAUNCH, codec.COUNTDOWN):
            running[2 if kind == codec.LAUNCH else 1] = seq
        elif answer == (codec.ACK, seq, codec.ACK_DONE) and kind == codec.FREEZE:
            running.pop(1, None)  # a frozen countdown will not show go: nothing live to end
        top = max(top, seq)

    ran = [seq for kind, seq, code in fw.replies if kind == codec.ACK and code == codec.ACK_DONE]
    once = [seq for seq in ran if kinds[seq - 1] in (codec.LAUNCH, codec.COUNTDOWN)]
    assert len(once) == len(set(once)), "a launch or countdown ran twice"
    # a command safe to repeat runs again only if it came back after the window moved on
    in_window = [seq for kind, seq, top in _with_newest(fw.replies)
                 if kind == codec.ACK and top - seq < CMD_WINDOW and seq in ran]
    assert len(in_window) == len(set(in_window)), "a retry inside the window ran again"
    assert fw.launches == sum(1 for s in ran if kinds[s - 1] == codec.LAUNCH)
    order = {seq: i for i, seq in enumerate(ran)}
    for seq, kind in enumerate(kinds, start=1):
        if kind == codec.STOP:
            assert seq in order, f"stop #{seq} never ran"
    for seq in ran:
        if kinds[seq - 1] in (codec.LAUNCH, codec.COUNTDOWN):
            newer_stops_before = [s for s in ran[: order[seq]]
                                  if kinds[s - 1] == codec.STOP and s > seq]
            assert not newer_stops_before, f"#{seq} ran after the newer stop {newer_stops_before}"
    # every command got an answer each time it arrived
    assert len(fw.replies) == len(arrivals)


def _check_stop(fw: RecordingFirmware, stop: int, top: int, running: dict[int, int],
                events: list[tuple[str, tuple[int, ...]]]) -> None:
    """A stop that just ran ended only what came before it, or said it could not tell."""
    placed = top - stop < CMD_WINDOW  # the newest answered before it is within reach
    still = {2: fw.motor_on, 1: fw.cd_on and not fw.cd_frozen}
    ended = 0
    for bit, started in list(running.items()):
        if started > stop and placed:
            assert still[bit], f"stop #{stop} ended {bit=} started later by #{started}"
        else:
            assert not still[bit], f"stop #{stop} left {bit=} of the older #{started} running"
            ended |= bit
            del running[bit]
    reports = [args for kind, args in events
               if kind == codec.FAULT and args[0] == codec.FAULT_STOPPED]
    if ended:
        assert [r[2:] for r in reports] == [(ended, 0 if placed else 1)], events
    else:
        assert not reports, events
    launch_done = [args for kind, args in events if kind == codec.LAUNCH_DONE]
    assert len(launch_done) == (1 if ended & 2 else 0), events
    assert all(args[1] == 1 and args[3] == codec.END_STOPPED for args in launch_done)  # stopped


def _with_newest(replies: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Each answer done (ACK_DONE) as (kind, seq, the newest number answered so far)."""
    out, top = [], 0
    for kind, seq, code in replies:
        top = max(top, seq)
        if kind == codec.ACK and code == codec.ACK_DONE:
            out.append((kind, seq, top))
    return out


@pytest.mark.parametrize("later", [0, 1, CMD_WINDOW - 1])
def test_a_launch_retried_after_harmless_commands_runs_once_within_the_window(
    pty: int, later: int
) -> None:
    fw = _board(pty)
    for seq in range(2, 2 + later):  # the launch (#1) was lost; these went through
        fw._handle(seq, codec.BEEP, (0,))
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 1))
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 1))
    assert fw.replies[-2:] == [(codec.ACK, 1, codec.ACK_DONE), (codec.ACK, 1, codec.ACK_DUPLICATE)]
    assert fw.launches == 1 and fw.motor_on


def test_a_launch_retried_after_the_window_moved_on_is_refused(pty: int) -> None:
    fw = _board(pty)
    for seq in range(2, 2 + CMD_WINDOW):
        fw._handle(seq, codec.BEEP, (0,))
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 1))
    assert fw.replies[-1] == (codec.NAK, 1, codec.NAK_STALE)
    assert fw.launches == 0 and not fw.motor_on


def test_a_new_session_forgets_the_window(pty: int) -> None:
    fw = _board(pty)
    fw._handle(1, codec.BEEP, (0,))
    fw._handle(0, codec.HELLO, (codec.VERSION,))
    fw._handle(0, codec.HB, ())
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 1))  # the new host's #1 is a new command
    assert fw.replies[-1] == (codec.ACK, 1, codec.ACK_DONE) and fw.launches == 1


def test_a_retry_too_old_for_the_window_does_not_push_a_newer_command_out(pty: int) -> None:
    fw = _board(pty)
    newer = 1 + CMD_WINDOW  # shares its slot in the window with #1
    for seq in range(2, newer):
        fw._handle(seq, codec.BEEP, (0,))
    fw._handle(newer, codec.LAUNCH, (codec.LEFT, 1))
    fw._motor_off()
    fw._handle(1, codec.STOP, ())  # #1's retry, long after: too old to tell, safe: it runs
    fw._handle(newer, codec.LAUNCH, (codec.LEFT, 1))  # the launch's acknowledgement was lost
    assert fw.replies[-3:] == [(codec.ACK, newer, codec.ACK_DONE), (codec.ACK, 1, codec.ACK_DONE),
                               (codec.ACK, newer, codec.ACK_DUPLICATE)]
    assert fw.launches == 1


@pytest.mark.parametrize("newer", [codec.LAUNCH, codec.COUNTDOWN])
def test_a_lost_stop_retried_after_a_newer_launch_or_countdown_leaves_it_running(
    pty: int, newer: str
) -> None:
    fw = _board(pty)
    fw._handle(2, newer, ARGS[newer])  # #1, a stop, was lost on the line; #2 runs
    fw._handle(1, codec.STOP, ())  # the stop's retry, 50 ms later
    assert fw.replies[-1] == (codec.ACK, 1, codec.ACK_DONE)
    assert fw.motor_on if newer == codec.LAUNCH else fw.cd_on and not fw.cd_frozen
    assert fw.events == []  # nothing ended, nothing to report
    fw._handle(3, codec.STOP, ())  # a stop sent after it ends it, and says so
    assert not fw.motor_on and not fw.cd_on
    ended = 2 if newer == codec.LAUNCH else 1
    assert fw.events[-1] == (codec.FAULT, (codec.FAULT_STOPPED, fw.ticks(), ended, 0))


def test_a_stop_too_old_to_place_stops_the_launch_and_says_it_was_stale(pty: int) -> None:
    fw = _board(pty)
    fw._handle(2, codec.LAUNCH, (codec.LEFT, 3))
    for seq in range(3, 3 + CMD_WINDOW):
        fw._handle(seq, codec.BEEP, (0,))
    fw._handle(1, codec.STOP, ())  # older than the window: the board cannot place it
    assert not fw.motor_on
    now = fw.ticks()
    assert fw.events == [(codec.LAUNCH_DONE, (0, 1, now, codec.END_STOPPED)),
                         (codec.FAULT, (codec.FAULT_STOPPED, now, 2, 1))]
