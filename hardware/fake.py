"""An in-memory Showdown Unit on a virtual clock, for tests and simulations.

Time only moves when the service waits: `read_inputs(timeout)` jumps the clock
to the next scripted arrival (or by `timeout`), so a whole duel runs in
microseconds of real time and every run is reproducible. Each input is
scripted with the stamp the hardware would give it and, separately, the time
it reaches the service, which is how tests and the simulator reproduce late,
out-of-order delivery. The script is the hardware's timing; an input that has arrived
goes on the unit's input queue (`showdown.contract.unit.InputQueue`), as every adapter's does.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

from showdown.contract.events import Beep, LaunchFinished, LaunchPart, Side, UnitInput
from showdown.contract.unit import ShowdownUnit


@dataclass(frozen=True, slots=True)
class Call:
    """One thing the service told the unit, and when (unit clock)."""

    at_us: int
    name: str
    args: tuple[object, ...] = ()


@dataclass
class FakeUnit(ShowdownUnit):
    """A unit whose inputs are scripted and whose outputs are recorded in `calls`."""

    start_us: int = 0
    #: How long after the service asks for "go" the light really comes on.
    go_latency_us: int = 0
    #: How long a launch takes before `LaunchFinished` is reported.
    launch_us: int = 300_000
    name: str = "fake"
    calls: list[Call] = field(default_factory=list)

    def __post_init__(self) -> None:
        super().__init__()
        self._now = self.start_us
        self._queue: list[tuple[int, int, UnitInput]] = []
        self._order = itertools.count()
        self.launches: list[tuple[LaunchPart, ...]] = []
        self.motor_running = False
        self.closed = False

    # -- scripting --

    def deliver(self, item: UnitInput, arrive_us: int | None = None) -> None:
        """Queue `item` to reach the service at `arrive_us` (default: its own stamp)."""
        when = item.t_us if arrive_us is None else arrive_us
        heapq.heappush(self._queue, (max(when, 0), next(self._order), item))
        self.wake()

    def pending(self) -> int:
        return len(self._queue)

    def advance_to(self, t_us: int) -> None:
        """Move the virtual clock forward (never back)."""
        self._now = max(self._now, t_us)

    # -- ShowdownUnit --

    def now_us(self) -> int:
        return self._now

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        limit = self._now + max(0, round(timeout_s * 1_000_000))
        if self._queue and self._queue[0][0] <= limit:
            self._now = max(self._now, self._queue[0][0])
            while self._queue and self._queue[0][0] <= self._now:
                item = heapq.heappop(self._queue)[2]
                if isinstance(item, LaunchFinished):
                    self.motor_running = False
                self.inputs.put(item)
        else:
            self._now = limit
        return self.inputs.take(0)  # what arrived, and the wake it consumed

    def _record(self, name: str, *args: object) -> None:
        self.calls.append(Call(self._now, name, args))

    def show_idle(self) -> None:
        self._record("show_idle")

    def show_loaded(self, cards: int) -> None:
        self._record("show_loaded", cards)

    def start_countdown(self, countdown_us: int) -> None:
        self._record("start_countdown", countdown_us)

    def show_countdown(self, remaining_us: int, total_us: int) -> None:
        self._record("show_countdown", remaining_us, total_us)

    def show_go(self) -> int:
        stamp = self._now + self.go_latency_us
        self._now = stamp
        self._record("show_go")
        return stamp

    def freeze_countdown(self) -> None:
        self._record("freeze_countdown")

    def set_arrow(self, side: Side | None) -> None:
        self._record("set_arrow", side)

    def beep(self, kind: Beep) -> None:
        self._record("beep", kind)

    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        self._record("launch", parts)
        self.launches.append(parts)
        self.motor_running = True
        cards = sum(p.cards for p in parts)
        self.deliver(LaunchFinished(self._now + self.launch_us, cards_counted=cards))

    def stop_launcher(self) -> None:
        self._record("stop_launcher")
        self.motor_running = False

    def close(self) -> None:
        self.stop_launcher()
        self.closed = True

    def names(self) -> list[str]:
        """The names of the calls so far, in order: handy in assertions."""
        return [c.name for c in self.calls]


def open_unit(args: object) -> FakeUnit:
    """`--device fake`: a unit with nobody at it, for trying the service out."""
    return FakeUnit()
