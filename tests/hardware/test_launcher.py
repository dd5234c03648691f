"""The launcher on the GPIO unit: direction, duration, the hard maximum, jams, and failing safe."""

from __future__ import annotations

import os
import queue
import signal
import threading
from collections.abc import Callable

import pytest

from hardware.launcher import Launcher, plan_launch
from hardware.pinmap import load_pinmap
from hardware.stop_signals import owned_stop_signals
from showdown.contract.events import LaunchFinished, LaunchPart, Side, UnitFault, UnitInput
from showdown.service.loop import ShowdownService
from tests.hardware.conftest import quick_pinmap, with_sensor
from tests.hardware.mockpins import RecordingUnit, cut_at, on_time_s, tick_for, within

MakeUnit = Callable[..., RecordingUnit]


def wait_for(unit: RecordingUnit, kind: type, timeout_s: float = 3.0) -> list[UnitInput]:
    """Read the unit's inputs until one of `kind` arrives; return everything read."""
    seen: list[UnitInput] = []
    deadline = unit.now_us() + round(timeout_s * 1_000_000)
    while not any(isinstance(i, kind) for i in seen):
        left = deadline - unit.now_us()
        assert left > 0, f"no {kind.__name__} within {timeout_s} s; read {seen}"
        seen += unit.read_inputs(left / 1_000_000)
    return seen


def motor_pins(unit: RecordingUnit):  # type: ignore[no-untyped-def]
    motor = unit.launcher.motor
    return motor.forward_device.pin, motor.backward_device.pin


def test_plan_runs_each_part_its_way_for_base_plus_per_card() -> None:
    config = load_pinmap().launcher  # forward throws left; 150 ms + 120 ms a card
    runs = plan_launch((LaunchPart(Side.RIGHT, 2), LaunchPart(Side.LEFT, 1)), config)
    assert [(r.forward, r.duration_us) for r in runs] == [(False, 390_000), (True, 270_000)]


@pytest.mark.parametrize(("side", "forward_spins"), [(Side.LEFT, True), (Side.RIGHT, False)])
def test_the_motor_spins_toward_the_side_for_the_planned_time(
    make_unit: MakeUnit, side: Side, forward_spins: bool
) -> None:
    unit = make_unit(quick_pinmap(base_us=30_000, per_card_us=25_000))
    unit.launch((LaunchPart(side, 2),))
    [finished] = [i for i in wait_for(unit, LaunchFinished) if isinstance(i, LaunchFinished)]
    assert finished == LaunchFinished(finished.t_us, None, False)
    forward, backward = motor_pins(unit)
    spun, idle = (forward, backward) if forward_spins else (backward, forward)
    [(_, length)] = on_time_s(spun)
    assert length == within(0.080)
    assert on_time_s(idle) == []
    assert not unit.launcher.motor.is_active


def test_a_split_launch_runs_one_way_pauses_then_the_other(make_unit: MakeUnit) -> None:
    unit = make_unit(quick_pinmap(base_us=20_000, per_card_us=20_000, pause_us=50_000))
    unit.launch((LaunchPart(Side.RIGHT, 2), LaunchPart(Side.LEFT, 1)))
    wait_for(unit, LaunchFinished)
    forward, backward = motor_pins(unit)
    [(back_start, back_len)] = on_time_s(backward)
    [(fwd_start, fwd_len)] = on_time_s(forward)
    assert back_len == within(0.060)
    assert fwd_len == within(0.040)
    # Both pins' records start when the motor was made; the pause sits between the runs.
    assert fwd_start - (back_start + back_len) >= 0.045


def test_the_maximum_on_time_stops_the_motor_and_says_so(make_unit: MakeUnit) -> None:
    unit = make_unit(quick_pinmap(base_us=20_000, per_card_us=500_000, max_on_us=100_000))
    unit.launch((LaunchPart(Side.LEFT, 3),))
    seen = wait_for(unit, UnitFault)
    assert any(isinstance(i, LaunchFinished) for i in seen)
    [fault] = [i for i in seen if isinstance(i, UnitFault)]
    assert "maximum on-time of 100 ms" in fault.reason and not fault.abort_duel
    [(_, length)] = on_time_s(motor_pins(unit)[0])
    assert length == cut_at(0.100)


def test_the_maximum_holds_even_if_the_launch_thread_hangs(make_unit: MakeUnit,
                                                            monkeypatch) -> None:
    """The timer cuts the motor by itself: no read_inputs, no launch-thread wake-ups."""
    unit = make_unit(quick_pinmap(max_on_us=80_000))
    reports: queue.Queue[UnitInput] = queue.Queue()
    launcher = Launcher(unit.launcher.motor, unit.launcher.config, unit.now_us, reports.put)
    monkeypatch.setattr(Launcher, "_spin", lambda self, job, run: job.stop.wait())
    launcher.launch((LaunchPart(Side.LEFT, 1),))
    assert isinstance(reports.get(timeout=2), LaunchFinished)
    assert isinstance(reports.get(timeout=2), UnitFault)
    [(_, length)] = on_time_s(motor_pins(unit)[0])
    assert length == cut_at(0.080)


