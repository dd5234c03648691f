"""The host end of the serial link to the Showdown Unit's microcontroller (pyserial).

One reader thread owns the port. It finds the board (a given `--port`, or the
first USB device with the Pico's MicroPython VID:PID), opens it exclusively,
completes the versioned hello, sends heartbeats, acknowledges the board's
events, retries unacknowledged commands, and when the port vanishes, the
board stops answering or restarts, it says so and starts over by itself.

At most once: a command keeps its sequence number through every retry, and
the board answers a number it ran lately as a duplicate without running it
again (see PROTOCOL.md, "At most once"). A command whose first frame was lost
still runs when its retry comes after later commands, unless one of them
overrules it. Commands pending when the link drops are forgotten, never sent
to the next session; `STOP` cancels the retries of a pending `LAUNCH` or
`COUNTDOWN`, and a new `ARROW` those of an older one. A pending launch or
countdown the board refuses, even as stale, is reported as `Refused`: the cards
did not fly, or nobody will see go, and the owner must hear it.

Everything the owner hears comes through `on_event` on the reader thread:
`Connected`, `Lost`, `VersionMismatch`, `Refused` and `BoardReport` (with its
stamp already unwrapped onto the device clock, see clock.py). As in pyserial's
`serial.threaded`, the listener is called with no lock held: the link queues
what it has to say while it holds its lock and hands it on after letting go,
so a listener may block, take its own locks or send a command from another
thread without stalling the link or deadlocking with it. Writing is the writer
thread's: a command, an acknowledgement or a heartbeat is queued (in order)
under the lock and written after it, so a caller (the service's loop) never
waits on the port, not even on a board that stops taking bytes until the
write times out (then the link drops the port and starts over, as on a read
error).

The session is one of the named `LinkState`s; `_STATE_CHANGES` lists the moves
between them, and the link makes no other.
"""

from __future__ import annotations

import collections
import contextlib
import enum
import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

import serial
from serial.tools import list_ports

from uno_showdown.core.board import codec as P
from uno_showdown.core.board.clock import BoardClock

log = logging.getLogger(__name__)

PICO_VID = 0x2E8A
PICO_PID = 0x0005
BAUD = 115_200  # ignored by USB CDC, used by a UART adapter

#: which argument of each event is a board tick
_TICK_ARG = {P.PADDLE: 1, P.BUTTON: 0, P.GO_SHOWN: 0, P.LAUNCH_DONE: 2, P.FAULT: 1}

#: pending commands a new command of the key's kind makes pointless to retry
_CANCELS = {P.STOP: (P.LAUNCH, P.COUNTDOWN), P.ARROW: (P.ARROW,)}
#: commands the owner must hear about when the board refuses them, even as stale
_MUST_RUN = (P.LAUNCH, P.COUNTDOWN)
#: seconds one write may block before the port counts as gone
WRITE_TIMEOUT_S = 0.5
#: frames waiting for the writer beyond which the port counts as stalled (a second of
#: heartbeats, acknowledgements and commands is a few dozen)
MAX_QUEUED = 256

_NAK_TEXT = {
    P.NAK_NO_SESSION: "the board had no session",
    P.NAK_STALE: "its first frame was lost and the board could no longer run it safely",
    P.NAK_SILENT: "the board had not heard a heartbeat lately",
    P.NAK_BAD_ARGS: "the board rejected its arguments",
    P.NAK_UNKNOWN: "the board does not know that command",
    P.NAK_BUSY: "the launcher was already running",
    P.NAK_FAILED: "the board failed while running it and skipped it",
}


class LinkState(enum.Enum):
    """Where the session with the board stands."""

    DISCONNECTED = "disconnected"  # no port open: looking for the board
    HANDSHAKE = "handshake"  # port open, hello sent, no answer in our version yet
    READY = "ready"  # a session: commands go, heartbeats flow, events come
    MISMATCH = "mismatch"  # the board speaks another protocol version: nothing is sent


