"""The board outlives a bad frame, and when its loop dies anyway the motor stops.

1. The frame that used to kill the firmware's loop during a launch (`LA` with a
   Unicode digit and a valid CRC) is refused by the codec: the launch goes on and
   ends on time, and the board keeps answering.
2. A frame whose handling raises is counted, answered (`NAK n 7`, `FT 6`) and
   skipped; its retry is not run again, and a launch in progress is untouched.
3. A loop killed on purpose mid-launch: by an exception, the motor stops at once
   (as main.py does on the Pico) and the watchdog restarts the board; by a hang,
   the watchdog resets the board, and the motor stops, exactly WATCHDOG_MS of board
   time after the loop's last turn. The new boot says `FT 3`.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from firmware_host.firmware.fw_core import WATCHDOG_MS
from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.virtual.sim_hw import KILL_HANG, KILL_RAISE
from firmware_host.wire import codec
from tests.hil.conftest import RawHost, Rig

pytestmark = pytest.mark.hil

Frame = tuple[int, str, tuple[int, ...]]


def _framed(body: bytes) -> bytes:
    return b"$" + body + b"*" + b"%04X" % codec.crc16(body) + b"\n"


HOSTILE = [
    _framed("2 LA 0 ²".encode()),  # "²".isdigit() was True and int("²") raised in the board
    _framed("3 LA ٣ 1".encode()),
    _framed("4 BP ０".encode()),
    b"$0 HB*19c6\n", b"$0 HB* 78E\n", b"$0 HB*+78E\n",
    _framed(b"5 LA 0 1 0 1 0 1 0 1 0"),  # nine arguments
]


def _session(host: RawHost) -> None:
    assert host.hello() is not None
    host.send(0, codec.HB)
    assert host.expect(lambda f: f[1] == codec.HB) is not None


def _heartbeat_until(host: RawHost, pred: Callable[[Frame], bool], timeout_s: float = 3.0
                     ) -> Frame | None:
    """Heartbeat as a live host does (every 50 ms) until a frame matching `pred` comes."""
    import time

    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        host.send(0, codec.HB)
        frame = host.expect(lambda f: pred(f), 0.05)
        if frame is not None:
            return frame
    return None


def test_the_frame_that_killed_the_loop_mid_launch_is_refused_and_the_launch_ends_on_time(
    rig: Rig, raw_host: RawHost
) -> None:
    _session(raw_host)
    ack = raw_host.command(1, codec.LAUNCH, (codec.LEFT, 2))
    assert ack is not None and ack[1:] == (codec.ACK, (1, codec.ACK_DONE))
    for frame in HOSTILE:
        raw_host.raw(frame)
    raw_host.send(0, codec.HB)
    seen: list[Frame] = []  # a slow board may end the launch before it answers the heartbeat
    assert raw_host.expect(lambda f: seen.append(f) or f[1] == codec.HB, rig.wait_s(1)) \
        is not None, "the board stopped answering"
    done = next((f for f in seen if f[1] == codec.LAUNCH_DONE), None) or _heartbeat_until(
        raw_host, lambda f: f[1] == codec.LAUNCH_DONE, rig.wait_s(3))
    assert done is not None, "the launch never ended"
    raw_host.send(0, codec.EVACK, (done[0],))
    counted, short, _, why = done[2]
    assert (short, why) == (0, codec.END_FINISHED) and counted in (-1, 2)
    if rig.mcu is not None:
        fw = rig.mcu.firmware
        assert fw is not None and fw.frame_failures == 0
        assert fw._dec.errors == {codec.ERR_SYNTAX: len(HOSTILE)}
        assert not rig.mcu.motor_running and rig.mcu.launches == 1


def test_a_frame_whose_handling_raises_is_counted_refused_and_skipped_mid_launch(
    rig: Rig, raw_host: RawHost
) -> None:
    mcu = rig.need_virtual()
    fw = mcu.firmware
    assert fw is not None
    run_command = fw._command

    def failing(seq, kind, args, now):  # type: ignore[no-untyped-def]
        if kind == codec.BEEP:
            raise ZeroDivisionError("a bug the board meets on this frame")
        return run_command(seq, kind, args, now)

    fw._command = failing  # type: ignore[method-assign]
    _session(raw_host)
    assert raw_host.command(1, codec.LAUNCH, (codec.RIGHT, 2)) == (
        0, codec.ACK, (1, codec.ACK_DONE))
    assert raw_host.command(2, codec.BEEP, (0,)) == (0, codec.NAK, (2, codec.NAK_FAILED))
    fault = raw_host.expect(lambda f: f[1] == codec.FAULT and f[2][0] == codec.FAULT_FRAME_FAILED)
    assert fault is not None and fault[2][2] == 1
    assert raw_host.command(2, codec.BEEP, (0,)) == (
        0, codec.NAK, (2, codec.NAK_FAILED))  # its retry
    assert fw.frame_failures == 1 and mcu.motor_running  # the launch goes on
    done = _heartbeat_until(raw_host, lambda f: f[1] == codec.LAUNCH_DONE)
    assert done is not None and done[2][1] == 0 and done[2][3] == codec.END_FINISHED
    assert mcu.wait_until(lambda: not mcu.motor_running)


def _launch_jammed(mcu: VirtualMCU) -> tuple[RawHost, int]:
    """A session and a launch of 20 cards the sensor never sees: the motor runs on."""
    mcu.jam()
    host = RawHost(mcu.port)
    _session(host)
    assert mcu.hw is not None and mcu.hw.watchdog_armed
    t0 = mcu.ticks_us()
    assert host.command(1, codec.LAUNCH, (codec.LEFT, 20)) == (0, codec.ACK, (1, codec.ACK_DONE))
    assert mcu.motor_running and mcu.hw.motor_switches == [(t0, True)]
    return host, t0


def test_a_loop_killed_mid_launch_by_an_exception_stops_the_motor_and_the_watchdog_restarts(
    still_board: Callable[..., VirtualMCU],
) -> None:
    mcu = still_board()
    host, t0 = _launch_jammed(mcu)
    hw = mcu.hw
    assert hw is not None
    try:
        mcu.kill_loop(KILL_RAISE)
        assert mcu.wait_board(lambda: mcu.loop_deaths == 1)
        # the motor went off as the loop died, on the same board tick: no time passed
        assert hw.motor_switches == [(t0, True), (t0, False)] and not mcu.motor_running
        boots = mcu.boots
        mcu.advance(WATCHDOG_MS * 1000)
        assert mcu.wait_for_boots(boots + 1), "the watchdog did not restart the board"
        assert mcu.watchdog_resets == 1 and not mcu.motor_running
        # the new boot says why it restarted, then announces itself
        assert host.expect(lambda f: f[1] == codec.FAULT and f[2][0] == codec.FAULT_WATCHDOG, 2)
        assert host.expect(lambda f: f[1] == codec.HELLO, 2) is not None
    finally:
        host.close()


def test_a_loop_that_hangs_mid_launch_is_reset_by_the_watchdog_and_the_motor_stops_in_time(
    still_board: Callable[..., VirtualMCU],
) -> None:
    mcu = still_board()
    host, t0 = _launch_jammed(mcu)
    hw = mcu.hw
    assert hw is not None
    try:
        mcu.kill_loop(KILL_HANG)
        assert hw.stuck.wait(2), "the loop did not get stuck"
        turns = hw.turns
        fed = hw.watchdog_fed_ticks  # the last turn of the loop
        mcu.advance(1_000)  # a loop that still turned would feed the dog now; this one cannot
        assert hw.turns == turns and hw.watchdog_fed_ticks == fed and mcu.motor_running
        limit = codec.ticks_add(fed, WATCHDOG_MS * 1000)
        mcu.advance(codec.ticks_diff(limit, mcu.ticks_us()) - 1)
        assert not hw.watchdog_expired() and mcu.motor_running  # one microsecond short
        boots = mcu.boots
        mcu.advance(1)
        assert mcu.wait_for_boots(boots + 1), "the watchdog did not reset the hung board"
        assert mcu.watchdog_resets == 1 and not mcu.motor_running
        assert hw.motor_switches == [(t0, True), (limit, False)]  # off exactly at the bound
        assert codec.ticks_diff(limit, t0) <= WATCHDOG_MS * 1000 + 1_000
        assert host.expect(lambda f: f[1] == codec.FAULT and f[2][0] == codec.FAULT_WATCHDOG, 2)
        assert host.expect(lambda f: f[1] == codec.HELLO, 2) is not None
    finally:
        host.close()
