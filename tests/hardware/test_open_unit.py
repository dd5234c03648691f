"""`--device gpio` through the device registry, headless, with the default or a given pin map."""

from __future__ import annotations

import argparse
import signal
from pathlib import Path

import pytest
from gpiozero import Device

from hardware.devices import open_unit
from hardware.gpio import GpioUnit
from hardware.pinmap import DEFAULT_PINMAP
from showdown.contract.events import ConfigError


@pytest.fixture
def mock_pins(factory, monkeypatch):
    monkeypatch.setattr(Device, "pin_factory", factory)
    return factory


def test_open_unit_uses_the_default_map_and_leaves_the_signals_alone(mock_pins) -> None:
    """An adapter offers close(); the command that runs the table owns the signals."""
    before = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    unit = open_unit("gpio", argparse.Namespace(pins=None))
    try:
        assert isinstance(unit, GpioUnit) and unit.stamps_edges
        assert unit.pinmap.source == str(DEFAULT_PINMAP)
        assert {s: signal.getsignal(s) for s in before} == before
    finally:
        unit.close()
    assert {s: signal.getsignal(s) for s in before} == before


def test_open_unit_reads_the_pins_option(mock_pins, tmp_path: Path) -> None:
    custom = tmp_path / "table.toml"
    custom.write_text(DEFAULT_PINMAP.read_text().replace("pin = 23 ", "pin = 16 "))
    unit = open_unit("gpio", argparse.Namespace(pins=str(custom)))
    try:
        assert unit.pinmap.go_light == 16
        unit.go_light.on()
        assert mock_pins.pin(16).state
    finally:
        unit.close()


def test_a_pin_taken_by_another_device_is_one_line(mock_pins) -> None:
    from gpiozero import LED

    squatter = LED(23, pin_factory=mock_pins)
    try:
        with pytest.raises(ConfigError, match="cannot open the go light on its pin"):
            open_unit("gpio", argparse.Namespace(pins=None))
        assert not mock_pins.pin(5).state  # what had been opened was closed again
    finally:
        squatter.close()


def test_a_card_sensor_that_cannot_open_releases_the_motor_pins(mock_pins) -> None:
    """The motor is built before the sensor: a failing sensor must not leave it claimed."""
    from gpiozero import Button, Motor

    from tests.hardware.conftest import quick_pinmap, with_sensor

    pinmap = with_sensor(quick_pinmap())
    squatter = Button(pinmap.card_sensor.pin, pin_factory=mock_pins)
    try:
        with pytest.raises(ConfigError, match="cannot open the card sensor"):
            GpioUnit(pinmap, mock_pins)
        lp = pinmap.launcher
        motor = Motor(lp.forward, lp.backward, enable=lp.enable, pwm=lp.pwm,
                      pin_factory=mock_pins)  # would raise if the pins were still claimed
        motor.close()
    finally:
        squatter.close()
