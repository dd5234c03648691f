"""The wall clock that time boxes are kept on: microseconds since the Unix epoch.

A time box is written by one process (whoever runs the clock) and read by others, and must
outlive a reboot, so it cannot use a monotonic clock, which is per boot. The one place that
reads it is here, so tests and simulations pass their own `now_us` instead.
"""

from __future__ import annotations

import time


def wall_clock_us() -> int:
    return time.time_ns() // 1000


def now() -> int:
    """The wall clock now, looked up on every call, so a simulation can stand in for it."""
    return wall_clock_us()
