"""Test helpers: gpiozero mock pins that deliver edges with chosen ticks, in a chosen order.

gpiozero's MockPin stamps an edge with the factory's clock when the test
drives it; a real kernel stamps it when it happened, which can be well before
Python hears of it. `EdgePin` lets a test say both: the tick it happened at,
and (by the order of calls) when it is delivered.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field

from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.pins.pi import PiPin

from hardware.gpio import GpioUnit
from showdown.contract.events import ServiceEvent, UnitInput


class EdgePin(MockPWMPin):
    """A mock pin (PWM capable, so any device fits) whose edges carry the tick the test picks."""

    def edge(self, state: bool, ticks: float) -> None:
        """The pin changed to `state` at `ticks`; delivered now, from the calling thread."""
        assert self._function == "input", f"{self!r} is not an input"
        if self._change_state(state) and self._when_changed is not None:
            PiPin._call_when_changed(self, ticks, state)

    def press(self, ticks: float) -> None:
        """A switch to ground closed (active low) at `ticks`."""
        self.edge(False, ticks)

    def release(self, ticks: float) -> None:
        self.edge(True, ticks)


def edge_factory() -> MockFactory:
    return MockFactory(pin_class=EdgePin)


def tick_for(unit: GpioUnit, t_us: int) -> float:
    """The factory tick at which the unit's clock reads `t_us`."""
    now_ticks = unit.factory.ticks()
    now_us = unit.clock.edge_us(now_ticks)
    return float(now_ticks + (t_us - now_us) / 1_000_000)


def on_time_s(pin: EdgePin) -> list[tuple[float, float]]:
    """Each stretch a (PWM) output spent on, as (start, length) in seconds since the first record.

    MockPin records (seconds since the previous change, new state).
    """
    stretches: list[tuple[float, float]] = []
    t = 0.0
    on_since: float | None = None
    for delta, state in pin.states:
        t += delta
        if state and on_since is None:
            on_since = t
        elif not state and on_since is not None:
            stretches.append((on_since, t - on_since))
            on_since = None
    return stretches


class _Within:
    """Equal to a run time that lasted at least `planned_s` (less a timer's slack) and
    ended within `late_s` of it: a loaded machine may stop a motor late, never early."""

    def __init__(self, planned_s: float, late_s: float = 0.1) -> None:
        self.planned_s, self.late_s = planned_s, late_s

    def __eq__(self, other: object) -> bool:
        return isinstance(other, float) and (
            self.planned_s - 0.002 <= other <= self.planned_s + self.late_s)

    def __repr__(self) -> str:
        return f"{self.planned_s:.3f} s (up to {self.late_s:.3f} s late)"


def within(planned_s: float) -> _Within:
    return _Within(planned_s)


class _CutAt(_Within):
    """Equal to a run cut at an instant fixed before the motor started (`limit_s` after the
    launch was asked for): the watchdog's maximum on-time, or a jam timed from the stamp of
    a card stuck in the beam. Never later than that instant (plus a loaded machine's
    lateness), and well past half of it.

    The watchdog's timer starts just before the motor does, so the motor can never outrun
    the limit; the time between the two (a thread switch, milliseconds on a busy machine)
    comes off the measured run. The run being cut there, not by its own end (planned far
    longer) nor at once, is what the lower bound tells apart."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, float) and (
            self.planned_s / 2 <= other <= self.planned_s + self.late_s)


def cut_at(limit_s: float) -> _Within:
    return _CutAt(limit_s)


class RecordingUnit(GpioUnit):
    """A GpioUnit that lets a test wait until the service has read a given input."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.read: list[tuple[int, UnitInput]] = []
        self._read_cond = threading.Condition()

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        items = super().read_inputs(timeout_s)
        if items:
            now = self.now_us()
            with self._read_cond:
                self.read.extend((now, item) for item in items)
                self._read_cond.notify_all()
        return items

    def wait_read(self, count: int, timeout_s: float = 5.0) -> None:
        with self._read_cond:
            assert self._read_cond.wait_for(lambda: len(self.read) >= count, timeout_s), (
                f"the service read {len(self.read)} inputs, expected {count}")


@dataclass
class EventLog:
    """A service listener that lets a test wait for an event of a given type."""

    events: list[ServiceEvent] = field(default_factory=list)
    cond: threading.Condition = field(default_factory=threading.Condition)

    def __call__(self, event: ServiceEvent) -> None:
        with self.cond:
            self.events.append(event)
            self.cond.notify_all()

    def wait_for(self, kind: type, timeout_s: float = 5.0) -> ServiceEvent:
        with self.cond:
            found = self.cond.wait_for(lambda: self._first(kind) is not None, timeout_s)
            assert found, f"no {kind.__name__} within {timeout_s} s; got {self.events}"
            event = self._first(kind)
            assert event is not None
            return event

    def _first(self, kind: type) -> ServiceEvent | None:
        return next((e for e in self.events if isinstance(e, kind)), None)

    def of(self, kind: type) -> Iterator[ServiceEvent]:
        return (e for e in list(self.events) if isinstance(e, kind))
