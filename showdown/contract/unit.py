"""What a Showdown Unit can show and do, and what it reports.

Every adapter (GPIO, serial microcontroller, pygame emulator, in-memory fake)
implements `ShowdownUnit`. The service is the only caller, from one thread,
except `wake()`, which any thread may call to cut a `read_inputs` wait short.
Every adapter puts what it reports on the one `InputQueue` here (`unit.inputs`), from
whichever thread hears it, and the service takes it all at once.

What a unit reports (`PaddlePressed`, `TimerPressed`, `GoShown`, `LaunchFinished`,
`UnitFault`), the sounds it makes (`Beep`) and the cards it launches (`LaunchPart`) are the
contract's types, in `showdown.contract.events`; this module holds only the interface.

All times are integers in microseconds on the unit's own monotonic clock: the
clock its paddle edges are stamped on. The duel is judged on those stamps, so
an adapter must stamp an edge when it happened (kernel edge tick, board timer),
never when Python got round to reading it.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable

from showdown.contract.events import Beep, LaunchPart, Side, UnitInput
from showdown.contract.worker import BoundedQueue, DropPolicy

__all__ = ["INPUT_LIMIT", "InputQueue", "ShowdownUnit"]

#: The most inputs a unit holds for a service that does not read them: a service reads
#: every few milliseconds, so this many waiting means it is stuck.
INPUT_LIMIT = 10_000


class InputQueue(BoundedQueue[UnitInput]):
    """What a unit reported, waiting for the service: every adapter's one input queue.

    Any thread puts (a pin callback, the board link's reader, the window's main thread):
    an append under a lock, never a wait. The service, on its one thread, `take`s
    everything waiting at once, waiting up to a timeout for something; `wake()` cuts
    that wait short from any thread. Bounded like every queue here (`showdown.contract.worker`):
    a service that has read nothing for `INPUT_LIMIT` inputs is stuck, and the oldest are
    dropped, counted and said.
    """

    def __init__(self, name: str = "the service", limit: int = INPUT_LIMIT) -> None:
        super().__init__(name, limit, DropPolicy.OLDEST, noun=("an input", "inputs"))
        self._woken = False
        self._changes = 0  # bumped by `recheck`: a waiting `take` asks `due` again

    def wake(self) -> None:
        """End the current (or the next) `take` now, with whatever is waiting."""
        with self._cond:
            self._woken = True
            self._notify()

    def recheck(self) -> None:
        """Something `due` depends on changed (a launch began): a waiting `take` asks it
        again, without ending early."""
        with self._cond:
            self._changes += 1
            self._notify()

    def wait(self, timeout_s: float) -> bool:
        """Wait up to `timeout_s` until there is something to take (or a wake), taking
        nothing; True if there is."""
        with self._cond:
            return self._wait_for(lambda: bool(self._items) or self._woken,
                                       max(0.0, timeout_s))

    def _news(self, seen: int) -> Callable[[], bool]:
        """Whether a waiting `take` has something to do: an input, a wake, a recheck."""
        return lambda: bool(self._items) or self._woken or self._changes != seen

    def take(self, timeout_s: float,
             due: Callable[[], float | None] | None = None) -> list[UnitInput]:
        """Everything waiting, oldest first, waiting up to `timeout_s` for something.

        Returns early, maybe with nothing, after `wake()`. `due` is the unit's own
        timed input (the emulator's launch ending): called with no lock held before each
        wait, it puts what has come due and says in how many seconds the next comes
        (None: nothing timed), so the wait ends then.
        """
        if timeout_s <= 0 and due is None:  # the fake unit's every read: no clock, no wait
            with self._cond:
                self._woken = False
                return self._take_all()
        deadline = time.monotonic() + max(0.0, timeout_s)
        while True:
            next_s = due() if due is not None else None
            with self._cond:
                wait = deadline - time.monotonic()
                if next_s is not None:
                    wait = min(wait, next_s)
                if not self._items and not self._woken and wait > 0:
                    self._wait_for(self._news(self._changes), wait)
                if self._items or self._woken or time.monotonic() >= deadline:
                    self._woken = False
                    return self._take_all()


class ShowdownUnit(ABC):
    """A Showdown Unit as the service sees it.

    Subclasses implement the abstract methods; the display methods have
    do-nothing defaults so a unit without (say) a countdown display still works.
    """

    #: Short name shown in logs and the CLI.
    name: str = "unit"
    #: True when paddle stamps come from the hardware edge itself. A unit that
    #: stamps in software (or not at all) judges less fairly and says so.
    stamps_edges: bool = True
    #: True for a unit whose software stamps are its nature, said where it is documented
    #: (the desktop emulator): the service does not warn about them.
    software_stamps_expected: bool = False
    #: True when the unit runs its own countdown and reports `GoShown`
    #: (a microcontroller); False when the service tells it when to show "go".
    runs_own_countdown: bool = False
    #: How long this unit's edges can take to reach the service (its measured p99.9
    #: delivery delay, with margin); `run` uses it as the settle time unless told
    #: otherwise. None: the duel config's default.
    settle_us: int | None = None
    #: The most cards one launch can take (a microcontroller's limit); None: any number.
    max_cards: int | None = None

    def __init__(self) -> None:
        #: What the unit reported, for `read_inputs`; any thread puts (see `InputQueue`).
        self.inputs = InputQueue(f"the service reading the {self.name} unit")

    # -- clock and inputs --

    @abstractmethod
    def now_us(self) -> int:
        """The unit's clock, the one its edges are stamped on."""

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        """Return what the unit reported, waiting up to `timeout_s` for something.

        Returns early (maybe with nothing) when `wake()` is called. By default, what the
        unit put on `inputs`.
        """
        return self.inputs.take(timeout_s)

    def wake(self) -> None:
        """Cut a `read_inputs` wait short; safe from any thread."""
        self.inputs.wake()

    # -- display and sound --

    def show_idle(self) -> None:
        """Nothing loaded: lights off, arrows off."""

    def show_loaded(self, cards: int) -> None:
        """Cards are loaded; waiting for the timer button."""

    def start_countdown(self, countdown_us: int) -> None:
        """Begin the countdown. A unit that runs its own will show go by itself."""

    def start_countdown_at(self, start_us: int, countdown_us: int) -> None:
        """Begin the countdown that the engine started at `start_us` (unit clock).

        The service calls this one. A unit that counts on its own clock overrides it so
        that its "go" falls at `start_us + countdown_us`, the engine's planned go,
        however late this call reaches it; the others just start counting now.
        """
        self.start_countdown(countdown_us)

    def show_countdown(self, remaining_us: int, total_us: int) -> None:
        """Refresh the countdown lights; called often by the service while counting."""

    def show_go(self) -> int | None:
        """Show "go" now and return the instant, stamped just before the light went on.

        Units that run their own countdown return None and report `GoShown`.
        """
        return self.now_us()

    def freeze_countdown(self) -> None:
        """Someone pressed early: stop the countdown where it is."""

    def set_arrow(self, side: Side | None) -> None:
        """Light the red arrow toward `side` (None: both off)."""

    def beep(self, kind: Beep) -> None:
        """Make a sound."""

    # -- the launcher --

    @abstractmethod
    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        """Fire the cards: each part toward its side, one after the other.

        Must return quickly; the unit reports `LaunchFinished` when done and
        must stop the motor by itself after its hard maximum on-time.
        """

    @abstractmethod
    def stop_launcher(self) -> None:
        """Stop the motor now. Safe to call at any time, any number of times."""

    def close(self) -> None:
        """Release the hardware; the launcher must be stopped afterwards."""
        self.stop_launcher()

    def __enter__(self) -> ShowdownUnit:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
