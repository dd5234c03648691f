"""The card launcher: a DC motor with rollers behind an H-bridge, and its safety net.

Why it is built this way:

* The motor is the one part of the table that can hurt (a flung deck, a burnt
  driver), so it carries its own hard maximum on-time that does not depend on
  the service loop: a `threading.Timer` stops it, and every wait of the launch
  thread and every `check()` from the unit repeats the test against the clock.
* The first run starts in the caller's thread, so the delay from the verdict
  to the rollers turning is a function call, not a thread switch.
* What to run and for how long is decided by the pure `plan_launch`; the
  `Launcher` only carries it out and reports `LaunchFinished` (and a
  `UnitFault` when it had to cut the motor) through the `report` callback.
* An optional card sensor (an IR break beam at the mouth) counts cards out:
  the run stops once its cards are counted, and a beam blocked for too long,
  or a run that ends with cards missing, is reported as a jam.
"""

from __future__ import annotations

import collections
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.pinmap import CardSensorPins, LauncherPins
from showdown.contract.events import LaunchFinished, LaunchPart, Side, UnitFault, UnitInput

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Run:
    """One spin of the rollers: which way, for how long, and how many cards should leave."""

    side: Side
    forward: bool
    cards: int
    duration_us: int


def plan_launch(parts: tuple[LaunchPart, ...], config: LauncherPins) -> tuple[Run, ...]:
    """Turn launch parts into motor runs: a base time plus a time per card, each way."""
    return tuple(
        Run(p.side, config.side_is_forward(p.side), p.cards,
            config.base_us + config.per_card_us * p.cards)
        for p in parts if p.cards > 0
    )


@dataclass(eq=False)
class _Job:
    runs: tuple[Run, ...]
    started_us: int = 0
    stop: threading.Event = field(default_factory=threading.Event)
    changed: threading.Event = field(default_factory=threading.Event)
    counted: int = 0  # cards counted in this launch
    part_counted: int = 0  # ... in the current run
    blocked_since_us: int | None = None
    jammed: bool = False
    tripped: bool = False
    fault: str | None = None
    watchdog: threading.Timer | None = None


