"""What the board does by itself, on the real MicroPython image: silence, bad frames, a hung loop.

A bare-hands host (frames over pyserial, no link logic) talks to the emulated
Pico, so each test chooses exactly what the board hears and when it stops
hearing anything.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_host.firmware.fw_core import HOST_TIMEOUT_US, WATCHDOG_MS
from firmware_host.wire import codec
from tests.hil.conftest import RawHost
from tests.pico.conftest import WAIT_S
from tests.pico.emulated_pico import EmulatedPico

pytestmark = pytest.mark.pico

Frame = tuple[int, str, tuple[int, ...]]


@pytest.fixture
def host(pico: EmulatedPico) -> Iterator[RawHost]:
    raw = RawHost(pico.port)
    try:
        assert raw.hello(timeout_s=WAIT_S) is not None, "the board did not answer the hello"
        yield raw
    finally:
        raw.send(0, codec.HELLO, (codec.VERSION,))  # a new session stops whatever was left running
        raw.close()


def _heartbeat(host: RawHost) -> Frame:
    host.send(0, codec.HB)
    beat = host.expect(lambda f: f[1] == codec.HB and len(f[2]) == 2, WAIT_S)
    assert beat is not None, "the board stopped answering heartbeats"
    return beat


def _motor_turning(pico: EmulatedPico) -> bool:
    outputs = pico.outputs()
    return outputs["motor_a"][1] > 0 or outputs["motor_b"][1] > 0


def _launch_jammed(pico: EmulatedPico, host: RawHost, seq: int) -> None:
    """Start a 20-card launch with no card coming out: the motor runs until something stops it."""
    pico.jam()
    _heartbeat(host)
    answer = host.command(seq, codec.LAUNCH, (codec.LEFT, 20), WAIT_S)
    assert answer is not None and answer[1] == codec.ACK, answer
    assert pico.wait_for(lambda p: any(c.pin == "motor_a" and c.duty > 0 for c in p.changes),
                         WAIT_S), "the motor never started"


def test_a_silent_host_has_the_motor_stopped_within_the_bound(
    pico: EmulatedPico, host: RawHost
) -> None:
    _launch_jammed(pico, host, 1)
    last_heard = _heartbeat(host)[2][0]  # the board's tick when it heard the host last
    done = host.expect(lambda f: f[1] == codec.LAUNCH_DONE, WAIT_S)
    assert done is not None and done[2][3] == codec.END_HOST_SILENT, done
    pico.sync()  # the motor's stop, made before the report, may still be on its way
    fault = [c for c in pico.changes if c.pin == "motor_a"][-1]
    assert fault.duty == 0 and not _motor_turning(pico)
    stopped_after = codec.ticks_diff(int(fault.t_us), last_heard)
    # the board stops it at the first loop turn past the host timeout
    assert HOST_TIMEOUT_US <= stopped_after <= HOST_TIMEOUT_US + 20_000, stopped_after


def test_garbage_and_well_formed_nonsense_leave_the_board_serving(
    pico: EmulatedPico, host: RawHost
) -> None:
    host.raw(b"\x00\xff\x03 garbage $$$ *1234\n$7 LA 0 3*0000\n" + bytes(range(256)))
    unknown = host.command(1, "ZZZ", (1,), WAIT_S)  # a valid CRC, a kind it does not know
    assert unknown == (0, codec.NAK, (1, codec.NAK_UNKNOWN)), unknown
    _heartbeat(host)  # a launch without one is refused before its arguments are read
    bad_args = host.command(2, codec.LAUNCH, (7, 99), WAIT_S)  # valid frame, impossible launch
    assert bad_args == (0, codec.NAK, (2, codec.NAK_BAD_ARGS)), bad_args
    _heartbeat(host)
    assert host.command(3, codec.ARROW, (-1,), WAIT_S) == (0, codec.ACK, (3, codec.ACK_DONE))
    assert pico.outputs()["arrow_right"] == (0, 0)
    since = len(pico.changes)
    assert host.command(4, codec.ARROW, (codec.RIGHT,), WAIT_S) == (
        0, codec.ACK, (4, codec.ACK_DONE))
    assert pico.wait_output("arrow_right", 1, since, WAIT_S)
    assert not _motor_turning(pico)


def test_a_requested_restart_is_not_reported_as_the_watchdog(
    pico: EmulatedPico, host: RawHost
) -> None:
    boots = pico.boot
    assert host.command(1, codec.RESET, (), WAIT_S) == (0, codec.ACK, (1, codec.ACK_DONE))
    seen: list[Frame] = []
    hello = host.expect(lambda f: seen.append(f) or f[1] == codec.HELLO, WAIT_S)
    assert hello is not None and pico.boot == boots + 1
    # the new boot said hello; a watchdog fault would have come before it
    assert not [f for f in seen if f[1] == codec.FAULT and f[2][0] == codec.FAULT_WATCHDOG], seen
    assert host.hello(timeout_s=WAIT_S) is not None
    assert host.expect(lambda f: f[1] == codec.FAULT, 0.5) is None


def test_the_watchdog_resets_a_hung_board_with_the_motor_off(
    pico: EmulatedPico, host: RawHost
) -> None:
    _launch_jammed(pico, host, 1)
    boots = pico.boot
    hung_at = pico.hang()  # the loop stops turning; the motor keeps running
    assert _motor_turning(pico)
    assert pico.wait_for(lambda p: p.boot > boots, WAIT_S + WATCHDOG_MS / 1000), "no reset"
    reset = pico.boots[-1]
    assert reset["reason"] == "timer"  # the watchdog's REASON register: it went unfed
    # the watchdog fired 2 s after the loop's last feed, which came before the hang
    assert reset["ended_us"] - hung_at <= WATCHDOG_MS * 1000
    new_boot = reset["boot"]
    # from the reset on the motor pins are not driven, then main.py drives them low
    assert pico.wait_for(lambda p: [c for c in p.changes if c.boot == new_boot
                                    and c.pin == "motor_a" and c.level == 0], WAIT_S)
    assert not any(c.duty > 0 for c in pico.changes if c.boot == new_boot)
    # the new boot tells the host why it restarted
    fault = host.expect(lambda f: f[1] == codec.FAULT and f[2][0] == codec.FAULT_WATCHDOG, WAIT_S)
    assert fault is not None
    assert host.hello(timeout_s=WAIT_S) is not None


def test_a_host_that_restarts_is_served_again_and_ends_what_the_last_one_left(
    pico: EmulatedPico,
) -> None:
    first = RawHost(pico.port)
    try:
        assert first.hello(timeout_s=WAIT_S) is not None
        start = _heartbeat(first)[2][0]  # the board's tick now
        since = len(pico.changes)
        # a long countdown, then the host dies without a word
        assert first.command(1, codec.COUNTDOWN, (5_000_000, start), WAIT_S) == \
            (0, codec.ACK, (1, codec.ACK_DONE))
        assert pico.wait_output("countdown_4", 1, since, WAIT_S)
    finally:
        first.close()
    second = RawHost(pico.port)
    try:
        hello = second.hello(timeout_s=WAIT_S)
        assert hello is not None and hello[2][0] == codec.VERSION
        # the new session ended the old host's countdown, and the board serves this one
        assert pico.wait_output("countdown_4", 0, since, WAIT_S)
        assert all(pico.outputs()[f"countdown_{i}"][0] == 0 for i in range(1, 5))
        assert _heartbeat(second)[2][1] == 0  # state: nothing counting, no motor
        assert second.command(1, codec.ARROW, (codec.LEFT,), WAIT_S) == (
            0, codec.ACK, (1, codec.ACK_DONE))
    finally:
        second.send(0, codec.HELLO, (codec.VERSION,))
        second.close()
