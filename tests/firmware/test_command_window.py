"""The board's anti-replay window, driven with every pattern of lost frames hypothesis finds.

The host numbers its commands and sends them back to back; a frame lost on the
line is sent again after some later ones have gone through, and every frame
may also be repeated (a lost acknowledgement). Whatever the pattern, the
firmware must run a launch or countdown at most once (and any command at most
once while its number is in the window), always run a stop, never run a
launch or countdown after a newer stop ran, and run a launch whose retry came
while the board could still vouch for it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host import protocol as P
from firmware_host.firmware.fw_core import CMD_WINDOW, Firmware
from firmware_host.virtual.sim_hw import SimClock, SimHardware

KINDS = (P.LAUNCH, P.STOP, P.ARROW, P.BEEP, P.COUNTDOWN, P.FREEZE)
ARGS = {P.LAUNCH: (P.LEFT, 1), P.ARROW: (P.RIGHT,), P.BEEP: (0,), P.COUNTDOWN: (300_000, 0)}


class RecordingFirmware(Firmware):
    """The real firmware, with its answers to commands kept (and nothing written)."""

    def __init__(self, hw: SimHardware) -> None:
        self.replies: list[tuple[str, int, int]] = []
        super().__init__(hw)

    def _send(self, seq, kind, args=()):  # type: ignore[no-untyped-def]
        if kind in (P.ACK, P.NAK):
            self.replies.append((kind, args[0], args[1]))


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
    fw._handle((0, P.HELLO, (P.VERSION,)))
    fw._handle((0, P.HB, ()))  # a heartbeat just now: launches are allowed
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
    for _, seq in sorted(arrivals):
        kind = kinds[seq - 1]
        fw._handle((seq, kind, ARGS.get(kind, ())))
        if kind == P.LAUNCH and fw.motor_on:
            fw._motor_off()  # the launch is over before the next command (the motor is free)

    ran = [seq for kind, seq, code in fw.replies if kind == P.ACK and code == P.ACK_DONE]
    once = [seq for seq in ran if kinds[seq - 1] in (P.LAUNCH, P.COUNTDOWN)]
    assert len(once) == len(set(once)), "a launch or countdown ran twice"
    # a command safe to repeat runs again only if it came back after the window moved on
    in_window = [seq for kind, seq, top in _with_newest(fw.replies)
                 if kind == P.ACK and top - seq < CMD_WINDOW and seq in ran]
    assert len(in_window) == len(set(in_window)), "a retry inside the window ran again"
    assert fw.launches == sum(1 for s in ran if kinds[s - 1] == P.LAUNCH)
    order = {seq: i for i, seq in enumerate(ran)}
    for seq, kind in enumerate(kinds, start=1):
        if kind == P.STOP:
            assert seq in order, f"stop #{seq} never ran"
    for seq in ran:
        if kinds[seq - 1] in (P.LAUNCH, P.COUNTDOWN):
            newer_stops_before = [s for s in ran[: order[seq]]
                                  if kinds[s - 1] == P.STOP and s > seq]
            assert not newer_stops_before, f"#{seq} ran after the newer stop {newer_stops_before}"
    # every command got an answer each time it arrived
    assert len(fw.replies) == len(arrivals)


def _with_newest(replies: list[tuple[str, int, int]]) -> list[tuple[str, int, int]]:
    """Each answer done (ACK_DONE) as (kind, seq, the newest number answered so far)."""
    out, top = [], 0
    for kind, seq, code in replies:
        top = max(top, seq)
        if kind == P.ACK and code == P.ACK_DONE:
            out.append((kind, seq, top))
    return out


@pytest.mark.parametrize("later", [0, 1, CMD_WINDOW - 1])
def test_a_launch_retried_after_harmless_commands_runs_once_within_the_window(
    pty: int, later: int
) -> None:
    fw = _board(pty)
    for seq in range(2, 2 + later):  # the launch (#1) was lost; these went through
        fw._handle((seq, P.BEEP, (0,)))
    fw._handle((1, P.LAUNCH, (P.LEFT, 1)))
    fw._handle((1, P.LAUNCH, (P.LEFT, 1)))
    assert fw.replies[-2:] == [(P.ACK, 1, P.ACK_DONE), (P.ACK, 1, P.ACK_DUPLICATE)]
    assert fw.launches == 1 and fw.motor_on


def test_a_launch_retried_after_the_window_moved_on_is_refused(pty: int) -> None:
    fw = _board(pty)
    for seq in range(2, 2 + CMD_WINDOW):
        fw._handle((seq, P.BEEP, (0,)))
    fw._handle((1, P.LAUNCH, (P.LEFT, 1)))
    assert fw.replies[-1] == (P.NAK, 1, P.NAK_STALE)
    assert fw.launches == 0 and not fw.motor_on


def test_a_new_session_forgets_the_window(pty: int) -> None:
    fw = _board(pty)
    fw._handle((1, P.BEEP, (0,)))
    fw._handle((0, P.HELLO, (P.VERSION,)))
    fw._handle((0, P.HB, ()))
    fw._handle((1, P.LAUNCH, (P.LEFT, 1)))  # the new host's #1 is a new command
    assert fw.replies[-1] == (P.ACK, 1, P.ACK_DONE) and fw.launches == 1


def test_a_retry_too_old_for_the_window_does_not_push_a_newer_command_out(pty: int) -> None:
    fw = _board(pty)
    newer = 1 + CMD_WINDOW  # shares its slot in the window with #1
    for seq in range(2, newer):
        fw._handle((seq, P.BEEP, (0,)))
    fw._handle((newer, P.LAUNCH, (P.LEFT, 1)))
    fw._motor_off()
    fw._handle((1, P.STOP, ()))  # #1's retry, long after: too old to tell, safe: it runs
    fw._handle((newer, P.LAUNCH, (P.LEFT, 1)))  # the launch's acknowledgement was lost
    assert fw.replies[-3:] == [(P.ACK, newer, P.ACK_DONE), (P.ACK, 1, P.ACK_DONE),
                               (P.ACK, newer, P.ACK_DUPLICATE)]
    assert fw.launches == 1
