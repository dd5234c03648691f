"""The host end of the serial link to the Showdown Unit's microcontroller (pyserial).

A thin threaded shell, in the manner of pyserial's `serial.threaded`, around the sans-I/O
session of firmware_host/wire/session.py, which decides everything: the versioned hello,
heartbeats, acknowledgements, retries, the board's events and their receipts, the board's
clock, and when the link is lost. The shell only moves bytes and time:

* the reader thread owns the port: it finds the board (a given `--port`, or the first
  USB device with the Pico's MicroPython VID:PID), opens it exclusively, feeds the
  session every byte it reads and the time (`receive`, `tick`), and when the session
  gives up, or the port fails, closes the port and starts over by itself;
* the writer thread writes what the session has to send, holding no lock while it
  writes, so a caller (the service's loop) never waits on the port, not even on a board
  that stops taking bytes until the write times out (then the link drops the port and
  starts over, as on a read error);
* what the owner hears (`Connected`, `Lost`, `VersionMismatch`, `Refused` and
  `BoardReport`, with its stamp already unwrapped onto the device clock) comes through
  `on_event` on the reader thread with no lock held: the shell takes the session's
  reports under its lock and hands them on after letting go, so a listener may block,
  take its own locks or send a command from another thread without stalling the link
  or deadlocking with it.

The transport is any pyserial port: a device path, a pyserial URL (`loop://`,
`socket://host:port`, `rfc2217://…`, opened with `serial.serial_for_url`), or a port object
already made (closed and opened again when the link starts over).
"""

from __future__ import annotations

import contextlib
import errno
import logging
import queue
import threading
import time
from collections.abc import Callable

import serial
from serial.tools import list_ports

from firmware_host.host.ports import permission_text
from firmware_host.wire import codec
from firmware_host.wire.board_clock import BoardClock
from firmware_host.wire.session import (
    TRANSITIONS,
    BoardReport,
    BoardSession,
    Connected,
    IllegalMove,
    LinkReport,
    LinkState,
    Lost,
    Refused,
    VersionMismatch,
)
from showdown.contract.i18n import N_, _

__all__ = [
    "BAUD", "MAX_QUEUED", "PICO_PID", "PICO_VID", "TRANSITIONS", "WRITE_TIMEOUT_S",
    "BoardLink", "BoardReport", "Connected", "IllegalMove", "LinkReport", "LinkState", "Lost",
    "Refused", "VersionMismatch", "find_board", "nak_text", "version_text",
]

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
PICO_PID = 0x0005
BAUD = 115_200  # ignored by USB CDC, used by a UART adapter

#: seconds one read waits for a byte: the longest the session waits for its `tick`
READ_TIMEOUT_S = 0.005
#: seconds one write may block before the port counts as gone
WRITE_TIMEOUT_S = 0.5
#: frames waiting for the writer beyond which the port counts as stalled (a second of
#: heartbeats, acknowledgements and commands is a few dozen)
MAX_QUEUED = 256

#: Why the board refused a command, marked here and translated when said (`nak_text`).
_NAK_TEXT = {
    codec.NAK_NO_SESSION: N_("the board had no session"),
    codec.NAK_STALE: N_("its first frame was lost and the board could no longer run it "
                        "safely"),
    codec.NAK_SILENT: N_("the board had not heard a heartbeat lately"),
    codec.NAK_BAD_ARGS: N_("the board rejected its arguments"),
    codec.NAK_UNKNOWN: N_("the board does not know that command"),
    codec.NAK_BUSY: N_("the launcher was already running"),
    codec.NAK_FAILED: N_("the board failed while running it and skipped it"),
}

#: what pyserial raises on a port that failed, or one closed under it (the last three)
_PORT_ERRORS = (serial.SerialException, OSError, TypeError, ValueError, AttributeError)


def version_text(port: str, board_version: int) -> str:
    """What to tell about a board whose firmware speaks another protocol: one sentence,
    with the cure (`firmware version`, `run --device serial` and the unit's fault alike)."""
    if board_version < codec.VERSION:
        text = _("the board on {port} runs an older firmware (protocol v{board}; this program "
                 "speaks v{ours}): run `uno-showdown firmware install`")
    else:
        text = _("the board on {port} runs a newer firmware (protocol v{board}; this program "
                 "speaks v{ours}): run `uno-showdown firmware install` from this version of "
                 "uno-showdown")
    return text.format(port=port, board=board_version, ours=codec.VERSION)


