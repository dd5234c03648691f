"""The virtual microcontroller: the real firmware core on a thread, speaking over a pseudo-terminal.

`VirtualMCU.start()` opens a pty pair, puts its slave side in raw mode and
serves it at `port` (a symlink when `link_path` is given, so "unplug and
replug" can re-point the same name the host keeps opening). Scripted inputs
(`press`, `press_button`) fire the firmware's IRQ handlers, optionally "as
if" at a chosen board tick. `unplug()`/`replug()` close the pty and power the
board off and on; `reset()` restarts the firmware and its clock on the same
port, like the reset button.

With `manual_clock=True` the board's clock stands still until `advance()`
moves it (see sim_hw.py), and `wait_until()` lets a test wait, on the
firmware loop's own turns, for the board to have acted on the new time.

Like the Pico, the board has a watchdog: once a host has said hello, a loop
that stops turning for WATCHDOG_MS of board time (hung, or dead from an
exception) resets the board; the reset stops the motor, and the new boot
says `FT 3`. A loop that dies from an exception turns its outputs off first,
as main.py does on the Pico. `kill_loop()` does either on purpose.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from firmware_host.firmware.fw_core import Firmware
from firmware_host.virtual.sim_hw import KILL_RAISE, BoardReset, SimClock, SimHardware
from firmware_host.wire import codec

log = logging.getLogger(__name__)
WATCHDOG_POLL_S = 0.005  # how often the simulated watchdog looks at board time
MANUAL_GRACE_S = 1.0  # on a manual clock: real time a turning loop has to feed after a jump


class VirtualMCU:
    """One simulated Showdown Unit board; see the module docstring."""

    def __init__(
        self,
        link_path: str | os.PathLike[str] | None = None,
        *,
        start_ticks: int = 0,
        version: int = codec.VERSION,
        card_sensor: bool = True,
        manual_clock: bool = False,
    ) -> None:
        self.manual_clock = manual_clock
        self.link_path = Path(link_path) if link_path is not None else None
        self.start_ticks = start_ticks
        self.version = version
        self.card_sensor = card_sensor
        self.boots = 0
        self.hw: SimHardware | None = None
        self.firmware: Firmware | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.RLock()
        self._booted = threading.Condition(self._lock)
        self._reset_next = False
        self._by_watchdog_next = False
        self.watchdog_resets = 0
        self.loop_deaths = 0  # the firmware's loop ended by an exception
        self._dog: threading.Thread | None = None
        self._dog_stop = threading.Event()
        self._earlier_motor_starts = 0
        self._earlier_launches = 0

    # -- lifetime --

    @property
    def port(self) -> str:
        """The path a host opens: the symlink if there is one, else the pty's own name."""
        if self.link_path is not None:
            return str(self.link_path)
        assert self._slave is not None, "start() the virtual board first"
        return os.ttyname(self._slave)

    def start(self, start_ticks: int | None = None) -> VirtualMCU:
        """Plug the board in: a new pty, a freshly booted firmware."""
        with self._lock:
            if start_ticks is not None:
                self.start_ticks = start_ticks
            self._master, self._slave = os.openpty()
            tty.setraw(self._slave)  # no echo, no line editing: bytes are bytes
            os.set_blocking(self._master, False)
            if self.link_path is not None:
                tmp = self.link_path.with_name(self.link_path.name + ".new")
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
                tmp.symlink_to(os.ttyname(self._slave))
                os.replace(tmp, self.link_path)
            self._boot()
            self._thread = threading.Thread(target=self._run, name="virtual-mcu", daemon=True)
            self._thread.start()
            self._dog_stop = threading.Event()
            self._dog = threading.Thread(target=self._watchdog, args=(self._dog_stop,),
                                         name="virtual-mcu-watchdog", daemon=True)
            self._dog.start()
        return self

    def _boot(self) -> None:
        assert self._master is not None
        if self.hw is not None:
            self._earlier_motor_starts += self.hw.motor_starts
        if self.firmware is not None:
            self._earlier_launches += self.firmware.launches
        self.hw = SimHardware(
            self._master, SimClock(self.start_ticks, manual=self.manual_clock),
            card_sensor=self.card_sensor, by_watchdog=self._by_watchdog_next,
        )
        self._by_watchdog_next = False
        self.firmware = Firmware(self.hw, self.version)
        self.boots += 1
        self._booted.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                fw, hw = self.firmware, self.hw
            assert fw is not None and hw is not None
            try:
                fw.run()
            except BoardReset:
                pass
            except Exception:  # the loop died: like main.py, outputs are off; wait for a reset
                log.exception("the virtual board's firmware loop died")
                with self._lock:
                    self.loop_deaths += 1
                    hw.power_off_outputs()
                    self._booted.notify_all()
                    self._booted.wait_for(lambda h=hw: self.hw is not h or not h.running())
            with self._lock:
                if self._reset_next or hw is not self.hw:  # reset() asked, or RS command
                    self._reset_next = False
                    if self.hw is hw:
                        self._boot()
                    continue
                if not hw.running():
                    return
                self.start_ticks = 0  # the RS command
                self._boot()

    def _watchdog(self, stop: threading.Event) -> None:
        """The Pico's hardware watchdog, on board time: reset a board whose loop went unfed.

        A manual clock jumps: board time passed "while the loop kept turning", so the
        loop gets MANUAL_GRACE_S of real time to take its next turn and feed the dog
        before it bites; a hung loop never does, and the reset then lands on the exact
        board tick the timeout ran out.
        """
        expired: tuple[SimHardware, float] | None = None
        while not stop.wait(WATCHDOG_POLL_S):
            with self._lock:
                hw = self.hw
                if hw is None or not hw.watchdog_expired():
                    expired = None
                    continue
                if hw.clock.manual:
                    if expired is None or expired[0] is not hw:
                        expired = (hw, time.monotonic())
                    if time.monotonic() - expired[1] < MANUAL_GRACE_S:
                        continue
                expired = None
                self.watchdog_resets += 1
                log.warning("virtual board: the watchdog reset the board (its loop went "
                            "unfed for %d ms of board time)", hw.watchdog_ms)
                hw.power_off_outputs()  # the chip resets: the pins stop driving the motor
                self._reset_next = True
                self._by_watchdog_next = True
                self.start_ticks = 0
                hw.stop()  # the loop's thread boots the new firmware (see _run)
                self._booted.notify_all()

    def wait_for_boots(self, boots: int, timeout_s: float = 3.0) -> bool:
        """Wait until the board has booted `boots` times in all (a reset, the watchdog's too)."""
        return self.wait_board(lambda: self.boots >= boots, timeout_s)

    def wait_board(self, pred: Callable[[], bool], timeout_s: float = 3.0) -> bool:
        """Wait for `pred()` about the board itself (boots, loop deaths), not its loop's turns."""
        with self._lock:
            return self._booted.wait_for(pred, timeout=timeout_s)

    def kill_loop(self, how: str = KILL_RAISE) -> None:
        """Make the firmware's loop die on purpose at its next turn ("raise" or "hang")."""
        self._hw().kill_loop(how)

    def stop(self) -> None:
        """Unplug for good."""
        self.unplug()

    def unplug(self) -> None:
        """Pull the USB cable: the board loses power, the host's port goes away."""
        with self._lock:
            thread, dog = self._thread, self._dog
            self._dog_stop.set()
            if self.hw is not None:
                self.hw.stop()
            self._booted.notify_all()
        for t in (thread, dog):
            if t is not None:
                t.join(timeout=5)
        with self._lock:
            self._thread = self._dog = None
            for fd in (self._master, self._slave):
                if fd is not None:
                    with contextlib.suppress(OSError):
                        os.close(fd)
            self._master = self._slave = None
            if self.link_path is not None:
                with contextlib.suppress(FileNotFoundError):
                    self.link_path.unlink()

    def replug(self, start_ticks: int = 0) -> None:
        """Plug it back in: a fresh boot on a new pty (same `port` when it is a symlink)."""
        self.unplug()
        self.start(start_ticks)

    def reset(self, start_ticks: int = 0) -> None:
        """Press the board's reset button: firmware and clock restart, the port stays."""
        with self._lock:
            assert self.hw is not None
            self._reset_next = True
            self.start_ticks = start_ticks
            old = self.hw
            old.stop()
            self._booted.wait_for(lambda: self.hw is not old, timeout=5)

    def __enter__(self) -> VirtualMCU:
        return self.start() if self._thread is None else self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- scripted stimulus --

    @property
    def motor_starts(self) -> int:
        """How often the launcher motor went from off to on, over every boot of this board.

        A two-part (split tie) launch turning around counts twice; `launches` counts once.
        """
        with self._lock:
            now = self.hw.motor_starts if self.hw is not None else 0
            return self._earlier_motor_starts + now

    @property
    def motor_running(self) -> bool:
        with self._lock:
            return self.hw is not None and self.hw.motor_running

    def ticks_us(self) -> int:
        assert self.hw is not None
        return self.hw.ticks_us()

    def press(self, side: int, at_ticks: int | None = None) -> None:
        """A paddle press (protocol.LEFT or RIGHT), stamped now or at `at_ticks`."""
        self._hw().press_paddles(side == codec.LEFT, side != codec.LEFT, at_ticks)

    def press_both(self, at_ticks: int | None = None) -> None:
        """Both paddles pressed at one instant (their edges pending at one interrupt)."""
        self._hw().press_paddles(True, True, at_ticks)

    def press_button(self, at_ticks: int | None = None) -> None:
        hw = self._hw()
        hw.button.fall(hw.clock, at_ticks)

    def advance(self, us: int) -> int:
        """Move a manual board clock `us` microseconds forward; the board's ticks after it."""
        hw = self._hw()
        hw.clock.advance(us)
        return hw.ticks_us()

    def wait_until(self, pred: Callable[[], bool], timeout_s: float = 2.0) -> bool:
        """Wait for `pred()` to hold after a whole turn of the firmware loop; False on timeout.

        Checked after each turn, so "the board did not do X" means it had a turn to.
        """
        hw = self._hw()
        deadline = time.monotonic() + timeout_s
        with hw.turned:
            first = hw.turns + 2  # the turn in progress may have begun before the call
            while True:
                if hw.turns >= first and pred():
                    return True
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                hw.turned.wait(left)

    def send_raw(self, data: bytes) -> None:
        """Put bytes on the line toward the host, as if the board sent them (noise, garbage)."""
        self._hw().write(data, len(data))

    def garble(self, match: bytes, *, to_board: bool, frames: int = 1) -> None:
        """Let the line corrupt the next `frames` frames containing `match` (a CRC error).

        `to_board=True` garbles what the host sends (b" ST*": the next stop),
        False what the board sends (b" PD 0 ": its next left paddle event).
        """
        self._hw().garble(match, to_board=to_board, frames=frames)

    @property
    def garbled(self) -> list[bytes]:
        """Every frame the line corrupted on this boot, as it was sent."""
        return list(self._hw().garbled)

    @property
    def launches(self) -> int:
        """How many launch commands the firmware ran, over every boot (a split launch is one)."""
        with self._lock:
            now = self.firmware.launches if self.firmware is not None else 0
            return self._earlier_launches + now

    def jam(self, jammed: bool = True) -> None:
        """Make the card sensor stop (or resume) seeing cards."""
        self._hw().jammed = jammed

    def _hw(self) -> SimHardware:
        with self._lock:
            assert self.hw is not None, "the virtual board is unplugged"
            return self.hw