#: every move the link makes between states (anything else is a bug, logged)
_STATE_CHANGES = {
    (LinkState.DISCONNECTED, LinkState.HANDSHAKE): "opened the port, sent hello",
    (LinkState.HANDSHAKE, LinkState.READY): "the board answered in our version",
    (LinkState.HANDSHAKE, LinkState.MISMATCH): "the board answered in another version",
    (LinkState.READY, LinkState.MISMATCH): "the board restarted with another version",
    (LinkState.MISMATCH, LinkState.HANDSHAKE): "a new boot: maybe reflashed, try again",
    (LinkState.HANDSHAKE, LinkState.DISCONNECTED): "no answer, or the port went away",
    (LinkState.READY, LinkState.DISCONNECTED): "lost: silent, restarted, port gone",
    (LinkState.MISMATCH, LinkState.DISCONNECTED): "the port went away",
}


def version_text(port: str, board_version: int) -> str:
    """What to tell about a board whose firmware speaks another protocol: one sentence,
    with the cure (`firmware version`, `run --device serial` and the unit's fault alike)."""
    age = "an older" if board_version < P.VERSION else "a newer"
    return (f"the board on {port} runs {age} firmware (protocol v{board_version}; this program "
            f"speaks v{P.VERSION}): run `uno-showdown firmware install`"
            + ("" if board_version < P.VERSION else " from this version of uno-showdown"))


def nak_text(reason: int) -> str:
    return _NAK_TEXT.get(reason, f"reason {reason}")


# --- what the owner hears ------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Connected:
    port: str
    boot_id: int
    t_us: int


@dataclass(frozen=True, slots=True)
class Lost:
    reason: str
    t_us: int
    #: The kinds of the commands still unacknowledged when the link was lost, oldest first:
    #: the board may never have run them (a launch there means its cards may not have flown).
    unconfirmed: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class VersionMismatch:
    board_version: int
    t_us: int
    port: str = "?"


@dataclass(frozen=True, slots=True)
class Refused:
    kind: str
    reason: int
    t_us: int


@dataclass(frozen=True, slots=True)
class BoardReport:
    kind: str
    args: tuple[int, ...]
    t_us: int  # the event's own stamp, unwrapped onto the device clock


LinkReport = Connected | Lost | VersionMismatch | Refused | BoardReport


#: the states in which the board hears heartbeats (a mismatched one too: it stays put)
_TALKING = (LinkState.READY, LinkState.MISMATCH)


def find_board() -> str | None:
    """The first serial port that is a Pico running MicroPython, if any."""
    for info in sorted(list_ports.comports(), key=lambda p: p.device):
        if info.vid == PICO_VID and info.pid == PICO_PID:
            return str(info.device)
    return None


def _host_us() -> int:
    return time.monotonic_ns() // 1000


@dataclass
class _Pending:
    frame: bytes
    kind: str
    sent_us: int
    tries: int


