"""What a Showdown Unit can show and do, and what it reports.

Every adapter (GPIO, serial microcontroller, pygame emulator, in-memory fake)
implements `ShowdownUnit`. The service is the only caller, from one thread,
except `wake()`, which any thread may call to cut a `read_inputs` wait short.

What a unit reports (`PaddlePressed`, `TimerPressed`, `GoShown`, `LaunchFinished`,
`UnitFault`), the sounds it makes (`Beep`) and the cards it launches (`LaunchPart`) are the
contract's types, in `contract.events`; this module holds only the interface.

All times are integers in microseconds on the unit's own monotonic clock: the
clock its paddle edges are stamped on. The duel is judged on those stamps, so
an adapter must stamp an edge when it happened (kernel edge tick, board timer),
never when Python got round to reading it.
"""

from __future__ import annotations

import threading
from abc import ABC, abstractmethod

from uno_showdown.contract.events import Beep, LaunchPart, Side, UnitInput

__all__ = ["ShowdownUnit"]


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
        self._wake = threading.Event()

    # -- clock and inputs --

    @abstractmethod
    def now_us(self) -> int:
        """The unit's clock, the one its edges are stamped on."""

    @abstractmethod
    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        """Return what the unit reported, waiting up to `timeout_s` for something.

        Returns early (maybe with nothing) when `wake()` is called.
        """

    def wake(self) -> None:
        """Cut a `read_inputs` wait short; safe from any thread."""
        self._wake.set()

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
