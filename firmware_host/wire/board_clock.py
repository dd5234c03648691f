"""The host's copy of the board clock: wrapping 30-bit ticks in, one monotonic µs count out.

The board stamps edges with MicroPython's `ticks_us`, which wraps every 2^30 µs
(about 18 minutes) and restarts from zero when the board resets. The duel
engine needs one clock that only moves forward, so the host keeps a reference
pair (raw ticks, device µs) and unwraps every stamp against it by the signed
wrap-around difference; that is exact as long as the board is heard at least
every 2^29 µs, which heartbeats (ten a second) make certain.

`now_us` answers "what time is it on the board" between messages: the board
time of the last heartbeat reply plus the host time elapsed since it arrived.
It trails the true board time by that reply's one-way latency (well under a
millisecond over USB), never runs backwards, and only feeds the engine's
deadlines; fairness uses the board's own stamps. It never runs more than
MAX_AHEAD_US past the last time the board said, and every stamp the board sends
says a time: its hello and heartbeats, and an event's stamp (a press, the go
shown) too, so the cap never holds the estimate behind a stamp the host was
already handed (a heartbeat reply lost on the line, the press after it through).
An event's stamp lifts the cap only: it is when the edge happened, not when the
board sent it (a retried event is older), so it never moves the offset. A board
whose clock runs slower
than the host's (an emulated one on a loaded machine), or whose replies are late,
would otherwise let the engine's deadlines (the response timeout, the settle
time) pass by the host's clock while the board had not got there (seconds ahead,
measured on the emulated Pico under load). Heartbeats come ten times a second,
so on a real board the cap is never reached. After a board reset the new
session is placed just after the last time handed out, so the device clock
stays monotonic across resets.

Pure: every host time is passed in, nothing here reads a clock.
"""

from __future__ import annotations

from firmware_host.wire.codec import TICKS_PERIOD, ticks_diff

#: How far the estimate may run past the board's last word: a few heartbeats.
MAX_AHEAD_US = 250_000


class BoardClock:
    """Unwraps board ticks into device microseconds; see the module docstring."""

    def __init__(self) -> None:
        self._ref_raw: int | None = None
        self._ref_dev = 0
        self._offset_us = 0  # device µs minus host µs: before any board, the host's clock
        self._last_now = 0
        self._said_dev = 0  # the latest device time the board said (any stamp it sent)

    @property
    def synced(self) -> bool:
        return self._ref_raw is not None

    def start_session(self, raw: int, host_us: int) -> int:
        """A (new) board session began with the board at `raw` ticks; returns its device time."""
        raw %= TICKS_PERIOD
        # continue after everything already handed out (matters after a reset)
        device = max(self.now_us(host_us), self._ref_dev) + 1
        self._ref_raw, self._ref_dev = raw, device
        self._offset_us = device - host_us
        self._said_dev = device
        return device

    def unwrap(self, raw: int) -> int:
        """The device time of a board stamp taken within half a period of the last one seen.
        The board was at that time already: the cap on `now_us` moves up to it (every stamp
        the session hears comes through here, so this is the one place that says so)."""
        if self._ref_raw is None:
            raise ValueError("no board session yet")
        device = self._ref_dev + ticks_diff(raw % TICKS_PERIOD, self._ref_raw)
        if device > self._ref_dev:  # move the reference forward so it never goes stale
            self._ref_raw, self._ref_dev = raw % TICKS_PERIOD, device
        self._said_dev = max(self._said_dev, device)
        return device

    def observe(self, raw: int, host_us: int) -> int:
        """The board said "it is `raw` now" and the host heard it at `host_us`."""
        device = self.unwrap(raw)
        self._offset_us = device - host_us
        return device

    def now_us(self, host_us: int) -> int:
        """The board clock now, estimated; monotonic, at most MAX_AHEAD_US past the board's
        last word."""
        estimate = host_us + self._offset_us
        if self._ref_raw is not None:
            estimate = min(estimate, self._said_dev + MAX_AHEAD_US)
        self._last_now = max(self._last_now, estimate)
        return self._last_now

    def to_raw(self, device_us: int) -> int:
        """The board's ticks at a device time in the current session."""
        if self._ref_raw is None:
            raise ValueError("no board session yet")
        return (self._ref_raw + device_us - self._ref_dev) % TICKS_PERIOD
