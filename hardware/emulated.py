"""The desktop emulator's Showdown Unit: a `ShowdownUnit` whose body is a pygame drawing.

Threading: the window's main thread pumps pygame events, stamps each one with
`now_us()` the moment it is taken from SDL's queue, and hands paddle and timer
presses to `press_paddle` / `press_timer`. The service (on the same thread when
the window steps it inline, or on its own thread) collects them through
`read_inputs`, which waits on the unit's input queue (`showdown.contract.unit.InputQueue`)
until a press arrives, `wake()` is called, a launch finishes or the timeout runs out.
Everything the service tells the unit (countdown, go, arrow, launch) is recorded under a lock as a
`UnitState` snapshot for the view to draw; `on_change` tells the window a new
frame is needed.

Why `show_go()` is fair: it stamps the clock *before* the state that shows "go"
exists, so the frame with "go" is always drawn after the stamp and a player
who saw it can never be judged early. Stamps are software stamps on one
monotonic clock (`time.perf_counter_ns`), hence `stamps_edges = False`.
"""

from __future__ import annotations

import argparse
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum

from showdown.contract.events import (
    Beep,
    LaunchFinished,
    LaunchPart,
    PaddlePressed,
    Side,
    TimerPressed,
    UnitInput,
)
from showdown.contract.unit import ShowdownUnit

#: How long the emulated launcher runs: a fixed spin-up plus a slice per card.
LAUNCH_BASE_US = 350_000
LAUNCH_PER_CARD_US = 250_000
#: The emulated motor's hard maximum on-time, whatever it is asked.
LAUNCH_MAX_US = 2_000_000


def perf_clock_us() -> int:
    """The emulator's clock: monotonic, microsecond resolution, shared by inputs and "go"."""
    return time.perf_counter_ns() // 1000


class Display(StrEnum):
    """What the countdown lights and digits show."""

    IDLE = "idle"  # nothing loaded
    LOADED = "loaded"  # cards in, waiting for the timer button
    COUNTING = "counting"
    GO = "go"
    FROZEN = "frozen"  # someone pressed early; the countdown stopped where it was


class Verdict(StrEnum):
    """What the unit's lights and digits say once a duel is decided.

    The service never tells a unit the verdict (it only points the arrow and
    launches), so the window derives this from the service's `VerdictGiven`
    and hands it to `EmulatorUnit.show_verdict`; it lasts until the next duel
    is loaded or started.
    """

    WIN = "win"  # the winner's paddle lights up, "WIN" points at them
    EARLY = "early"  # the red arrow toward who pressed too soon, "EARLY"
    TIE = "tie"
    TIME = "time"  # nobody pressed in time
    OFF = "off"  # aborted: lights off


@dataclass(frozen=True, slots=True)
class UnitState:
    """Everything the view needs to draw the unit, as one immutable snapshot."""

    display: Display = Display.IDLE
    cards: int = 0
    countdown_total_us: int = 0
    countdown_end_us: int = 0  # the planned "go" instant while counting
    remaining_us: int = 0  # the countdown's remaining time when last refreshed or frozen
    go_us: int | None = None
    arrow: Side | None = None
    launch: tuple[LaunchPart, ...] = ()
    launch_start_us: int = 0
    launch_end_us: int = 0
    verdict: Verdict | None = None  # shown over the countdown's lights once decided
    winner: Side | None = None  # whose paddle lights up for Verdict.WIN
    held: frozenset[Side] = frozenset()  # paddles held down right now
    timer_held: bool = False
    version: int = 0

    def remaining_at(self, now_us: int) -> int:
        """Countdown time left at `now_us` (the lights move smoothly between refreshes)."""
        if self.display is Display.COUNTING:
            return max(0, self.countdown_end_us - now_us)
        if self.display is Display.FROZEN:
            return self.remaining_us
        return 0

    def launching_at(self, now_us: int) -> bool:
        return bool(self.launch) and now_us < self.launch_end_us

    def animating_at(self, now_us: int) -> bool:
        """True while the picture changes by itself (countdown or cards in flight).

        A verdict stops the lights (an aborted countdown no longer runs down).
        """
        counting = self.display is Display.COUNTING and self.verdict is None
        return counting or self.launching_at(now_us)


