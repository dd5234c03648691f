"""No frame stops the firmware's loop: any frame in the grammar is handled without raising,
and if handling one raises anyway the loop counts it, answers it and goes on."""

from __future__ import annotations

import os
import tty
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_host.virtual.sim_hw import SimClock, SimHardware
from firmware_host.wire import codec
from tests.firmware_host.test_command_window import RecordingFirmware
from tests.firmware_host.test_command_window import pty as pty  # the fixture, used by name
from tests.profiles import scale

KNOWN = [codec.HELLO, codec.HB, codec.EVACK, codec.COUNTDOWN, codec.GO, codec.FREEZE, codec.ARROW,
         codec.LAUNCH, codec.STOP, codec.BEEP, codec.RESET, codec.ACK, codec.NAK, codec.PADDLE,
         codec.LAUNCH_DONE, codec.FAULT]
numbers = st.one_of(st.integers(-3, 25), st.integers(-(10**12) + 1, 10**12 - 1),
                    st.sampled_from([codec.TICKS_PERIOD - 1, codec.TICKS_PERIOD,
                                     -codec.TICKS_PERIOD, 2**31, -(2**31), codec.SEQ_MOD]))
frames = st.tuples(
    st.one_of(st.integers(0, 40), st.integers(0, codec.SEQ_MOD - 1)),
    st.one_of(st.sampled_from(KNOWN), st.from_regex(r"\A[A-Z]{1,5}\Z")),
    st.lists(numbers, max_size=codec.MAX_ARGS).map(tuple),
).filter(lambda f: f[1] != codec.RESET)  # RS resets the board: its own test covers it


@settings(max_examples=scale(100, 5_000), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(frames, max_size=30), st.lists(st.integers(0, 600_000), max_size=30))
def test_any_frame_in_the_grammar_is_handled_without_raising(
    pty: int, batch: list[tuple[int, str, tuple[int, ...]]], gaps: list[int]
) -> None:
    fw = RecordingFirmware(SimHardware(pty, SimClock(manual=True)))
    fw._handle(0, codec.HELLO, (codec.VERSION,))
    fw._handle(0, codec.HB, ())
    for i, frame in enumerate(batch):
        try:
            codec.encode(*frame)
        except ValueError:
            continue  # longer than a frame may be: the codec would never deliver it
        fw._handle(*frame)  # must not raise
        fw.hw.clock.advance(gaps[i] if i < len(gaps) else 1_000)
        fw._drain_edges()
        now = fw.ticks()
        fw._run_countdown(now)
        fw._run_launcher(now)
        fw._check_host(now)
    assert fw.frame_failures == 0


class OneRead(SimHardware):
    """Delivers the given bytes once, as the host's line would, and keeps what the board wrote."""

    def __init__(self, master: int, data: bytes) -> None:
        super().__init__(master, SimClock(manual=True))
        self._data: bytes | None = data
        self.written = bytearray()

    def read_into(self, buf: bytearray, wait_ms: int) -> int:
        data, self._data = self._data or b"", b""
        buf[: len(data)] = data
        return len(data)

    def write(self, data: bytes | bytearray, n: int) -> None:
        self.written += data[:n]


@pytest.fixture
def line() -> Iterator[tuple[int, int]]:
    master, slave = os.openpty()
    tty.setraw(slave)
    os.set_blocking(master, False)
    os.set_blocking(slave, False)
    try:
        yield master, slave
    finally:
        os.close(master)
        os.close(slave)


def test_a_frame_whose_handling_raises_is_counted_refused_and_the_loop_goes_on(
    line: tuple[int, int],
) -> None:
    master, _ = line
    stream = (codec.encode(0, codec.HELLO, (codec.VERSION,)) + codec.encode(0, codec.HB)
              + codec.encode(1, codec.BEEP, (1,)) + codec.encode(0, codec.HB)
              + codec.encode(2, codec.ARROW, (0,)))
    hw = OneRead(master, stream)
    from firmware_host.firmware.fw_core import Firmware

    fw = Firmware(hw)
    real = fw._command

    def failing(seq, kind, args, now):  # type: ignore[no-untyped-def]
        if kind == codec.BEEP:
            raise MemoryError("memory allocation failed")
        return real(seq, kind, args, now)

    fw._command = failing  # type: ignore[method-assign]
    fw.step()  # must not raise
    assert fw.frame_failures == 1 and hw.arrow_left.value() == 1  # the next frame still ran
    out = codec.Decoder().feed(bytes(hw.written))
    assert (0, codec.NAK, (1, codec.NAK_FAILED)) in out
    assert (0, codec.ACK, (2, codec.ACK_DONE)) in out
    faults = [f for f in out if f[1] == codec.FAULT]
    assert [f[2][0] for f in faults] == [codec.FAULT_FRAME_FAILED] and faults[0][2][2] == 1
