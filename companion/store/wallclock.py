"""The wall clock that time boxes are kept on: microseconds since the Unix epoch.

A time box is written by one process (whoever runs the clock) and read by others, and must
outlive a reboot, so it cannot use a monotonic clock, which is per boot. The one place that
reads it is here, so tests and simulations pass their own `now_us` instead.
"""

from __future__ import annotations

import time
from datetime import UTC, datetime


def wall_clock_us() -> int:
    return time.time_ns() // 1000


def now() -> int:
    """The wall clock now, looked up on every call, so a simulation can stand in for it."""
    return wall_clock_us()


def iso(now_us: int) -> str:
    """A wall-clock instant as stored in the games file: ISO 8601, UTC, to the second."""
    return datetime.fromtimestamp(now_us / 1_000_000, UTC).isoformat(timespec="seconds")


def local_time(at_us: int) -> str:
    """A wall-clock instant as people read it: the hour and minute on this computer's local
    clock, 24-hour ("21:07"). The one format every screen, page and command shows (ISO 8601
    only in `--json`)."""
    return datetime.fromtimestamp(at_us / 1_000_000).astimezone().strftime("%H:%M")
