"""The contract every part of uno-showdown speaks: sides, unit inputs, verdicts, service events.

This module is the bottom of the import graph (like h11's `_events.py`): it imports only the
standard library and everybody imports it. The duel engine, the device adapters, the
companion and the command line all name a side, a press, "go", a verdict or a configuration
error with the types below, and with no other: one type per concept.

* Sides: `Side`, and `LaunchPart` (cards toward one side).
* What a Showdown Unit reports (`UnitInput`): `PaddlePressed`, `TimerPressed`, `GoShown`,
  `LaunchFinished`, `UnitFault`; and the sounds it is asked to make, `Beep`. A press and "go"
  are also what the duel engine is fed, so the same types serve it.
* Verdicts: `Outcome`, `TiePolicy`, `DuelResult`.
* What the service tells its listeners (`ServiceEvent`): `DuelLoaded`, `CountdownStarted`,
  `GoShown` (with its duel), `EarlyPressSeen`, `VerdictGiven`, `VerdictContested`,
  `ReactionsTimed`, `LaunchFinished` (with its duel), `LaunchFailed`, `UnitFault`.
  Listeners hear them on a thread of their own, never on the loop that owns time.
* `ConfigError`: bad input or configuration from the person at the table; every command
  prints its message as one line and exits with status 2. Adapters raise it too, so no
  layer below the command line needs the command line. It is defined in `showdown.contract.errors`
  (and named here too), so a command that only reads the games file imports none of the
  event types.

Times are integers in microseconds on the unit's own monotonic clock (`*_us`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from showdown.contract.errors import ConfigError

__all__ = [
    "Beep",
    "ConfigError",
    "CountdownStarted",
    "DuelLoaded",
    "DuelResult",
    "EarlyPressSeen",
    "GoShown",
    "LaunchFailed",
    "LaunchFinished",
    "LaunchPart",
    "Listener",
    "Outcome",
    "PaddlePressed",
    "ReactionsTimed",
    "ServiceEvent",
    "Side",
    "TiePolicy",
    "TimerPressed",
    "UnitFault",
    "UnitInput",
    "VerdictContested",
    "VerdictGiven",
]


# --- sides --------------------------------------------------------------------


class Side(StrEnum):
    """A paddle, an arrow and a launch direction all belong to one side."""

    LEFT = "left"
    RIGHT = "right"

    @property
    def other(self) -> Side:
        return Side.RIGHT if self is Side.LEFT else Side.LEFT

    @classmethod
    def parse(cls, text: str) -> Side:
        """Accept `left`/`right` (any case) or `l`/`r`, the way people type them."""
        key = text.strip().lower()
        if key in ("l", "left"):
            return cls.LEFT
        if key in ("r", "right"):
            return cls.RIGHT
        raise ValueError(f"unknown side {text!r}: use 'left' or 'right'")

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class LaunchPart:
    """Cards launched toward one side; a split tie launches two parts."""

    side: Side
    cards: int


# --- what a unit reports (and the engine is fed) -------------------------------


@dataclass(frozen=True, slots=True)
class PaddlePressed:
    """A paddle's press edge, stamped when the edge happened (not when it was read)."""

    side: Side
    t_us: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "side", Side(self.side))


@dataclass(frozen=True, slots=True)
class TimerPressed:
    """The timer button on the unit: starts the countdown of a loaded duel."""

    t_us: int


@dataclass(frozen=True, slots=True)
class GoShown:
    """The instant "go" was shown, stamped just before the light went on.

    A unit that runs its own countdown reports it (`duel_id` None); a unit told when to
    show go returns the stamp from `show_go()` instead. The engine judges presses against
    it, and the service passes it on to listeners with the duel it belongs to.
    """

    t_us: int
    duel_id: int | None = None


@dataclass(frozen=True, slots=True)
class LaunchFinished:
    """The launcher stopped: cards counted out by a sensor (None without one).

    The unit reports it without a duel; the service passes it on with the duel launched.
    """

    t_us: int
    cards_counted: int | None = None
    jammed: bool = False
    duel_id: int | None = None


@dataclass(frozen=True, slots=True)
class UnitFault:
    """Something went wrong on the unit side (link lost, board reset, motor fault).

    With `abort_duel`, a duel in progress is aborted without a launch. With
    `launch_failed`, the launch the unit was last asked for was never confirmed (not sent,
    not acknowledged, refused): nobody can say its cards flew, so the duel that called for
    it ends as `Outcome.LAUNCH_FAILED`.
    """

    t_us: int
    reason: str
    abort_duel: bool = True
    launch_failed: bool = False


UnitInput = PaddlePressed | TimerPressed | GoShown | LaunchFinished | UnitFault


