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
"""

from __future__ import annotations

import contextlib
import os
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path

from firmware_host import protocol as P
from firmware_host.firmware.fw_core import Firmware
from firmware_host.virtual.sim_hw import BoardReset, SimClock, SimHardware


class VirtualMCU:
    """One simulated Showdown Unit board; see the module docstring."""

    def __init__(
        self,
        link_path: str | os.PathLike[str] | None = None,
        *,
        start_ticks: int = 0,
        version: int = P.VERSION,
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
        return self

    def _boot(self) -> None:
        assert self._master is not None
        if self.hw is not None:
            self._earlier_motor_starts += self.hw.motor_starts
        if self.firmware is not None:
            self._earlier_launches += self.firmware.launches
        self.hw = SimHardware(
            self._master, SimClock(self.start_ticks, manual=self.manual_clock),
            card_sensor=self.card_sensor,
        )
        self.firmware = Firmware(self.hw, self.version)
        self.boots += 1
        self._booted.notify_all()

    def _run(self) -> None:
        while True:
            with self._lock:
                fw, hw = self.firmware, self.hw
            assert fw is not None and hw is not None
            with contextlib.suppress(BoardReset):
                fw.run()
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

    def stop(self) -> None:
        """Unplug for good."""
        self.unplug()

    def unplug(self) -> None:
        """Pull the USB cable: the board loses power, the host's port goes away."""
        with self._lock:
            thread = self._thread
            if self.hw is not None:
                self.hw.stop()
        if thread is not None:
            thread.join(timeout=5)
        with self._lock:
            self._thread = None
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
        hw = self._hw()
        pin = hw.paddle_left if side == P.LEFT else hw.paddle_right
        pin.fall(hw.clock, at_ticks)

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
        self._hw().write(data)

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