@dataclass
class EmulatorUnit(ShowdownUnit):
    """A Showdown Unit in a window; see the module docstring for threads and timing."""

    clock_us: Callable[[], int] = perf_clock_us
    #: Plays a `Beep` (a `ToneBank.play`); None keeps the unit silent.
    sound: Callable[[Beep], object] | None = None
    #: Called (from whichever thread changed it) when the unit's picture changed.
    on_change: Callable[[], None] | None = None
    name: str = "emulator"
    stamps_edges: bool = False
    #: Software stamps are how the emulator works, and docs/emulator.md says so: the
    #: service's warning, meant for a real unit's wiring or driver, would only teach people
    #: to ignore warnings.
    software_stamps_expected: bool = True
    runs_own_countdown: bool = False
    # Presses are stamped as the loop takes them from SDL and reach the service in the
    # same turn, so nothing stamped earlier can still be on its way after a couple of ms.
    settle_us: int | None = 2_000
    #: The most recent beeps, newest last: what a listener would have heard.
    beeps: deque[Beep] = field(default_factory=lambda: deque(maxlen=32))

    def __post_init__(self) -> None:
        super().__init__()
        self._cond = threading.Condition()
        self._state = UnitState()
        self._launch_pending = False
        self.closed = False

    # -- what the window calls (main thread) --

    @property
    def state(self) -> UnitState:
        with self._cond:
            return self._state

    def press_paddle(self, side: Side, t_us: int) -> None:
        """A paddle went down at `t_us` (key, mouse or touch): report it and draw it held."""
        self.inputs.put(PaddlePressed(side, t_us))
        with self._cond:
            self._update(held=self._state.held | {side})

    def release_paddle(self, side: Side) -> None:
        with self._cond:
            self._update(held=self._state.held - {side})

    def press_timer(self, t_us: int) -> None:
        self.inputs.put(TimerPressed(t_us))
        with self._cond:
            self._update(timer_held=True)

    def release_timer(self) -> None:
        with self._cond:
            self._update(timer_held=False)

    def _update(self, **changes: object) -> None:
        """Replace the snapshot (caller holds the lock) and tell the window."""
        self._state = replace(self._state, version=self._state.version + 1, **changes)  # type: ignore[arg-type]
        if self.on_change is not None:
            self.on_change()

    # -- clock and inputs --

    def now_us(self) -> int:
        return self.clock_us()

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        return self.inputs.take(timeout_s, due=self._launch_due)

    def _launch_due(self) -> float | None:
        """The launch's end, a timed input: reported once due; else seconds until it is."""
        with self._cond:
            self._finish_launch_if_due()
            if not self._launch_pending:
                return None
            return (self._state.launch_end_us - self.now_us()) / 1_000_000

    def _finish_launch_if_due(self) -> None:
        if self._launch_pending and self.now_us() >= self._state.launch_end_us:
            self._launch_pending = False
            cards = sum(p.cards for p in self._state.launch)
            self.inputs.put(LaunchFinished(self._state.launch_end_us, cards_counted=cards))

    # -- display and sound (the service) --

    def show_idle(self) -> None:
        with self._cond:
            self._update(display=Display.IDLE, cards=0, arrow=None, launch=(), verdict=None,
                         winner=None)

    def show_loaded(self, cards: int) -> None:
        with self._cond:
            self._update(display=Display.LOADED, cards=cards, launch=(), go_us=None,
                         remaining_us=0, verdict=None, winner=None)

    def start_countdown(self, countdown_us: int) -> None:
        now = self.now_us()
        with self._cond:
            self._update(display=Display.COUNTING, countdown_total_us=countdown_us,
                         countdown_end_us=now + countdown_us, remaining_us=countdown_us,
                         go_us=None, arrow=None, launch=(), verdict=None, winner=None)
        self.beep(Beep.TICK)

    def show_countdown(self, remaining_us: int, total_us: int) -> None:
        """Tick once per whole second crossed; the lights are drawn from the plan itself."""
        with self._cond:
            before = self._state.remaining_us
            if self._state.display is not Display.COUNTING:
                return
            self._state = replace(self._state, remaining_us=remaining_us)
        if remaining_us > 0 and (before - 1) // 1_000_000 != (remaining_us - 1) // 1_000_000:
            self.beep(Beep.TICK)

    def show_go(self) -> int:
        stamp = self.now_us()  # before the state that draws "go" exists: see module docstring
        with self._cond:
            self._update(display=Display.GO, go_us=stamp, remaining_us=0)
        return stamp

    def freeze_countdown(self) -> None:
        now = self.now_us()
        with self._cond:
            if self._state.display is Display.COUNTING:
                self._update(display=Display.FROZEN,
                             remaining_us=max(0, self._state.countdown_end_us - now))

    def set_arrow(self, side: Side | None) -> None:
        with self._cond:
            if self._state.arrow is not side:
                self._update(arrow=side)

    def show_verdict(self, verdict: Verdict | None, winner: Side | None = None) -> None:
        """Light the verdict (not part of `ShowdownUnit`: the window calls it, see `Verdict`).

        None takes it down again. Loading or starting a duel clears it by itself.
        """
        with self._cond:
            if (self._state.verdict, self._state.winner) != (verdict, winner):
                self._update(verdict=verdict, winner=winner)

    def beep(self, kind: Beep) -> None:
        self.beeps.append(kind)
        if self.sound is not None:
            self.sound(kind)

    # -- the launcher --

    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        cards = sum(p.cards for p in parts)
        now = self.now_us()
        duration = min(LAUNCH_MAX_US, LAUNCH_BASE_US + LAUNCH_PER_CARD_US * cards)
        with self._cond:
            self._launch_pending = True
            self._update(launch=tuple(parts), launch_start_us=now, launch_end_us=now + duration,
                         cards=0)
        self.inputs.recheck()  # a waiting read now also ends when the launch does

    def stop_launcher(self) -> None:
        """Cut the animation short: the cards land where they were going at once."""
        with self._cond:
            if self._launch_pending:
                now = min(self._state.launch_end_us, self.now_us())
                self._update(launch_end_us=now)
                self._finish_launch_if_due()

    def close(self) -> None:
        self.stop_launcher()
        self.closed = True


def open_unit(args: argparse.Namespace) -> EmulatorUnit:
    """`--device emulator`: the unit alone; the window that shows it is
    `uno_showdown.window.window`."""
    return EmulatorUnit()