def nak_text(reason: int) -> str:
    """Why the board refused a command, in the table's language."""
    if reason in _NAK_TEXT:
        return _(_NAK_TEXT[reason])
    return _("reason {reason}").format(reason=reason)


def find_board() -> str | None:
    """The first serial port that is a Pico running MicroPython, if any."""
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if info.vid == PICO_VID and info.pid == PICO_PID:
            return str(info.device)
    return None


def _host_us() -> int:
    return time.monotonic_ns() // 1000


class BoardLink:
    """A self-healing connection to one board; see the module docstring."""

    def __init__(
        self,
        port: str | serial.SerialBase | None,
        on_event: Callable[[LinkReport], None],
        *,
        heartbeat_s: float = 0.1,
        board_timeout_s: float = 0.6,
        ack_timeout_s: float = 0.05,
        tries: int = 5,
        retry_open_s: float = 0.1,
        host_us: Callable[[], int] = _host_us,
    ) -> None:
        """`port`: a device or a pyserial URL, a pyserial port object, or None to look
        for a Pico by its USB id."""
        self._given = port if isinstance(port, serial.SerialBase) else None
        self.port = _port_name(port) if self._given is not None else port
        self._on_event = on_event
        self._retry_open_s = retry_open_s
        self._host_us = host_us
        #: everything the link decides; called only under `_lock`
        self.session = BoardSession(
            heartbeat_us=round(heartbeat_s * 1e6), board_timeout_us=round(board_timeout_s * 1e6),
            ack_timeout_us=round(ack_timeout_s * 1e6), tries=tries)
        self._lock = threading.RLock()
        self._closed = threading.Event()
        self._ready = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        #: frames for the writer thread, each with the port it was meant for; None ends it
        self._out: queue.Queue[tuple[serial.SerialBase, bytes] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._ser: serial.SerialBase | None = None
        self._to_tell: list[LinkReport] = []  # taken under the lock, told after it
        self._complained: str | None = None
        self._trying: str | None = None  # the port being opened (found by USB id, or given)
        self._reached = False  # the board answered on the port open now
        self._said_waiting = False  # "no answer yet" said since the board last answered

    # -- what the session knows --

    @property
    def state(self) -> LinkState:
        return self.session.state

    @property
    def ready(self) -> bool:
        return self.session.ready

    @property
    def clock(self) -> BoardClock:
        return self.session.clock

    @property
    def boot_id(self) -> int | None:
        return self.session.boot_id

    @property
    def connects(self) -> int:
        return self.session.connects

    @property
    def round_trips_us(self) -> list[int]:
        with self._lock:
            return list(self.session.round_trips_us)

    # -- lifetime --

    def start(self) -> BoardLink:
        self._writer = threading.Thread(target=self._write_out, name="serial-link-writer",
                                        daemon=True)
        self._writer.start()
        self._thread = threading.Thread(target=self._run, name="serial-link", daemon=True)
        self._thread.start()
        return self

    def close(self) -> None:
        self._closed.set()
        if self._thread is not None:
            self._thread.join(timeout=2)
        self._out.put(None)  # after what is queued: a closing unit's STOP is still written
        if self._writer is not None:
            self._writer.join(timeout=2 * WRITE_TIMEOUT_S)
        with self._lock:
            self._drop_port()

    def wait_ready(self, timeout_s: float) -> bool:
        with self._lock:
            return self._ready.wait_for(lambda: self.session.ready, timeout=timeout_s)

    def now_us(self) -> int:
        with self._lock:
            return self.session.clock.now_us(self._host_us())

    def to_raw(self, device_us: int) -> int:
        with self._lock:
            return self.session.clock.to_raw(device_us)

    # -- commands (any thread) --

    def command(self, kind: str, args: tuple[int, ...] = ()) -> int | None:
        """Send a command the board acknowledges; its sequence number, or None when not ready."""
        with self._lock:
            if self._ser is None:
                return None
            seq = self.session.command(kind, args, self._host_us())
            self._pump()
            return seq

    def pending(self) -> int:
        with self._lock:
            return self.session.pending()

    # -- the reader thread --

    def _run(self) -> None:
        while not self._closed.is_set():
            self._tell()
            ser = self._ser
            if ser is None:
                if not self._open():
                    self._closed.wait(self._retry_open_s)
                continue
            try:
                data = ser.read(max(1, ser.in_waiting))
            except _PORT_ERRORS as exc:
                self._port_failed(ser, f"the board's port went away ({exc})")
                continue
            with self._lock:
                if self._ser is not ser:
                    continue  # the writer gave it up meanwhile
                now = self._host_us()
                try:
                    self.session.receive(data, now)
                    self.session.tick(now)
                except IllegalMove:  # a bug: said, and the link starts over, as on a bad port
                    log.exception("the link's session went wrong")
                    self.session.port_lost("the link's session went wrong", now)
                self._pump()
        self._tell()

    def _tell(self) -> None:
        """Hand the listener what the link said, in order, with no lock held (reader thread)."""
        with self._lock:
            events, self._to_tell = self._to_tell, []
        for event in events:
            try:
                self._on_event(event)
            except Exception:
                log.exception("link listener failed on %r", event)

    def _pump(self) -> None:
        """After the session moved (under the lock): queue its frames for the writer, its
        reports for the listener, and drop the port of a session that is over."""
        for frame in self.session.frames_to_send():
            if self._ser is None:
                break
            if self._out.qsize() >= MAX_QUEUED:
                self.session.port_lost(f"the board's port took no bytes for a while "
                                       f"({MAX_QUEUED} frames waiting)", self._host_us())
                break
            self._out.put((self._ser, frame))
        self._to_tell += self.session.reports()
        if self.session.state is LinkState.DISCONNECTED and self._ser is not None:
            if self._reached:
                log.warning("link lost: %s", self.session.last_loss)
            elif not self._said_waiting:  # a board still booting, or without the firmware
                self._said_waiting = True
                log.warning("%s", _("no answer yet from the board on {port}: waiting for it (is "
                                 "the Showdown firmware on it? `uno-showdown firmware version` "
                                 "says)").format(port=self._trying or self.session.port))
            self._reached = False
            self._drop_port()
        if self.session.ready:
            self._reached = True
            self._said_waiting = False
            self._ready.notify_all()

    def _open(self) -> bool:
        try:
            opened = self._open_port()
        except _PORT_ERRORS as exc:
            name = self._trying or self.port or "?"
            if isinstance(exc, PermissionError) or getattr(exc, "errno", None) in (
                    errno.EACCES, errno.EPERM):
                self._complain(permission_text(name))
            else:
                self._complain(_("cannot open {port} ({reason})").format(port=name,
                                                                         reason=exc))
            return False
        if opened is None:
            self._complain(_("no board found yet: waiting for a Pico with the Showdown "
                             "firmware to be plugged in (or pass --port)"))
            return False
        ser, name = opened
        with self._lock:
            self._complained = None
            self._ser = ser
            self.session.port_opened(name, self._host_us())
            self._pump()
        log.info("opened %s", name)
        return True

    def _open_port(self) -> tuple[serial.SerialBase, str] | None:
        """The port to the board, open, and its name; None while there is no board."""
        if self._given is not None:
            ser = self._given
            ser.timeout, ser.write_timeout = READ_TIMEOUT_S, WRITE_TIMEOUT_S
            if not ser.is_open:
                ser.open()
            return ser, _port_name(ser)
        name = self.port or find_board()
        self._trying = name
        if name is None:
            return None
        return serial.serial_for_url(name, BAUD, timeout=READ_TIMEOUT_S,
                                     write_timeout=WRITE_TIMEOUT_S, exclusive=True), name

    def _complain(self, text: str) -> None:
        if self._complained != text:
            self._complained = text
            log.warning("%s", text)

    def _drop_port(self) -> None:
        ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    def _port_failed(self, ser: serial.SerialBase, reason: str) -> None:
        """A read or a write on `ser` failed: over, unless that port was already given up."""
        with self._lock:
            if self._ser is ser:
                self.session.port_lost(reason, self._host_us())
                self._pump()

    def _write_out(self) -> None:
        """The writer thread: write each queued frame, holding no lock while it writes."""
        while True:
            item = self._out.get()
            if item is None:
                return
            ser, frame = item
            try:
                ser.write(frame)
            except _PORT_ERRORS as exc:
                self._port_failed(ser, f"writing to the board failed ({exc})")


def _port_name(port: serial.SerialBase) -> str:
    return str(port.port) if port.port else "?"
