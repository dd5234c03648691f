"""A host in lockstep with a bare board: the real duel engine, codec and board clock.

It does what the serial link and the service do, on the board's own time and
without threads: hello, heartbeats every 100 ms, numbered commands retried
every 50 ms until acknowledged, every board event acknowledged and
de-duplicated, stamps unwrapped by `BoardClock`, and the duel engine's
actions turned into commands. The board is a `BoardDriver`, so one scenario
runs the firmware on CPython or on MicroPython, unchanged.

Line faults are scripted: `lose` holds command kinds whose first frame never
reaches the board (the retry does), `repeat` kinds whose every frame arrives
twice.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from firmware_host.wire import codec
from firmware_host.wire.board_clock import BoardClock
from showdown.contract.events import DuelResult, GoShown, LaunchPart, PaddlePressed, Side
from showdown.duel.engine import (
    Announce,
    Duel,
    DuelConfig,
    FreezeCountdown,
    LaunchCards,
    Load,
    PointArrow,
    Start,
    StartCountdown,
)
from tests.micropython.runner import BoardDriver

HEARTBEAT_US = 100_000
RETRY_US = 50_000
TURN_US = 5_000  # the host's turn: the board runs this long between two looks
FAST = DuelConfig(countdown_min_us=300_000, countdown_max_us=300_000,
                  response_timeout_us=600_000, settle_us=25_000)


@dataclass
class Pending:
    frame: bytes
    kind: str
    sent_us: int
    tries: int = 1


@dataclass
class DuelHost:
    board: BoardDriver
    lose: set[str] = field(default_factory=set)
    repeat: set[str] = field(default_factory=set)
    silent: bool = False  # stop heartbeating (the host "fell silent")
    host_us: int = 0  # host time, in lockstep with board time
    clock: BoardClock = field(default_factory=BoardClock)
    dec: codec.Decoder = field(default_factory=codec.Decoder)
    seq: int = 0
    pending: dict[int, Pending] = field(default_factory=dict)
    seen_events: set[int] = field(default_factory=set)
    events: list[tuple[str, tuple[int, ...], int]] = field(default_factory=list)
    replies: list[tuple[str, int, int]] = field(default_factory=list)
    trace: bytearray = field(default_factory=bytearray)  # every byte the board wrote
    last_hb_us: int = -HEARTBEAT_US
    duel: Duel | None = None
    results: list[DuelResult] = field(default_factory=list)
    launched: list[tuple[LaunchPart, ...]] = field(default_factory=list)
    last_sent_us: int = 0  # host time of the last frame that reached the board
    silent_from_us: int = 0

    # -- the line --

    def _write(self, frame: bytes, kind: str | None = None, first: bool = False) -> None:
        if first and kind in self.lose:
            return  # lost on the way
        self.last_sent_us = self.host_us
        self.board.send(frame)
        if kind in self.repeat:
            self.board.send(frame)

    def hello(self) -> None:
        self._write(codec.encode(0, codec.HELLO, (codec.VERSION,)))
        for frame in self.dec.feed(self._run(2_000)):
            if frame[1] == codec.HELLO and len(frame[2]) == 3:
                self.clock.start_session(frame[2][2], self.host_us)
                self._heartbeat()
                return
        raise AssertionError("the board did not answer the hello")

    def _heartbeat(self) -> None:
        self.last_hb_us = self.host_us
        self._write(codec.encode(0, codec.HB))

    def command(self, kind: str, args: tuple[int, ...] = ()) -> int:
        if kind == codec.STOP:  # as the link does: a stop cancels a pending launch or countdown
            for s in [s for s, p in self.pending.items()
                      if p.kind in (codec.LAUNCH, codec.COUNTDOWN)]:
                del self.pending[s]
        self.seq = codec.seq_next(self.seq)
        frame = codec.encode(self.seq, kind, args)
        self.pending[self.seq] = Pending(frame, kind, self.host_us)
        self._write(frame, kind, first=True)
        return self.seq

    def _run(self, us: int) -> bytes:
        out = self.board.run(us)
        self.host_us += us
        self.trace += out
        return out

    # -- time --

    def turn(self, us: int = TURN_US) -> None:
        """Let `us` pass: the board runs, the host reads, acknowledges, retries, heartbeats."""
        for frame in self.dec.feed(self._run(us)):
            self._hear(frame)
        if not self.silent and self.host_us - self.last_hb_us >= HEARTBEAT_US:
            self._heartbeat()
        for item in self.pending.values():
            if self.host_us - item.sent_us >= RETRY_US and not self.silent:
                assert item.tries < 5, f"the board never acknowledged {item.kind}"
                item.tries += 1
                item.sent_us = self.host_us
                self._write(item.frame, item.kind)
        if self.duel is not None:
            self._perform(self.duel.advance(self.now_us()))

    def run_for(self, us: int) -> None:
        end = self.host_us + us
        while self.host_us < end:
            self.turn(min(TURN_US, end - self.host_us))

    def now_us(self) -> int:
        return self.clock.now_us(self.host_us)

    def _hear(self, frame: tuple[int, str, tuple[int, ...]]) -> None:
        seq, kind, args = frame
        if kind == codec.HB and args:
            self.clock.observe(args[0], self.host_us)
        elif kind in (codec.ACK, codec.NAK) and len(args) >= 2:
            self.replies.append((kind, args[0], args[1]))
            self.pending.pop(args[0], None)
        elif seq != 0:
            if not self.silent:
                self._write(codec.encode(0, codec.EVACK, (seq,)))
            if seq in self.seen_events:
                return
            self.seen_events.add(seq)
            tick = {codec.PADDLE: 1, codec.BUTTON: 0, codec.GO_SHOWN: 0, codec.LAUNCH_DONE: 2,
                    codec.FAULT: 1}
            t_us = self.clock.unwrap(args[tick[kind]]) if kind in tick else self.host_us
            self.events.append((kind, args, t_us))
            if self.duel is not None:
                if kind == codec.PADDLE:
                    side = Side.LEFT if args[0] == codec.LEFT else Side.RIGHT
                    self._perform(self.duel.handle(PaddlePressed(side, t_us)))
                elif kind == codec.GO_SHOWN:
                    self._perform(self.duel.handle(GoShown(t_us)))

    # -- the duel --

    def start_duel(self, cards: int, countdown_us: int, config: DuelConfig = FAST,
                   seed: int = 1) -> None:
        self.duel = Duel(config, random.Random(seed), await_go_report=True)
        self._perform(self.duel.handle(Load(Side.LEFT, Side.RIGHT, cards, self.now_us())))
        self._perform(self.duel.handle(Start(self.now_us(), countdown_us)))

    def _perform(self, actions: Sequence[object]) -> None:
        for action in actions:
            if isinstance(action, StartCountdown):
                self.command(codec.COUNTDOWN,
                             (action.countdown_us, self.clock.to_raw(action.start_us)))
            elif isinstance(action, FreezeCountdown):
                self.command(codec.FREEZE)
            elif isinstance(action, PointArrow):
                self.command(codec.ARROW,
                             (codec.LEFT if action.side is Side.LEFT else codec.RIGHT,))
            elif isinstance(action, LaunchCards):
                self.launched.append(action.parts)
                args: list[int] = []
                for part in action.parts:
                    args += [codec.LEFT if part.side is Side.LEFT else codec.RIGHT, part.cards]
                self.command(codec.LAUNCH, tuple(args))
            elif isinstance(action, Announce):
                self.results.append(action.result)

    def kinds(self) -> list[str]:
        return [kind for kind, _, _ in self.events]

    def event(self, kind: str) -> tuple[int, ...] | None:
        return next((args for k, args, _ in self.events if k == kind), None)

    def to_ticks(self, device_us: int) -> int:
        return self.clock.to_raw(device_us)
