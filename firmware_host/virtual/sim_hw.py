"""Simulated Pico hardware for the firmware core under CPython: pins, PWM, a wrapping clock.

It mirrors fw_pico.Hardware attribute for attribute, so `fw_core.Firmware`
cannot tell the difference. The clock is real time, offset and wrapped at
2^30 like MicroPython's `ticks_us`; a test can start it just before the wrap,
and can deliver an edge "as if" it happened at a chosen tick (the clock
answers that tick to the IRQ handler's first call, on that thread only).

The line itself can be made to fail: `garble` flips a bit in the CRC of the
next frame that matches, in either direction, so the receiver rejects it as
corrupt exactly as it would a frame hit by noise on a real cable.

A test that needs seconds of board time (the launcher's 4 s maximum on-time)
uses a manual clock instead: board time stands still until the test moves it
with `advance`, so the firmware's timing is exact and no test waits it out.

The watchdog is simulated on board time: once armed, `watchdog_expired()` is
true when the loop has not fed it for its timeout, and the virtual MCU then
resets the board as the Pico's would. `kill_loop` makes the firmware's loop
die on purpose, by an exception or by hanging, to prove exactly that.
"""

from __future__ import annotations

import contextlib
import errno
import os
import random
import select
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from firmware_host.wire.codec import TICKS_PERIOD


class SimClock:
    """Microseconds since the board "booted", plus `start_ticks`, wrapped like `ticks_us`."""

    def __init__(self, start_ticks: int = 0, *, manual: bool = False) -> None:
        self._t0_ns = time.monotonic_ns()
        self._start = start_ticks % TICKS_PERIOD
        self._local = threading.local()
        self.manual = manual
        self._manual_us = 0

    def elapsed_us(self) -> int:
        if self.manual:
            return self._manual_us
        return (time.monotonic_ns() - self._t0_ns) // 1000

    def advance(self, us: int) -> None:
        """Move a manual clock `us` microseconds forward."""
        if not self.manual:
            raise RuntimeError("only a manual clock can be advanced")
        if us < 0:
            raise ValueError("board time does not run backwards")
        self._manual_us += us

    def ticks_us(self) -> int:
        forced = getattr(self._local, "forced", None)
        if forced is not None:
            return int(forced)
        return (self._start + self.elapsed_us()) % TICKS_PERIOD

    def deliver_at(self, ticks: int, handler: Callable[[object], None], pin: object) -> None:
        """Run an IRQ handler with the clock reading `ticks` for this thread."""
        self._local.forced = ticks % TICKS_PERIOD
        try:
            handler(pin)
        finally:
            self._local.forced = None


class SimPin:
    """A GPIO pin: inputs idle high (pull-up) and are pressed by `press()`; outputs record."""

    IRQ_FALLING = 2

    def __init__(self, name: str, level: int = 1) -> None:
        self.name = name
        self._level = level
        self._handler: Callable[[object], None] | None = None

    def value(self, level: int | None = None) -> int:
        if level is not None:
            self._level = 1 if level else 0
        return self._level

    def irq(self, handler: Callable[[object], None] | None = None, trigger: int = 0,
            hard: bool = False) -> None:
        self._handler = handler

    def fall(self, clock: SimClock, at_ticks: int | None = None) -> None:
        """A falling edge (a press), stamped now or at `at_ticks`."""
        self._level = 0
        handler = self._handler
        if handler is not None:
            if at_ticks is None:
                handler(self)
            else:
                clock.deliver_at(at_ticks, handler, self)
        self._level = 1


class SimPWM:
    """A PWM output: remembers its frequency and duty."""

    def __init__(self, name: str, on_change: Callable[[], None] | None = None) -> None:
        self.name = name
        self._freq = 1000
        self._duty = 0
        self._on_change = on_change

    def freq(self, hz: int | None = None) -> int:
        if hz is not None:
            self._freq = hz
        return self._freq

    def duty_u16(self, duty: int | None = None) -> int:
        if duty is not None:
            self._duty = duty
            if self._on_change is not None:
                self._on_change()
        return self._duty


@dataclass
class LineFault:
    """Frames containing `match`, going `to_board` (else to the host), to corrupt: `left` more."""

    to_board: bool
    match: bytes
    left: int


class BoardReset(BaseException):
    """The board resets under the firmware (the RS command, or the watchdog).

    A BaseException, like SystemExit: on a Pico `machine.reset()` never returns, so
    nothing in the firmware (its guard around each frame included) may catch it.
    """


class LoopKilled(RuntimeError):
    """Raised inside the firmware's loop by `SimHardware.kill_loop("raise")`."""


