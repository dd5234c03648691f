"""Fixtures for the GPIO unit tests: a mock pin factory and units built on it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.gpio import GpioUnit
from hardware.pinmap import CardSensorPins, PinMap, load_pinmap
from tests.hardware.mockpins import RecordingUnit, edge_factory


@pytest.fixture
def factory(request: pytest.FixtureRequest) -> Iterator[MockFactory]:
    if request.config.getoption("--real-gpio"):
        pytest.skip("these tests drive edges by hand; they run under MockFactory only")
    f = edge_factory()
    yield f
    f.reset()


def quick_pinmap(**launcher: int) -> PinMap:
    """The default map with launch times short enough for tests (milliseconds in, µs out)."""
    base = load_pinmap()
    times = {"base_us": 20_000, "per_card_us": 20_000, "pause_us": 20_000,
             "max_on_us": 1_000_000} | launcher
    return replace(base, launcher=replace(base.launcher, **times))


def with_sensor(pinmap: PinMap, jam_us: int = 60_000, run_on_us: int = 5_000) -> PinMap:
    return replace(pinmap, card_sensor=CardSensorPins(16, True, jam_us=jam_us,
                                                      run_on_us=run_on_us))


@pytest.fixture
def make_unit(factory: MockFactory) -> Iterator[Callable[..., RecordingUnit]]:
    units: list[GpioUnit] = []

    def make(pinmap: PinMap | None = None) -> RecordingUnit:
        unit = RecordingUnit(pinmap or quick_pinmap(), factory)
        units.append(unit)
        return unit

    yield make
    for unit in units:
        unit.close()
