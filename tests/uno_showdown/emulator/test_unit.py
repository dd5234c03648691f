"""The emulated unit on its own: the device registry, blocking reads, the launcher."""

from __future__ import annotations

import argparse
import threading
import time

from hardware.devices import open_unit
from hardware.emulated import LAUNCH_MAX_US, EmulatorUnit
from showdown.contract.events import (
    LaunchFinished,
    LaunchPart,
    PaddlePressed,
    Side,
    TimerPressed,
)


def test_the_registry_opens_an_emulator_that_admits_software_stamps() -> None:
    unit = open_unit("emulator", argparse.Namespace())
    assert isinstance(unit, EmulatorUnit)
    assert unit.stamps_edges is False and unit.runs_own_countdown is False


def test_a_press_from_the_window_thread_ends_a_blocking_read_at_once() -> None:
    unit = EmulatorUnit()
    threading.Timer(0.02, unit.press_paddle, args=(Side.LEFT, 123)).start()
    began = time.monotonic()
    assert unit.read_inputs(10.0) == [PaddlePressed(Side.LEFT, 123)]
    assert time.monotonic() - began < 5  # woke on the press, not the timeout


def test_wake_cuts_a_read_short() -> None:
    unit = EmulatorUnit()
    threading.Timer(0.01, unit.wake).start()
    assert unit.read_inputs(10.0) == []


def test_the_launcher_reports_once_when_the_cards_are_out() -> None:
    now = [0]
    unit = EmulatorUnit(clock_us=lambda: now[0])
    unit.press_timer(5)
    assert unit.read_inputs(0) == [TimerPressed(5)]
    unit.launch((LaunchPart(Side.RIGHT, 3),))
    end = unit.state.launch_end_us
    assert 0 < end <= LAUNCH_MAX_US
    now[0] = end - 1
    assert unit.read_inputs(0) == []
    now[0] = end
    assert unit.read_inputs(0) == [LaunchFinished(end, cards_counted=3)]
    unit.stop_launcher()
    assert unit.read_inputs(0) == []


def test_stopping_the_launcher_lands_the_cards_now() -> None:
    now = [0]
    unit = EmulatorUnit(clock_us=lambda: now[0])
    unit.launch((LaunchPart(Side.LEFT, 2),))
    now[0] = 100_000
    unit.stop_launcher()
    assert not unit.state.launching_at(now[0])
    assert unit.read_inputs(0) == [LaunchFinished(100_000, cards_counted=2)]