class Launcher:
    """Runs `Motor` launches one at a time and guarantees the motor stops.

    `motor` is a gpiozero `Motor` (anything with forward/backward/stop/close);
    `now_us` is the unit's clock; `report` receives `LaunchFinished` and
    `UnitFault` from whichever thread finished the launch.
    """

    def __init__(self, motor: Any, config: LauncherPins, now_us: Callable[[], int],
                 report: Callable[[UnitInput], None],
                 sensor: CardSensorPins | None = None) -> None:
        self.motor = motor
        self.config = config
        self.sensor = sensor
        self._now = now_us
        self._report = report
        # Re-entrant: stop() may run from a signal handler on a thread that holds it.
        self._lock = threading.RLock()
        self._job: _Job | None = None
        self._pending: collections.deque[tuple[LaunchPart, ...]] = collections.deque()
        self._thread: threading.Thread | None = None
        self._closed = False
        self._motor_closed = False

    # -- commands --

    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        """Start launching now (or after the launch in progress); returns at once."""
        runs = plan_launch(parts, self.config)
        if not runs:
            return
        with self._lock:
            if self._closed:
                raise RuntimeError("the launcher is closed")
            if self._job is not None:
                self._pending.append(parts)
                return
            job = self._begin(runs)
            self._thread = threading.Thread(
                target=self._run_jobs, args=(job,), name="launcher", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        """Stop the motor now and drop any queued launch; safe from any thread, any time."""
        with self._lock:
            self._pending.clear()
            job = self._job
            if job is not None:
                job.stop.set()
                job.changed.set()
            self._motor_stop()

    def _motor_stop(self) -> None:
        with self._lock:
            if not self._motor_closed:
                self.motor.stop()

    def check(self, now_us: int | None = None) -> None:
        """The absolute test of the maximum on-time; the unit calls it on every read."""
        with self._lock:
            job = self._job
            if job is None:
                return
            now = self._now() if now_us is None else now_us
            if now - job.started_us >= self.config.max_on_us:
                self._trip(job)

    def card_edge(self, t_us: int, blocked: bool) -> None:
        """The card sensor's beam was broken (`blocked`) or cleared at `t_us`."""
        with self._lock:
            job = self._job
            if job is None:
                return
            if blocked:
                job.counted += 1
                job.part_counted += 1
                job.blocked_since_us = t_us
            else:
                job.blocked_since_us = None
            job.changed.set()

    def close(self) -> None:
        """Stop the motor, wait briefly for the launch thread, and release the driver pins."""
        with self._lock:
            self._closed = True
        self.stop()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)
        with self._lock:
            self._motor_stop()
            if not self._motor_closed:  # a second close (unit close, then cleanup) is harmless
                self._motor_closed = True
                self.motor.close()

    # -- the launch thread --

    def _begin(self, runs: tuple[Run, ...]) -> _Job:
        """Start a job's first run; called with the lock held.

        The on-time is counted from the moment the motor turns on: the clock is read and
        the watchdog started only after the driver pins are set. Counting from before
        (starting a timer thread can take milliseconds on a busy Pi) would cut every
        launch short by that much and eat into the cards' time.
        """
        job = _Job(runs)
        self._job = job
        try:
            self._drive(job, runs[0])
            job.started_us = self._now()
            job.watchdog = threading.Timer(self.config.max_on_us / 1_000_000, self._trip,
                                           (job,))
            job.watchdog.daemon = True
            job.watchdog.start()
        except BaseException:
            self._motor_stop()  # no watchdog, no launch: the motor must not stay on
            self._job = None
            raise
        return job

    def _drive(self, job: _Job, run: Run) -> bool:
        with self._lock:
            if job.stop.is_set():
                return False
            job.part_counted = 0
            job.blocked_since_us = None
            speed = self.config.speed
            if run.forward:
                self.motor.forward(speed)
            else:
                self.motor.backward(speed)
            return True

    def _trip(self, job: _Job) -> None:
        with self._lock:
            self._motor_stop()
            if self._job is job and not job.stop.is_set():
                job.tripped = True
                job.stop.set()
                job.changed.set()

    def _run_jobs(self, job: _Job) -> None:
        while True:
            self._run_one(job)
            with self._lock:
                self._job = None
                if not self._pending or self._closed:
                    self._pending.clear()
                    return
                job = self._begin(plan_launch(self._pending.popleft(), self.config))

    def _run_one(self, job: _Job) -> None:
        try:
            for index, run in enumerate(job.runs):
                if index > 0:
                    self._motor_stop()
                    if job.stop.wait(self.config.pause_us / 1_000_000):
                        break
                    if not self._drive(job, run):
                        break
                self._spin(job, run)
                if job.stop.is_set() or job.jammed:
                    break
        except Exception as exc:  # the motor must stop whatever went wrong
            log.exception("launcher failed")
            job.fault = f"launcher failed ({exc}); motor stopped"
        finally:
            with self._lock:
                self._motor_stop()
                if job.watchdog is not None:
                    job.watchdog.cancel()
            self._finish(job)

    def _spin(self, job: _Job, run: Run) -> None:
        """Wait out one run: its time, its cards counted, a jam, or a stop."""
        deadline = self._now() + run.duration_us
        sensor = self.sensor
        while True:
            job.changed.clear()
            now = self._now()
            self.check(now)
            if job.stop.is_set():
                return
            wait_until = deadline
            if sensor is not None:
                with self._lock:
                    counted, blocked = job.part_counted, job.blocked_since_us
                if counted >= run.cards and blocked is None:
                    job.stop.wait(sensor.run_on_us / 1_000_000)
                    return
                if blocked is not None:
                    if now - blocked >= sensor.jam_us:
                        job.jammed = True
                        return
                    wait_until = min(wait_until, blocked + sensor.jam_us)
                if now >= deadline and counted < run.cards:
                    job.jammed = True  # time is up and cards are missing: stuck in the rollers
                    return
            if now >= deadline:
                return
            wait_until = min(wait_until, job.started_us + self.config.max_on_us)
            job.changed.wait(max(0.0, (wait_until - now) / 1_000_000))

    def _finish(self, job: _Job) -> None:
        now = self._now()
        counted = job.counted if self.sensor is not None else None
        self._report(LaunchFinished(now, counted, job.jammed))
        if job.tripped:
            limit_ms = self.config.max_on_us // 1000
            self._report(UnitFault(
                now, f"launcher stopped at its maximum on-time of {limit_ms} ms: "
                     "check the rollers and the launcher times in the pin map",
                abort_duel=False))
        if job.fault is not None:
            self._report(UnitFault(now, job.fault, abort_duel=False))
