"""The host's side of a session with the board, sans I/O: bytes and the time in; the link's
reports and the frames to write out.

Everything the link decides lives here, in the manner of h11: the versioned hello,
heartbeats, sequence numbers, acknowledgements and retries, the board's events and their
receipts, resynchronising on garbage (the codec's decoder), unwrapping the board's clock
(`board_clock.py`), and giving the session up when the board falls silent, restarts, or never
acknowledges a command. No port, no clock, no thread: the caller feeds it what the port
read (`receive`), the passing of time (`tick`), the owner's commands (`command`) and the
port's own fate (`port_opened`, `port_lost`), always with the host's time `now_us`, and
takes out what it has to write (`frames_to_send`) and to tell (`reports`).
`firmware_host.host.link.BoardLink` is the thin threaded shell that does the I/O.

At most once: a command keeps its sequence number through every retry, and the board
answers a number it ran lately as a duplicate without running it again (see
docs/protocol.md, "At most once"). A command whose first frame was lost still runs when
its retry comes after later commands, unless one of them overrules it. Commands pending
when the link drops are forgotten, never sent to the next session; `STOP` cancels the
retries of a pending `LAUNCH` or `COUNTDOWN`, and a new `ARROW` those of an older one. A
pending launch or countdown the board refuses, even as stale, is reported as `Refused`:
the cards did not fly, or nobody will see go, and the owner must hear it.

The session is in one of the named `LinkState`s; `TRANSITIONS` lists every move between
them, and a move not in it raises `IllegalMove` (a bug in the caller or here, never a
board's doing: whatever the board sends is a legal input).
"""

from __future__ import annotations

import collections
import enum
from dataclasses import dataclass

from firmware_host.wire import codec
from firmware_host.wire.board_clock import BoardClock

#: which argument of each event is a board tick
_TICK_ARG = {codec.PADDLE: 1, codec.BUTTON: 0, codec.GO_SHOWN: 0, codec.LAUNCH_DONE: 2,
             codec.FAULT: 1}
#: pending commands a new command of the key's kind makes pointless to retry
_CANCELS = {codec.STOP: (codec.LAUNCH, codec.COUNTDOWN), codec.ARROW: (codec.ARROW,)}
#: commands the owner must hear about when the board refuses them, even as stale
_MUST_RUN = (codec.LAUNCH, codec.COUNTDOWN)
#: how often an unanswered hello is said again
HELLO_EVERY_US = 200_000
#: board events remembered, so that a retried event is told once
_SEEN_EVENTS = 64


class LinkState(enum.Enum):
    """Where the session with the board stands."""

    DISCONNECTED = "disconnected"  # no port open: looking for the board
    HANDSHAKE = "handshake"  # port open, hello sent, no answer in our version yet
    READY = "ready"  # a session: commands go, heartbeats flow, events come
    MISMATCH = "mismatch"  # the board speaks another protocol version: nothing is sent


#: every move the session makes between states, and why; any other raises IllegalMove
TRANSITIONS = {
    (LinkState.DISCONNECTED, LinkState.HANDSHAKE): "opened the port, sent hello",
    (LinkState.HANDSHAKE, LinkState.READY): "the board answered in our version",
    (LinkState.HANDSHAKE, LinkState.MISMATCH): "the board answered in another version",
    (LinkState.READY, LinkState.MISMATCH): "the board restarted with another version",
    (LinkState.MISMATCH, LinkState.HANDSHAKE): "a new boot: maybe reflashed, try again",
    (LinkState.HANDSHAKE, LinkState.DISCONNECTED): "no answer, or the port went away",
    (LinkState.READY, LinkState.DISCONNECTED): "lost: silent, restarted, port gone",
    (LinkState.MISMATCH, LinkState.DISCONNECTED): "the port went away",
}

#: the states in which the board hears heartbeats (a mismatched one too: it stays put)
_TALKING = (LinkState.READY, LinkState.MISMATCH)


class IllegalMove(RuntimeError):
    """The caller asked the session for a move its state does not allow (a bug)."""


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


@dataclass
class _Pending:
    frame: bytes
    kind: str
    sent_us: int
    tries: int


