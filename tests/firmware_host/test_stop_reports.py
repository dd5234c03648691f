"""Whatever ends a running launch or a live countdown on the board, the host hears of it.

A host waiting for the board's go, or for the end of a launch, must never wait in
silence: a stop, the host falling silent and the launcher's maximum on-time each
end a launch in a LAUNCH_DONE (the cards counted so far, cut short, and which
of them ended it, so a stop is never taken for a jam) and a countdown in a fault
that names why. Driven on a manual board clock.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_host.firmware.fw_core import HOST_TIMEOUT_US, MAX_ON_US
from firmware_host.virtual.sim_hw import SimClock, SimHardware
from firmware_host.wire import codec
from tests.firmware_host.test_command_window import RecordingFirmware
from tests.firmware_host.test_command_window import pty as pty  # the fixture, used by name

CARD_PERIOD_US = 50_000  # the simulated card sensor's pulse period while the motor runs


@pytest.fixture
def fw(pty: int) -> Iterator[RecordingFirmware]:
    board = RecordingFirmware(SimHardware(pty, SimClock(manual=True),
                                          card_period_us=CARD_PERIOD_US))
    board._handle(0, codec.HELLO, (codec.VERSION,))
    board._handle(0, codec.HB, ())
    yield board


def _run_for(fw: RecordingFirmware, us: int, *, heartbeats: bool = True) -> None:
    """Let board time pass in 10 ms turns of the loop (a host heartbeat every 100 ms)."""
    clock = fw.hw.clock
    for i in range(us // 10_000):
        clock.advance(10_000)
        if heartbeats and i % 10 == 0:
            fw._handle(0, codec.HB, ())
        fw.step()


def _launch_done(fw: RecordingFirmware) -> list[tuple[int, ...]]:
    """Each LAUNCH_DONE as (cards counted, cut short, why)."""
    return [(a[0], a[1], a[3]) for kind, a in fw.events if kind == codec.LAUNCH_DONE]


def _faults(fw: RecordingFirmware) -> list[int]:
    return [args[0] for kind, args in fw.events if kind == codec.FAULT]


def test_a_stop_cuts_a_launch_short_and_reports_the_cards_so_far(fw: RecordingFirmware) -> None:
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 10))
    _run_for(fw, 3 * CARD_PERIOD_US + 20_000)  # the first card after two periods, then one more
    fw._handle(2, codec.STOP, ())
    assert not fw.motor_on
    assert _launch_done(fw) == [(2, 1, codec.END_STOPPED)]  # two cards out, cut short by the stop
    assert _faults(fw) == [codec.FAULT_STOPPED]


def test_a_stop_ends_a_live_countdown_with_a_report(fw: RecordingFirmware) -> None:
    fw._handle(1, codec.COUNTDOWN, (3_000_000, fw.ticks()))
    _run_for(fw, 100_000)
    fw._handle(2, codec.STOP, ())
    assert not fw.cd_on and fw.events == [(codec.FAULT, (codec.FAULT_STOPPED, fw.ticks(), 1, 0))]
    fw._handle(3, codec.STOP, ())  # nothing left to end: nothing more to say
    assert len(fw.events) == 1


def test_a_silent_host_ends_the_launch_and_the_countdown_and_hears_both(
    fw: RecordingFirmware,
) -> None:
    fw._handle(1, codec.COUNTDOWN, (3_000_000, fw.ticks()))
    fw._handle(2, codec.LAUNCH, (codec.RIGHT, 10))
    _run_for(fw, 3 * CARD_PERIOD_US + 20_000)
    fw.hw.jammed = True  # two cards out, then stuck: left alone it would run on for seconds
    _run_for(fw, HOST_TIMEOUT_US + 20_000, heartbeats=False)
    assert not fw.motor_on and not fw.cd_on
    assert _faults(fw) == [codec.FAULT_HOST_SILENT]
    assert _launch_done(fw) == [(2, 1, codec.END_HOST_SILENT)]


def test_the_maximum_on_time_ends_the_launch_with_the_cards_so_far(
    fw: RecordingFirmware,
) -> None:
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 20))
    _run_for(fw, 3 * CARD_PERIOD_US + 20_000)
    fw.hw.jammed = True  # stuck after two cards; the jam limit for 20 is past the maximum
    _run_for(fw, MAX_ON_US)
    assert not fw.motor_on
    assert _faults(fw) == [codec.FAULT_MAX_ON_TIME]
    assert _launch_done(fw) == [(2, 1, codec.END_MAX_ON_TIME)]  # the cards that did fly count


def test_a_launch_that_runs_its_course_or_jams_says_which(fw: RecordingFirmware) -> None:
    fw._handle(1, codec.LAUNCH, (codec.LEFT, 2))
    _run_for(fw, 4 * CARD_PERIOD_US)
    assert not fw.motor_on and _launch_done(fw) == [(2, 0, codec.END_FINISHED)]
    fw.hw.jammed = True  # the next launch gets no card past the sensor
    fw._handle(2, codec.LAUNCH, (codec.LEFT, 2))
    _run_for(fw, 1_000_000)
    assert not fw.motor_on and _launch_done(fw)[1:] == [(0, 1, codec.END_JAMMED)]
    assert _faults(fw) == []  # neither is a fault; only the jam wants the rollers cleared