def test_an_exception_in_the_launch_stops_the_motor(make_unit: MakeUnit, monkeypatch) -> None:
    unit = make_unit()
    motor = unit.launcher.motor

    def broken(speed: float = 1) -> None:
        raise RuntimeError("driver fault")

    monkeypatch.setattr(motor, "forward", broken)
    unit.launch((LaunchPart(Side.RIGHT, 1), LaunchPart(Side.LEFT, 1)))  # second run fails
    seen = wait_for(unit, UnitFault)
    assert any("driver fault" in i.reason for i in seen if isinstance(i, UnitFault))
    assert not motor.is_active
    assert len(on_time_s(motor.backward_device.pin)) == 1


def test_an_exception_in_the_service_stops_the_motor(make_unit: MakeUnit, monkeypatch) -> None:
    unit = make_unit(quick_pinmap(base_us=2_000_000, max_on_us=3_000_000))
    service = ShowdownService(unit)
    unit.launch((LaunchPart(Side.LEFT, 1),))
    assert unit.launcher.motor.is_active

    def broken(timeout_s: float) -> list[UnitInput]:
        raise OSError("GPIO chip went away")

    monkeypatch.setattr(unit, "read_inputs", broken)
    with pytest.raises(OSError):
        service.step()
    assert not unit.launcher.motor.is_active


def test_close_stops_a_running_motor(make_unit: MakeUnit) -> None:
    unit = make_unit(quick_pinmap(base_us=2_000_000, max_on_us=3_000_000))
    unit.launch((LaunchPart(Side.RIGHT, 1),))
    backward = motor_pins(unit)[1]
    assert backward.state
    unit.close()
    assert not backward.state
    unit.close()  # twice is fine


@pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                    reason="signal handlers need the main thread")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_stop_signal_stops_the_motor_and_unwinds(make_unit: MakeUnit, signum: int) -> None:
    """What `selftest` does: the command owns the signals, the unit only stops."""
    unit = make_unit(quick_pinmap(base_us=2_000_000, max_on_us=3_000_000))
    before = signal.getsignal(signum)
    unit.launch((LaunchPart(Side.LEFT, 1),))
    assert unit.launcher.motor.is_active
    with pytest.raises(SystemExit) as exit_info, owned_stop_signals(
            unit.stop_launcher, interrupt=True):
        os.kill(os.getpid(), signum)
        threading.Event().wait(1.0)  # the handler raises here, on the main thread
    assert exit_info.value.code == 128 + signum
    assert not unit.launcher.motor.is_active
    unit.close()
    assert signal.getsignal(signum) == before


def break_beam(unit: RecordingUnit, at_us: int, for_us: int | None) -> None:
    beam = unit.card_sensor.pin
    beam.press(tick_for(unit, at_us))
    if for_us is not None:
        beam.release(tick_for(unit, at_us + for_us))


def test_the_sensor_counts_the_cards_out_and_stops_early(make_unit: MakeUnit) -> None:
    unit = make_unit(with_sensor(quick_pinmap(base_us=400_000, per_card_us=100_000,
                                              max_on_us=2_000_000)))
    start = unit.now_us()
    unit.launch((LaunchPart(Side.LEFT, 2),))
    break_beam(unit, start + 1_000, 2_000)
    break_beam(unit, start + 5_000, 2_000)
    [finished] = [i for i in wait_for(unit, LaunchFinished) if isinstance(i, LaunchFinished)]
    assert (finished.cards_counted, finished.jammed) == (2, False)
    [(_, length)] = on_time_s(motor_pins(unit)[0])
    assert length < 0.300  # planned 600 ms; stopped after the second card


def test_a_card_stuck_in_the_beam_is_a_jam(make_unit: MakeUnit) -> None:
    unit = make_unit(with_sensor(quick_pinmap(base_us=400_000, per_card_us=100_000,
                                              max_on_us=2_000_000), jam_us=60_000))
    unit.launch((LaunchPart(Side.RIGHT, 3),))
    start = unit.now_us()  # the motor is on once launch() returns: the card follows it
    break_beam(unit, start + 1_000, None)  # never clears
    [finished] = [i for i in wait_for(unit, LaunchFinished) if isinstance(i, LaunchFinished)]
    assert (finished.cards_counted, finished.jammed) == (1, True)
    [(_, length)] = on_time_s(motor_pins(unit)[1])
    assert length == cut_at(0.061)
    assert not unit.launcher.motor.is_active


def test_cards_missing_when_the_run_ends_is_a_jam(make_unit: MakeUnit) -> None:
    unit = make_unit(with_sensor(quick_pinmap(base_us=30_000, per_card_us=10_000)))
    start = unit.now_us()
    unit.launch((LaunchPart(Side.LEFT, 2),))
    break_beam(unit, start + 1_000, 2_000)  # one card of two
    [finished] = [i for i in wait_for(unit, LaunchFinished) if isinstance(i, LaunchFinished)]
    assert (finished.cards_counted, finished.jammed) == (1, True)