class Beep(StrEnum):
    """Sounds the unit makes; an adapter without a buzzer ignores them."""

    TICK = "tick"  # a countdown step
    GO = "go"
    EARLY = "early"  # someone pressed too soon
    LAUNCH = "launch"
    TIE = "tie"
    TIMEOUT = "timeout"
    ERROR = "error"


# --- verdicts -------------------------------------------------------------------


class Outcome(StrEnum):
    FASTER = "faster"
    EARLY_PRESS = "early_press"
    TIE = "tie"
    TIMEOUT = "timeout"
    ABORTED = "aborted"
    #: Judged, but the launch the verdict called for was never confirmed by the unit: no
    #: cards are credited to anybody, and no win (see `DuelResult.with_launch_failed`).
    LAUNCH_FAILED = "launch_failed"


class TiePolicy(StrEnum):
    REMATCH = "rematch"  # no launch; the same duel can be started again
    SPLIT = "split"  # the cards are divided between both sides


@dataclass(frozen=True, slots=True)
class DuelResult:
    """A verdict, in the terms a table argues about."""

    outcome: Outcome
    winner: Side | None
    loser: Side | None
    arrow: Side | None
    launch: tuple[LaunchPart, ...]
    reaction_us: Mapping[Side, int | None] = field(hash=False, compare=True)
    go_us: int | None = None
    decided_at_us: int | None = None
    rematch: bool = False
    reason: str | None = None

    def with_launch_failed(self, reason: str, t_us: int) -> DuelResult:
        """This verdict once its launch failed: nobody won or takes cards, the arrow is off;
        the reaction times stay (the presses happened), `reason` says what went wrong."""
        return DuelResult(Outcome.LAUNCH_FAILED, None, None, None, (), self.reaction_us,
                          self.go_us, t_us, False, reason)

    def to_json(self) -> dict[str, Any]:
        """The replay command's output object."""
        launch: Any
        if not self.launch:
            launch = None
        elif self.outcome is Outcome.TIE:
            launch = [{"side": p.side.value, "cards": p.cards} for p in self.launch]
        else:
            launch = {"side": self.launch[0].side.value, "cards": self.launch[0].cards}
        return {
            "outcome": self.outcome.value,
            "winner": self.winner.value if self.winner else None,
            "loser": self.loser.value if self.loser else None,
            "arrow": self.arrow.value if self.arrow else None,
            "launch": launch,
            "reaction_us": {s.value: self.reaction_us.get(s) for s in Side},
        }


# --- what the service tells its listeners -------------------------------------------


@dataclass(frozen=True, slots=True)
class DuelLoaded:
    duel_id: int
    challenger: Side
    opponent: Side
    cards: int
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class CountdownStarted:
    duel_id: int
    countdown_us: int
    t_us: int


@dataclass(frozen=True, slots=True)
class EarlyPressSeen:
    duel_id: int
    side: Side
    t_us: int


@dataclass(frozen=True, slots=True)
class VerdictGiven:
    """A verdict, with what the companion needs to record it against players."""

    duel_id: int
    result: DuelResult
    challenger: Side
    opponent: Side
    cards: int
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class VerdictContested:
    """A press reached the service after its duel's verdict with a stamp that would have
    changed it: the edge was delivered later than the settle time allowed.

    The verdict stands (the cards have flown), but it is marked contested in the duel log,
    on the screens and in the duel statistics, so nobody is judged unfairly in silence.
    `would_be` is what the stamps say with the late press counted.
    """

    duel_id: int
    side: Side
    t_us: int
    arrived_us: int
    given: Outcome
    would_be: Outcome
    would_win: Side | None
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ReactionsTimed:
    """Both players' reaction times for a finished duel, once no press can change them.

    Comes after `VerdictGiven` (which never waits for the slower press), so the
    statistics can include the player who lost.
    """

    duel_id: int
    reaction_us: Mapping[Side, int | None]
    players: Mapping[Side, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class LaunchFailed:
    """The launch a verdict called for was not confirmed by the unit, so that duel ends as
    launch failed: `result` is its verdict as it now stands (`Outcome.LAUNCH_FAILED`: no
    winner, no loser, no cards), `reason` what went wrong. Comes after the `VerdictGiven`
    of the same duel, possibly after the next duel was loaded.
    """

    duel_id: int
    reason: str
    result: DuelResult
    challenger: Side
    opponent: Side
    cards: int
    players: Mapping[Side, str] = field(default_factory=dict)


ServiceEvent = (
    DuelLoaded | CountdownStarted | GoShown | EarlyPressSeen | VerdictGiven | VerdictContested
    | ReactionsTimed | LaunchFinished | LaunchFailed | UnitFault
)
Listener = Callable[[ServiceEvent], None]
