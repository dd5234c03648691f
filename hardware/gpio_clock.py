"""One microsecond clock for the GPIO unit, built on the pin factory's own ticks.

Why: gpiozero hands every edge callback the tick at which the edge happened
(under lgpio the kernel's CLOCK_MONOTONIC stamp, under pigpio the daemon's
32-bit microsecond counter, under MockFactory `time.monotonic()`). Ticks are
opaque: the only safe operation is the factory's `ticks_diff(later, earlier)`,
which is also how a wrapping counter is unwrapped. Measuring "now" and the
edges with the same ticks keeps the go stamp and the paddle stamps on one
clock, so a player who saw the light is never judged early.

The arithmetic is pure: `TickClock` is given the `ticks` and `ticks_diff`
functions and never reads a clock of its own.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

Ticks = Any  # opaque: a float of seconds, an int of microseconds, ...

#: How far the reference point may fall behind before it is moved up. Far
#: below pigpio's 71-minute wrap; the error each move adds is under 1 µs.
REBASE_S = 10.0


class TickClock:
    """Integer microseconds on the pin factory's tick clock, unwrapped.

    `now_us()` is monotonic; `edge_us(ticks)` converts an edge tick that was
    taken before the call (the normal case) by measuring back from "now", so a
    counter that wrapped since the reference point is still read correctly.
    """

    def __init__(self, ticks: Callable[[], Ticks], ticks_diff: Callable[[Ticks, Ticks], float],
                 start_us: int = 0) -> None:
        self._ticks = ticks
        self._diff = ticks_diff
        self._lock = threading.Lock()
        self._ref_ticks = ticks()
        self._ref_us = start_us
        self._last_us = start_us

    def _at(self, now_ticks: Ticks) -> int:
        """Microseconds at `now_ticks`, which must not precede the reference point."""
        elapsed_s = self._diff(now_ticks, self._ref_ticks)
        now_us = self._ref_us + round(elapsed_s * 1_000_000)
        if elapsed_s >= REBASE_S:
            self._ref_ticks, self._ref_us = now_ticks, now_us
        self._last_us = max(self._last_us, now_us)
        return self._last_us

    def now_us(self) -> int:
        with self._lock:
            return self._at(self._ticks())

    def edge_us(self, edge_ticks: Ticks) -> int:
        """The stamp of an edge that happened at `edge_ticks` (already past, or just about)."""
        with self._lock:
            now_ticks = self._ticks()
            now_us = self._at(now_ticks)
            return now_us - round(self._diff(now_ticks, edge_ticks) * 1_000_000)


def factory_clock(factory: Any) -> TickClock:
    """A `TickClock` on a gpiozero pin factory's `ticks()`/`ticks_diff()`."""
    return TickClock(factory.ticks, factory.ticks_diff)
