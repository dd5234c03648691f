"""The GPIO self-test: every output is exercised and every input is echoed by name."""

from __future__ import annotations

import io
from collections.abc import Callable

from hardware.gpio_selftest import run_selftest
from showdown.contract.events import Side
from tests.hardware.conftest import quick_pinmap, with_sensor
from tests.hardware.mockpins import RecordingUnit, on_time_s, tick_for


class PressingOutput(io.StringIO):
    """Captures the self-test's text and, when it asks for presses, presses the switches."""

    def __init__(self, press: Callable[[], None]) -> None:
        super().__init__()
        self._press = press

    def write(self, text: str) -> int:
        written = super().write(text)
        if text.startswith("Press each paddle"):
            self._press()
        return written


def test_selftest_exercises_each_output_and_echoes_each_input(make_unit) -> None:
    unit: RecordingUnit = make_unit(with_sensor(quick_pinmap()))

    def press() -> None:
        now = unit.now_us()
        unit.paddles[Side.RIGHT].pin.press(tick_for(unit, now))
        unit.paddles[Side.LEFT].pin.press(tick_for(unit, now + 1_000))
        unit.timer_button.pin.press(tick_for(unit, now + 2_000))
        unit.card_sensor.pin.press(tick_for(unit, now + 3_000))

    out = PressingOutput(press)
    pauses: list[float] = []
    status = run_selftest(unit, out, pauses.append, echo_s=0.2)
    text = out.getvalue()

    assert status == 0, text
    echoed = [line.split("ms", 1)[1].strip() for line in text.splitlines() if " ms  " in line]
    assert sorted(echoed) == ["card beam broken", "left paddle", "right paddle", "timer button"]
    assert "self-test done" in text.splitlines()[-1]
    assert on_time_s(unit.go_light.pin) and not unit.go_light.is_lit
    for side in Side:
        assert on_time_s(unit.arrows[side].pin), f"the {side} arrow never lit"
    motor = unit.launcher.motor
    assert len(on_time_s(motor.forward_device.pin)) == 1
    assert len(on_time_s(motor.backward_device.pin)) == 1
    assert not motor.is_active
    assert text.count("\n  ") >= 7  # every sound named
    assert any(state for _, state in unit.buzzer.pwm_device.pin.states)
    assert pauses  # it waited between steps so a person can watch


def test_selftest_can_leave_the_motor_alone(make_unit) -> None:
    unit = make_unit()
    out = io.StringIO()
    assert run_selftest(unit, out, lambda s: None, echo_s=0, motor=False) == 0
    assert "launcher: skipped" in out.getvalue()
    assert on_time_s(unit.launcher.motor.forward_device.pin) == []