class BoardLink:
    """A self-healing connection to one board; see the module docstring."""

    def __init__(
        self,
        port: str | None,
        on_event: Callable[[LinkReport], None],
        *,
        heartbeat_s: float = 0.1,
        board_timeout_s: float = 0.6,
        ack_timeout_s: float = 0.05,
        tries: int = 5,
        retry_open_s: float = 0.1,
        host_us: Callable[[], int] = _host_us,
    ) -> None:
        self.port = port
        self._on_event = on_event
        self._hb_us = round(heartbeat_s * 1e6)
        self._board_timeout_us = round(board_timeout_s * 1e6)
        self._ack_timeout_us = round(ack_timeout_s * 1e6)
        self._tries = tries
        self._retry_open_s = retry_open_s
        self._host_us = host_us
        self._lock = threading.RLock()
        self._closed = threading.Event()
        self._ready = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None
        #: frames for the writer thread, each with the port it was meant for; None ends it
        self._out: queue.Queue[tuple[serial.Serial, bytes] | None] = queue.Queue()
        self._writer: threading.Thread | None = None
        self._ser: serial.Serial | None = None
        self._decoder = P.Decoder()
        self.clock = BoardClock()
        self.state = LinkState.DISCONNECTED
        self._to_tell: list[LinkReport] = []  # said under the lock, told after it
        self.boot_id: int | None = None
        self.connects = 0
        self._seq = 0
        self._pending: dict[int, _Pending] = {}
        self._seen_events: collections.deque[int] = collections.deque(maxlen=64)
        self._last_rx_us = 0
        self._last_hb_us = 0
        self._last_hello_us = 0
        self._complained: str | None = None
        self.round_trips_us: collections.deque[int] = collections.deque(maxlen=10_000)

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
            return self._ready.wait_for(lambda: self.state is LinkState.READY,
                                        timeout=timeout_s)

    @property
    def ready(self) -> bool:
        return self.state is LinkState.READY

    def now_us(self) -> int:
        with self._lock:
            return self.clock.now_us(self._host_us())

    def to_raw(self, device_us: int) -> int:
        with self._lock:
            return self.clock.to_raw(device_us)

    # -- commands (any thread) --

    def command(self, kind: str, args: tuple[int, ...] = ()) -> int | None:
        """Send a command the board acknowledges; its sequence number, or None when not ready."""
        with self._lock:
            if self.state is not LinkState.READY or self._ser is None:
                return None
            cancels = _CANCELS.get(kind, ())  # e.g. a launch must not land after a stop
            for seq in [s for s, p in self._pending.items() if p.kind in cancels]:
                del self._pending[seq]
            seq = P.seq_next(self._seq)
            frame = P.encode(seq, kind, args)  # ValueError before anything changes
            self._seq = seq
            self._pending[self._seq] = _Pending(frame, kind, self._host_us(), 1)
            self._write(frame)
            return self._seq

    def pending(self) -> int:
        with self._lock:
            return len(self._pending)

    # -- the reader thread --

    def _run(self) -> None:
        while not self._closed.is_set():
            self._tell()
            if self._ser is None:
                if not self._open():
                    self._closed.wait(self._retry_open_s)
                continue
            ser = self._ser
            if ser is None:
                continue
            try:
                data = ser.read(max(1, ser.in_waiting))
                with self._lock:
                    now = self._host_us()
                    if data:
                        self._last_rx_us = now
                        for frame in self._decoder.feed(data):
                            self._handle(frame, now)
                    self._housekeeping(now)
            except (serial.SerialException, OSError, TypeError, ValueError, AttributeError) as exc:
                # TypeError, ValueError, AttributeError: pyserial on a port closed under it
                with self._lock:
                    self._lose(f"the board's port went away ({exc})")
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

    def _set_state(self, new: LinkState) -> None:
        if new is self.state:
            return
        if (self.state, new) not in _STATE_CHANGES:
            log.error("link: no move from %s to %s", self.state.value, new.value)
        self.state = new

    def _open(self) -> bool:
        port = self.port or find_board()
        if port is None:
            self._complain("no board found yet: waiting for a Pico with the Showdown firmware "
                           "to be plugged in (or pass --port)")
            return False
        try:
            ser = serial.Serial(port, BAUD, timeout=0.005, write_timeout=WRITE_TIMEOUT_S,
                                exclusive=True)
        except (serial.SerialException, OSError) as exc:
            self._complain(f"cannot open {port} ({exc})")
            return False
        with self._lock:
            self._complained = None
            self._ser = ser
            self._decoder = P.Decoder()
            self._pending.clear()
            self._set_state(LinkState.HANDSHAKE)
            now = self._host_us()
            self._last_rx_us = now
            self._send_hello(now)
        log.info("opened %s", port)
        return True

    def _complain(self, text: str) -> None:
        if self._complained != text:
            self._complained = text
            log.warning("%s", text)

    def _drop_port(self) -> None:
        ser, self._ser = self._ser, None
        if ser is not None:
            with contextlib.suppress(Exception):
                ser.close()

    def _lose(self, reason: str) -> None:
        """Forget the port and every pending command; say so if a session was up."""
        was = self.state
        unconfirmed = tuple(p.kind for _seq, p in sorted(self._pending.items()))
        self._drop_port()
        self._pending.clear()
        self._set_state(LinkState.DISCONNECTED)
        if was in (LinkState.READY, LinkState.HANDSHAKE):
            log.warning("link lost: %s", reason)
        if was is LinkState.READY:
            self._emit(Lost(reason, self.clock.now_us(self._host_us()), unconfirmed))

    def _emit(self, event: LinkReport) -> None:
        """Queue `event` for the listener; called under the lock, told after it (`_tell`)."""
        self._to_tell.append(event)

    def _write(self, frame: bytes) -> None:
        """Queue `frame` for the writer thread (under the lock, so frames keep their order)."""
        if self._ser is None:
            return
        if self._out.qsize() >= MAX_QUEUED:
            self._lose(f"the board's port took no bytes for a while ({MAX_QUEUED} frames "
                       "waiting)")
            return
        self._out.put((self._ser, frame))

    def _write_out(self) -> None:
        """The writer thread: write each queued frame, holding no lock while it writes."""
        while True:
            item = self._out.get()
            if item is None:
                return
            ser, frame = item
            try:
                ser.write(frame)
            except (serial.SerialException, OSError, TypeError, ValueError,
                    AttributeError) as exc:
                # the last three: pyserial on a port the reader closed under it
                with self._lock:
                    if self._ser is ser:  # not a port already dropped and forgotten
                        self._lose(f"writing to the board failed ({exc})")

    def _send_hello(self, now: int) -> None:
        self._last_hello_us = now
        self._write(P.encode(0, P.HELLO, (P.VERSION,)))

    def _send_heartbeat(self, now: int) -> None:
        self._last_hb_us = now
        self._write(P.encode(0, P.HB))

    def _housekeeping(self, now: int) -> None:
        if self._ser is None:
            return
        if now - self._last_rx_us > self._board_timeout_us and self.state is not LinkState.MISMATCH:
            self._lose("the board stopped answering")
            return
        if self.state is LinkState.HANDSHAKE and now - self._last_hello_us > 200_000:
            self._send_hello(now)
        if self.state in _TALKING and now - self._last_hb_us >= self._hb_us:
            self._send_heartbeat(now)
        for seq, item in list(self._pending.items()):
            if now - item.sent_us < self._ack_timeout_us:
                continue
            if item.tries >= self._tries:
                self._lose(f"the board did not acknowledge command {item.kind} #{seq}")
                return
            item.tries += 1
            item.sent_us = now
            self._write(item.frame)

    def _handle(self, frame: tuple[int, str, tuple[int, ...]], now: int) -> None:
        seq, kind, args = frame
        if kind == P.HELLO and len(args) >= 3:
            self._on_hello(args, now)
        elif self.state not in _TALKING:
            return
        elif kind == P.HB and args:
            self.clock.observe(args[0], now)
        elif kind in (P.ACK, P.NAK) and len(args) >= 2:
            item = self._pending.pop(args[0], None)
            if item is not None:
                self.round_trips_us.append(now - item.sent_us)
            if kind == P.NAK and item is not None:
                if args[1] == P.NAK_NO_SESSION:
                    self._lose("the board lost its session")
                elif args[1] != P.NAK_STALE or item.kind in _MUST_RUN:
                    self._emit(Refused(item.kind, args[1], self.clock.now_us(now)))
                else:  # e.g. an arrow whose retry came after a newer arrow: rightly not run
                    log.debug("board skipped %s #%d: a newer command overruled it",
                              item.kind, args[0])
        elif seq != 0 and kind in _TICK_ARG:
            self._write(P.encode(0, P.EVACK, (seq,)))
            if seq in self._seen_events:
                return  # a retry of an event already delivered
            self._seen_events.append(seq)
            i = _TICK_ARG[kind]
            if len(args) <= i:
                return
            self._emit(BoardReport(kind, args, self.clock.unwrap(args[i])))

    def _on_hello(self, args: tuple[int, ...], now: int) -> None:
        version, boot_id, ticks = args[0], args[1], args[2]
        if version != P.VERSION:
            if self.state is not LinkState.MISMATCH:
                self._set_state(LinkState.MISMATCH)
                self._emit(VersionMismatch(version, self.clock.now_us(now),
                                           self._ser.port if self._ser else "?"))
            self.boot_id = boot_id
            return
        if self.state is LinkState.READY:
            if boot_id == self.boot_id:
                return  # the answer to a repeated hello
            self._lose("the board restarted")
            return
        if self.state is LinkState.MISMATCH and boot_id == self.boot_id:
            return
        if self.state is LinkState.MISMATCH:  # reflashed: a new boot, try again
            self._set_state(LinkState.HANDSHAKE)
            self._send_hello(now)
            return
        self.boot_id = boot_id
        self.clock.start_session(ticks, now)
        self._seen_events.clear()
        self._seq = 0
        self._set_state(LinkState.READY)
        self.connects += 1
        self._send_heartbeat(now)
        self._ready.notify_all()
        self._emit(Connected(self._ser.port if self._ser else "?", boot_id, self.clock.now_us(now)))