class BoardSession:
    """One host's sessions with one board, one port after another; see the module
    docstring. Not thread-safe: its owner calls it under one lock."""

    def __init__(self, *, heartbeat_us: int = 100_000, board_timeout_us: int = 600_000,
                 ack_timeout_us: int = 50_000, tries: int = 5) -> None:
        self.heartbeat_us = heartbeat_us
        self.board_timeout_us = board_timeout_us
        self.ack_timeout_us = ack_timeout_us
        self.tries = tries
        self.state = LinkState.DISCONNECTED
        self.decoder = codec.Decoder()
        self.clock = BoardClock()
        self.port = "?"
        self.boot_id: int | None = None
        #: why the last session (or handshake) ended, for the owner's log
        self.last_loss: str | None = None
        #: sessions begun (hellos answered in our version)
        self.connects = 0
        #: command to acknowledgement, in host µs: the latest ten thousand
        self.round_trips_us: collections.deque[int] = collections.deque(maxlen=10_000)
        self._seq = 0
        self._pending: dict[int, _Pending] = {}
        self._seen_events: collections.deque[int] = collections.deque(maxlen=_SEEN_EVENTS)
        self._last_rx_us = 0
        self._last_hb_us = 0
        self._last_hello_us = 0
        self._out: list[bytes] = []
        self._reports: list[LinkReport] = []

    # -- what comes out --

    def frames_to_send(self) -> list[bytes]:
        """The frames to write to the port, in order; each is handed out once."""
        out, self._out = self._out, []
        return out

    def reports(self) -> list[LinkReport]:
        """What the owner must hear, in order; each is handed out once."""
        out, self._reports = self._reports, []
        return out

    @property
    def ready(self) -> bool:
        return self.state is LinkState.READY

    def pending(self) -> int:
        """Commands sent and not yet acknowledged."""
        return len(self._pending)

    # -- what goes in --

    def port_opened(self, port: str, now_us: int) -> None:
        """A port is open (to a board, we hope): say hello."""
        self._move(LinkState.HANDSHAKE)
        self.port = port
        self.decoder = codec.Decoder()
        self._pending.clear()
        self._last_rx_us = now_us
        self._send_hello(now_us)

    def port_lost(self, reason: str, now_us: int) -> None:
        """The port failed (read or write error, unplugged, stalled): the session is over."""
        if self.state is not LinkState.DISCONNECTED:
            self._lose(reason, now_us)

    def receive(self, data: bytes, now_us: int) -> None:
        """Bytes the port read, however they are cut: frames are decoded and answered."""
        if self.state is LinkState.DISCONNECTED:
            raise IllegalMove("bytes received with no port open")
        if not data:
            return
        self._last_rx_us = now_us
        for frame in self.decoder.feed(data):
            self._handle(frame, now_us)
            if self._over():
                return  # the rest of the bytes belong to a session that is over

    def tick(self, now_us: int) -> None:
        """Time has passed: heartbeats, hellos and retries fall due, silence is noticed."""
        if self.state is LinkState.DISCONNECTED:
            return
        if now_us - self._last_rx_us > self.board_timeout_us and (
                self.state is not LinkState.MISMATCH):
            self._lose("the board stopped answering", now_us)
            return
        if self.state is LinkState.HANDSHAKE and now_us - self._last_hello_us > HELLO_EVERY_US:
            self._send_hello(now_us)
        if self.state in _TALKING and now_us - self._last_hb_us >= self.heartbeat_us:
            self._send_heartbeat(now_us)
        for seq, item in list(self._pending.items()):
            if now_us - item.sent_us < self.ack_timeout_us:
                continue
            if item.tries >= self.tries:
                self._lose(f"the board did not acknowledge command {item.kind} #{seq}", now_us)
                return
            item.tries += 1
            item.sent_us = now_us
            self._out.append(item.frame)

    def command(self, kind: str, args: tuple[int, ...], now_us: int) -> int | None:
        """Send a command the board acknowledges; its sequence number, or None when there
        is no session. ValueError, before anything changes, for one the codec refuses."""
        if self.state is not LinkState.READY:
            return None
        seq = codec.seq_next(self._seq)
        frame = codec.encode(seq, kind, args)
        cancels = _CANCELS.get(kind, ())  # e.g. a launch must not land after a stop
        for old in [s for s, p in self._pending.items() if p.kind in cancels]:
            del self._pending[old]
        self._seq = seq
        self._pending[seq] = _Pending(frame, kind, now_us, 1)
        self._out.append(frame)
        return seq

    # -- the board's frames --

    def _over(self) -> bool:
        return self.state is LinkState.DISCONNECTED

    def _move(self, new: LinkState) -> None:
        if new is self.state:
            return
        if (self.state, new) not in TRANSITIONS:
            raise IllegalMove(f"no move from {self.state.value} to {new.value}")
        self.state = new

    def _lose(self, reason: str, now_us: int) -> None:
        """Forget the session and every pending command; say so if one was up."""
        was = self.state
        self.last_loss = reason
        unconfirmed = tuple(p.kind for _seq, p in sorted(self._pending.items()))
        self._pending.clear()
        self._out.clear()  # nothing more for that port
        self._move(LinkState.DISCONNECTED)
        if was is LinkState.READY:
            self._reports.append(Lost(reason, self.clock.now_us(now_us), unconfirmed))

    def _send_hello(self, now_us: int) -> None:
        self._last_hello_us = now_us
        self._out.append(codec.encode(0, codec.HELLO, (codec.VERSION,)))

    def _send_heartbeat(self, now_us: int) -> None:
        self._last_hb_us = now_us
        self._out.append(codec.encode(0, codec.HB))

    def _handle(self, frame: tuple[int, str, tuple[int, ...]], now_us: int) -> None:
        seq, kind, args = frame
        if kind == codec.HELLO and len(args) >= 3:
            self._on_hello(args, now_us)
        elif self.state is not LinkState.READY:
            return  # a board in no session of ours (or another version): only its hello
        elif kind == codec.HB and args:
            self.clock.observe(args[0], now_us)
        elif kind in (codec.ACK, codec.NAK) and len(args) >= 2:
            self._on_answer(kind, args, now_us)
        elif seq != 0 and kind in _TICK_ARG:
            self._out.append(codec.encode(0, codec.EVACK, (seq,)))
            if seq in self._seen_events:
                return  # a retry of an event already delivered
            self._seen_events.append(seq)
            i = _TICK_ARG[kind]
            if len(args) > i:
                self._reports.append(BoardReport(kind, args, self.clock.unwrap(args[i])))

    def _on_answer(self, kind: str, args: tuple[int, ...], now_us: int) -> None:
        item = self._pending.pop(args[0], None)
        if item is None:
            return  # an answer to a retry already answered, or to another session
        self.round_trips_us.append(now_us - item.sent_us)
        if kind == codec.ACK:
            return
        if args[1] == codec.NAK_NO_SESSION:
            self._lose("the board lost its session", now_us)
        elif args[1] != codec.NAK_STALE or item.kind in _MUST_RUN:
            self._reports.append(Refused(item.kind, args[1], self.clock.now_us(now_us)))
        # else: e.g. an arrow whose retry came after a newer arrow: rightly not run

    def _on_hello(self, args: tuple[int, ...], now_us: int) -> None:
        version, boot_id, ticks = args[0], args[1], args[2]
        if version != codec.VERSION:
            if self.state is not LinkState.MISMATCH:
                self._move(LinkState.MISMATCH)
                self._reports.append(VersionMismatch(version, self.clock.now_us(now_us),
                                                     self.port))
            self.boot_id = boot_id
            return
        if self.state is LinkState.READY:
            if boot_id != self.boot_id:
                self._lose("the board restarted", now_us)
            return  # else the answer to a repeated hello
        if self.state is LinkState.MISMATCH:
            if boot_id != self.boot_id:  # reflashed: a new boot, try again
                self._move(LinkState.HANDSHAKE)
                self._send_hello(now_us)
            return
        self.boot_id = boot_id
        self.clock.start_session(ticks, now_us)
        self._seen_events.clear()
        self._seq = 0
        self._move(LinkState.READY)
        self.connects += 1
        self._send_heartbeat(now_us)
        self._reports.append(Connected(self.port, boot_id, self.clock.now_us(now_us)))