KILL_RAISE = "raise"  # the loop dies from an exception
KILL_HANG = "hang"  # the loop stops turning (stuck), with everything left as it was


class SimHardware:
    """What fw_core needs, backed by a pseudo-terminal's master side and simulated parts."""

    FALLING = SimPin.IRQ_FALLING
    # The paddles' falling-edge bits in `paddle_edges()`, as in the RP2040's raw interrupt
    # byte that fw_pico reads (GP2 and GP3 in INTR0).
    EDGE_LEFT = 0x04
    EDGE_RIGHT = 0x40

    def __init__(
        self,
        master_fd: int,
        clock: SimClock,
        *,
        card_sensor: bool = True,
        card_period_us: int = 50_000,
        by_watchdog: bool = False,
    ) -> None:
        self.turned = threading.Condition()  # notified at every turn of the firmware's loop
        self.turns = 0
        self.clock = clock
        self.ticks_us = clock.ticks_us
        self._edges = 0  # the paddles' pending edges, as the chip's raw interrupt byte
        self.paddle_left = SimPin("paddle_left")
        self.paddle_right = SimPin("paddle_right")
        self.button = SimPin("button")
        self.card_sensor = SimPin("card_sensor") if card_sensor else None
        self.countdown_leds = [SimPin(f"countdown{i}", 0) for i in range(4)]
        self.arrow_left = SimPin("arrow_left", 0)
        self.arrow_right = SimPin("arrow_right", 0)
        self.go_led = SimPin("go_led", 0)
        self._motor_was_on = False
        # how many times the motor went from off to on; a two-part launch turning
        # around counts twice (the firmware's `launches` counts launch commands run)
        self.motor_starts = 0
        self.motor_a = SimPWM("motor_in1", self._motor_changed)
        self.motor_b = SimPWM("motor_in2", self._motor_changed)
        self.buzzer = SimPWM("buzzer")
        self.jammed = False  # the card sensor stops seeing cards
        self.card_period_us = card_period_us
        self._fd = master_fd
        self._stop = threading.Event()
        self._by_watchdog = by_watchdog
        self.watchdog_armed = False
        self.watchdog_ms = 0
        self._fed_us = 0  # board time (elapsed µs) the loop last fed the watchdog
        self._kill: str | None = None
        self.stuck = threading.Event()  # set once a hanging loop is stuck for good
        self.kbd_intr = True
        self.motor_on_since_us: int | None = None
        self.max_motor_run_us = 0  # the longest the motor ever ran without a stop
        self.motor_switches: list[tuple[int, bool]] = []  # (board ticks, running) at each change
        self._next_card_us = 0
        self._line_lock = threading.Lock()
        self._line_faults: list[LineFault] = []
        self.garbled: list[bytes] = []  # every frame garbled on the line, as it was sent

    # -- the paddles' interrupts, as the RP2040 and MicroPython run them --

    def paddle_edges(self) -> int:
        """The paddles' edges pending now (the firmware's IRQ handlers read it)."""
        return self._edges

    def press_paddles(self, left: bool, right: bool, at_ticks: int | None = None) -> None:
        """Falling edges on the paddles at one instant: both pending at once, then each
        pin's handler in pin order, its own edge acknowledged just before (MicroPython's
        gpio_irq), so the first handler sees the second edge still pending."""
        pins = [(pin, bit) for pin, bit, on in ((self.paddle_left, self.EDGE_LEFT, left),
                                                 (self.paddle_right, self.EDGE_RIGHT, right))
                if on]
        for _, bit in pins:
            self._edges |= bit
        for pin, bit in pins:
            self._edges &= ~bit
            pin.fall(self.clock, at_ticks)

    # -- the firmware's view --

    def read_into(self, buf: bytearray, wait_ms: int) -> int:
        """The host's bytes into `buf` (as many as it holds at most), waiting up to `wait_ms`
        for the first; how many, as the Pico's Hardware.read_into."""
        if self._kill == KILL_RAISE:
            self._kill = None
            raise LoopKilled("the firmware's loop was killed on purpose")
        if self._kill == KILL_HANG:
            self.stuck.set()
            self._stop.wait()  # stuck until the board resets (the watchdog) or is unplugged
            raise BoardReset()
        with self.turned:  # the firmware calls read_into once per turn of its loop
            self.turns += 1
            self.turned.notify_all()
        self._simulate_motor()
        try:
            ready, _, _ = select.select([self._fd], [], [], wait_ms / 1000)
            if not ready:
                return 0
            data = self._through_line(True, os.read(self._fd, len(buf)))
            buf[: len(data)] = data
            return len(data)
        except ValueError:  # the pty was closed under us (unplugged)
            return 0
        except OSError as exc:  # no host has the port open right now: like an idle USB line
            if exc.errno in (errno.EIO, errno.EAGAIN, errno.EBADF):
                self._stop.wait(wait_ms / 1000)
                return 0
            raise

    def write(self, data: bytes | bytearray, n: int) -> None:
        # nobody listening, or the buffer is full: USB CDC drops it too
        data = self._through_line(False, bytes(data[:n]))
        with contextlib.suppress(OSError):
            os.write(self._fd, data)

    def running(self) -> bool:
        return not self._stop.is_set()

    def stop(self) -> None:
        self._stop.set()

    def arm_watchdog(self, timeout_ms: int) -> None:
        if not self.watchdog_armed:  # like machine.WDT: once armed, it stays as it is
            self.watchdog_armed = True
            self.watchdog_ms = timeout_ms
            self._fed_us = self.clock.elapsed_us()

    def wdt_feed(self) -> None:
        if self.watchdog_armed:
            self._fed_us = self.clock.elapsed_us()

    def watchdog_expired(self) -> bool:
        """True when the armed watchdog went unfed for its timeout, on board time."""
        return (self.watchdog_armed and not self._stop.is_set()
                and self.clock.elapsed_us() - self._fed_us >= self.watchdog_ms * 1000)

    @property
    def watchdog_fed_ticks(self) -> int:
        """The board tick at which the loop last fed the watchdog."""
        return (self.clock.ticks_us() - (self.clock.elapsed_us() - self._fed_us)) % TICKS_PERIOD

    def kill_loop(self, how: str = KILL_RAISE) -> None:
        """Make the firmware's loop die at its next turn: by an exception, or by hanging."""
        if how not in (KILL_RAISE, KILL_HANG):
            raise ValueError(f"kill_loop: {how!r} is neither {KILL_RAISE!r} nor {KILL_HANG!r}")
        self._kill = how

    def power_off_outputs(self) -> None:
        """What a reset does to the pins: every output stops driving (the motor stops)."""
        self.motor_a.duty_u16(0)
        self.motor_b.duty_u16(0)
        self.buzzer.duty_u16(0)

    def reset_by_watchdog(self) -> bool:
        return self._by_watchdog

    def reset(self) -> None:
        raise BoardReset()

    def random_id(self) -> int:
        return random.getrandbits(30)

    def set_kbd_intr(self, on: bool) -> None:
        self.kbd_intr = on

    # -- what the simulation adds --

    def garble(self, match: bytes, *, to_board: bool, frames: int = 1) -> None:
        """Corrupt the next `frames` frames that contain `match`, toward the board or the host."""
        with self._line_lock:
            self._line_faults.append(LineFault(to_board, match, frames))

    def _through_line(self, to_board: bool, data: bytes) -> bytes:
        with self._line_lock:
            faults = [f for f in self._line_faults if f.to_board is to_board and f.left > 0]
            if not faults:
                return data
            pieces = data.split(b"\n")
            for i, piece in enumerate(pieces):
                star = piece.rfind(b"*")
                fault = next((f for f in faults if f.left > 0 and f.match in piece), None)
                if fault is None or star < 0 or len(piece) < star + 5:
                    continue
                fault.left -= 1
                self.garbled.append(piece + b"\n")
                crc = int(piece[star + 1 : star + 5], 16) ^ 1  # one bit flipped on the wire
                pieces[i] = piece[: star + 1] + b"%04X" % crc + piece[star + 5 :]
            return b"\n".join(pieces)

    def _motor_changed(self) -> None:
        on = self.motor_running
        if on and not self._motor_was_on:
            self.motor_starts += 1
        if on != self._motor_was_on:
            self.motor_switches.append((self.clock.ticks_us(), on))
        self._motor_was_on = on

    @property
    def motor_running(self) -> bool:
        return self.motor_a.duty_u16() > 0 or self.motor_b.duty_u16() > 0

    def _simulate_motor(self) -> None:
        """Track motor on-time, and pulse the card sensor while it runs (unless jammed)."""
        now = self.clock.elapsed_us()
        if self.motor_running:
            if self.motor_on_since_us is None:
                self.motor_on_since_us = now
                self._next_card_us = now + 2 * self.card_period_us
            self.max_motor_run_us = max(self.max_motor_run_us, now - self.motor_on_since_us)
            if self.card_sensor is not None and not self.jammed and now >= self._next_card_us:
                self._next_card_us = now + self.card_period_us
                self.card_sensor.fall(self.clock)
        else:
            self.motor_on_since_us = None
