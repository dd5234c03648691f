"""The duel engine: a sans-I/O state machine that judges a showdown by timestamps.

It never reads a clock, sleeps, starts a thread or touches hardware (the style
of h11). The service feeds it inputs, each carrying the unit's own stamp in
integer microseconds, and tells it the time with `advance(now_us)`; it answers
with actions for the service to perform.

Why it waits before it judges: an edge stamped early can reach Python late (a
busy CPU, a USB frame, a reader thread that was not scheduled). The verdict is
a function of the stamps alone, so the engine holds it for `settle_us` after
the decisive press; anything stamped earlier arrives within that time and is
counted. Only the first edge of each paddle counts (switch bounce), edges
before the countdown started are not early presses, and nothing after the
verdict counts. A duel launches at most once, whatever it is fed.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, ClassVar, TypeVar

from showdown.contract.events import (
    DuelResult,
    GoShown,
    LaunchPart,
    Outcome,
    PaddlePressed,
    Side,
    TiePolicy,
)
from showdown.contract.i18n import _

__all__ = [
    "Abort",
    "Action",
    "Announce",
    "Contest",
    "Duel",
    "DuelConfig",
    "DuelError",
    "DuelInput",
    "FreezeCountdown",
    "LaunchCards",
    "Load",
    "Phase",
    "PointArrow",
    "ShowGo",
    "ShowLoaded",
    "Start",
    "StartCountdown",
    "judge",
    "run_to_verdict",
]


class DuelError(ValueError):
    """An input that can never be valid (bad card count, same side twice)."""


class Phase(StrEnum):
    """Where a duel is. The three running phases are the countdown's own states."""

    IDLE = "idle"  # nothing loaded
    LOADED = "loaded"  # waiting for the timer button
    COUNTING = "counting"  # the countdown runs; go is still to come
    FROZEN = "frozen"  # an early press stopped the countdown; the verdict follows
    GO = "go"  # go is on (shown, or reported by the unit); waiting for the presses to settle
    DONE = "done"  # verdict given; a later press is only timed (or contests it)

    @property
    def running(self) -> bool:
        """Started and not yet decided: the engine wants `advance` calls."""
        return self in _RUNNING


_RUNNING = frozenset({Phase.COUNTING, Phase.FROZEN, Phase.GO})


MAX_COUNTDOWN_US = 60_000_000  # a minute: countdowns and the response timeout
MAX_TIE_WINDOW_US = 50_000  # 50 ms: beyond that people can see who was first
MAX_SETTLE_US = 1_000_000  # a second: a link slower than that is broken, not late
#: The most cards one duel loads, on any unit: a Wild Showdown asks for 1 to 3, a house rule
#: may load more, and 20 is what a microcontroller unit's launcher takes at once.
MAX_CARDS = 20


@dataclass(frozen=True, slots=True)
class DuelConfig:
    """How a table wants its duels judged. Every time is in microseconds."""

    countdown_min_us: int = 3_000_000
    countdown_max_us: int = 6_000_000
    #: Presses closer together than this are a tie (equal stamps always are).
    tie_window_us: int = 100
    tie_policy: TiePolicy = TiePolicy.REMATCH
    #: Nobody pressed this long after "go": the duel is a timeout.
    response_timeout_us: int = 3_000_000
    #: How long an edge may take to reach the engine; the verdict waits this
    #: long after the decisive press so a late, earlier-stamped edge still counts.
    settle_us: int = 25_000

    def __post_init__(self) -> None:
        object.__setattr__(self, "tie_policy", TiePolicy(self.tie_policy))
        # Bounds a table could mean; past them a value is a typing slip (a tie window of
        # minutes would make every duel a tie, a settle time of hours would never judge).
        limits = {
            "countdown_min_us": (1, MAX_COUNTDOWN_US),
            "countdown_max_us": (1, MAX_COUNTDOWN_US),
            "response_timeout_us": (1, MAX_COUNTDOWN_US),
            "tie_window_us": (0, MAX_TIE_WINDOW_US),
            "settle_us": (0, MAX_SETTLE_US),
        }
        for name, (low, high) in limits.items():
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise DuelError(_("{name} must be a whole number from {low} to {high} µs, "
                                  "not {value}").format(name=name, low=f"{low:,}",
                                                        high=f"{high:,}", value=repr(value)))
        if self.countdown_min_us > self.countdown_max_us:
            raise DuelError(
                _("countdown_min_us ({low}) is above countdown_max_us ({high})").format(
                    low=self.countdown_min_us, high=self.countdown_max_us)
            )


# --- inputs ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Load:
    """Cards are loaded for a duel between two sides."""

    challenger: Side
    opponent: Side
    cards: int = 1
    t_us: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "challenger", Side(self.challenger))
        object.__setattr__(self, "opponent", Side(self.opponent))
        if self.challenger is self.opponent:
            raise DuelError(_("challenger and opponent must sit on different sides"))
        if not isinstance(self.cards, int) or self.cards < 1:
            raise DuelError(_("a duel needs at least one card, not {cards}").format(
                cards=repr(self.cards)))


@dataclass(frozen=True, slots=True)
class Start:
    """The timer button; `countdown_us` None means draw it at random."""

    t_us: int
    countdown_us: int | None = None

    def __post_init__(self) -> None:
        if self.countdown_us is not None and self.countdown_us <= 0:
            raise DuelError(_("countdown_us must be positive, not {value}").format(
                value=self.countdown_us))


@dataclass(frozen=True, slots=True)
class Abort:
    """Stop the duel without a launch (link lost, table cancelled)."""

    t_us: int
    reason: str = "aborted"


#: What the engine is fed. A press and "go" are the unit's own reports (see
#: `showdown.contract.events`).
DuelInput = Load | Start | PaddlePressed | GoShown | Abort


# --- actions -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ShowLoaded:
    cards: int


@dataclass(frozen=True, slots=True)
class StartCountdown:
    start_us: int
    countdown_us: int
    go_at_us: int


@dataclass(frozen=True, slots=True)
class ShowGo:
    """Show "go" now: the planned instant has come."""

    at_us: int


@dataclass(frozen=True, slots=True)
class FreezeCountdown:
    """An early press was seen: stop the countdown at once (the verdict follows)."""

    at_us: int
    side: Side


@dataclass(frozen=True, slots=True)
class PointArrow:
    side: Side


@dataclass(frozen=True, slots=True)
class LaunchCards:
    parts: tuple[LaunchPart, ...]


@dataclass(frozen=True, slots=True)
class Announce:
    """The verdict is final."""

    result: DuelResult


@dataclass(frozen=True, slots=True)
class Contest:
    """A press came after the verdict with a stamp that would have changed it.

    The verdict stands; the service marks the duel contested. `would_be` and `would_win`
    are the verdict the stamps give with this press counted.
    """

    side: Side
    t_us: int
    given: Outcome
    would_be: Outcome
    would_win: Side | None


Action = (
    ShowLoaded | StartCountdown | ShowGo | FreezeCountdown | PointArrow | LaunchCards | Announce
    | Contest
)


# --- the judgement, as a pure function ---------------------------------------


@dataclass(frozen=True, slots=True)
class Judgement:
    """What the stamps say now, and when it becomes safe to commit to it."""

    outcome: Outcome
    first: Side | None  # the earliest counted press (early or not)
    commit_at_us: int
    counted: dict[Side, int]


def judge(
    presses: dict[Side, list[int]], start_us: int, go_us: int, config: DuelConfig
) -> Judgement:
    """Judge a duel from its stamps alone.

    `presses` holds every stamp seen per side; only the first at or after the
    start counts. The result is independent of arrival order by construction.
    """
    counted = {
        side: min(stamps)
        for side, stamps in ((s, [t for t in presses.get(s, ()) if t >= start_us]) for s in Side)
        if stamps
    }
    window, settle = config.tie_window_us, config.settle_us
    # An edge reaches the engine at most `settle` after its stamp (inclusive), so the
    # verdict is safe one microsecond after the last stamp that could still change it.
    reach = max(window, 1) + settle
    early = {s: t for s, t in counted.items() if t < go_us}
    if early:
        side, t = min(early.items(), key=lambda kv: (kv[1], kv[0] is not Side.LEFT))
        other = early.get(side.other)
        tied = other is not None and _close(t, other, window)
        outcome = Outcome.TIE if tied else Outcome.EARLY_PRESS
        return Judgement(outcome, side, t + reach, counted)
    deadline = go_us + config.response_timeout_us
    valid = {s: t for s, t in counted.items() if t <= deadline}
    if not valid:
        return Judgement(Outcome.TIMEOUT, None, deadline + settle + 1, counted)
    side, t = min(valid.items(), key=lambda kv: (kv[1], kv[0] is not Side.LEFT))
    other = valid.get(side.other)
    outcome = Outcome.TIE if other is not None and _close(t, other, window) else Outcome.FASTER
    return Judgement(outcome, side, t + reach, counted)


def _close(a: int, b: int, window: int) -> bool:
    return a == b or abs(a - b) < window


def split_cards(cards: int, first: Side) -> tuple[LaunchPart, ...]:
    """Divide a tied launch: the later presser takes the odd card."""
    later = first.other
    parts = (LaunchPart(later, cards - cards // 2), LaunchPart(first, cards // 2))
    return tuple(p for p in parts if p.cards > 0)


# --- the state machine -------------------------------------------------------

_In = TypeVar("_In", Load, Start, PaddlePressed, GoShown, Abort)
#: A handler of `Duel._TRANSITIONS`: called with the duel and the input, it returns the
#: actions the input calls for at once.
_Handler = Callable[["Duel", Any], "list[Action]"]


def _rows(phases: Iterable[Phase], kind: type[_In], handler: Callable[[Duel, _In], list[Action]]
          ) -> list[tuple[tuple[Phase, type], _Handler]]:
    """The transitions that take an input of `kind` to `handler` in each of `phases` (the
    type checker sees that `handler` takes that input)."""
    return [((phase, kind), handler) for phase in phases]


class Duel:
    """One duel, from loading the cards to the verdict (and rematches after a tie).

    `handle(input)` records an input and returns the actions it calls for at
    once; `advance(now_us)` tells the engine the time and returns what has come
    due (go, the verdict). `next_deadline_us` says when to call `advance` next.

    The phase is one named state (`Phase`); which handler takes which input in
    which phase is the table `_TRANSITIONS`, and everything absent from it is ignored.
    """

    def __init__(
        self,
        config: DuelConfig | None = None,
        rng: random.Random | None = None,
        *,
        await_go_report: bool = False,
    ):
        """`await_go_report`: the unit runs its own countdown and reports when it showed go
        (`GoShown`), so no verdict after go is given before that report has arrived, and
        the countdown goes on (`counting`) until it does: the host's estimate of the unit's
        clock may run ahead of the unit, and a press the unit stamped before its go must
        still freeze the countdown when it reaches the engine after that estimate passed go.
        """
        self.config = config or DuelConfig()
        self._rng = rng or random.Random()
        self.await_go_report = await_go_report
        self._go_reports: list[int] = []
        self._timing: tuple[int, int] | None = None  # (start, go) the verdict was timed on
        self.phase = Phase.IDLE
        self.load: Load | None = None
        self.start_us: int | None = None
        self.countdown_us: int | None = None
        self.go_at_us: int | None = None
        self._presses: dict[Side, list[int]] = {Side.LEFT: [], Side.RIGHT: []}
        self.results: list[DuelResult] = []
        #: The first press that would have changed the final verdict, had it come in time.
        self.contest: Contest | None = None

    @property
    def result(self) -> DuelResult | None:
        """The final verdict, once given (a rematched tie is not final)."""
        return self.results[-1] if self.phase is Phase.DONE and self.results else None

    @property
    def counting(self) -> bool:
        """The countdown is on: started, not frozen by an early press, no "go" yet."""
        return self.phase is Phase.COUNTING

    @property
    def launched(self) -> bool:
        """Cards have flown for this duel (a duel launches at most once)."""
        return any(r.launch for r in self.results)

    @property
    def go_shown_us(self) -> int | None:
        """The unit's own stamp of "go" for the current round, if it reported one."""
        if self.start_us is None:
            return None
        shown = [t for t in self._go_reports if t >= self.start_us]
        return min(shown) if shown else None

    @property
    def go_us(self) -> int | None:
        """The go presses are judged against: the go the unit reported showing, else the
        planned one. A press before the planned go froze the countdown there, so a go
        shown later anyway (by a unit that heard of the press late) does not move the
        line past it; that keeps the verdict the same whenever the report arrives."""
        shown, planned = self.go_shown_us, self.go_at_us
        if shown is None or planned is None:
            return planned
        if shown > planned and self.start_us is not None and any(
            self.start_us <= t < planned for stamps in self._presses.values() for t in stamps
        ):
            return planned
        return shown

    def handle(self, event: DuelInput) -> list[Action]:
        handler = self._TRANSITIONS.get((self.phase, type(event)))
        if handler is None:
            return []
        return handler(self, event)

    def advance(self, now_us: int) -> list[Action]:
        """Tell the engine the time: go when it is due (alone: the caller feeds the unit's
        stamp of it before the next call), else the verdict once it is safe."""
        if not self.phase.running:
            return []
        assert self.go_at_us is not None and self.start_us is not None
        if self.phase is Phase.COUNTING and now_us >= self.go_at_us and not self.await_go_report:
            # Nothing is judged in this call: presses are judged against the go the players
            # saw, and the unit says when that was (`GoShown`) only once it has shown it.
            self.phase = Phase.GO
            return [ShowGo(self.go_at_us)]
        verdict = self._judge()
        if now_us >= verdict.commit_at_us:
            return self._commit(verdict, now_us)
        return []

    @property
    def next_deadline_us(self) -> int | None:
        """When `advance` has something to do, if nothing else arrives first."""
        if not self.phase.running:
            return None
        assert self.go_at_us is not None
        commit = self._judge().commit_at_us
        if self.phase is Phase.COUNTING and not self.await_go_report:
            return min(self.go_at_us, commit)
        return commit

    # -- handlers --

    def _on_load(self, event: Load) -> list[Action]:
        self.load = event
        self.phase = Phase.LOADED
        return [ShowLoaded(event.cards)]

    def _on_start(self, event: Start) -> list[Action]:
        cfg = self.config
        countdown = event.countdown_us
        if countdown is None:
            countdown = self._rng.randint(cfg.countdown_min_us, cfg.countdown_max_us)
        self.start_us = event.t_us
        self.countdown_us = countdown
        self.go_at_us = event.t_us + countdown
        # A unit's go report may come before the start it belongs to reached the engine.
        self.phase = Phase.GO if self.go_shown_us is not None else Phase.COUNTING
        actions: list[Action] = [StartCountdown(event.t_us, countdown, self.go_at_us)]
        return actions + self._check_early()

    def _on_press(self, event: PaddlePressed) -> list[Action]:
        self._presses[event.side].append(event.t_us)
        if self.phase.running:
            return self._check_early()
        return []

    def _on_go_shown(self, event: GoShown) -> list[Action]:
        self._go_reports.append(event.t_us)
        if self.phase is Phase.COUNTING and self.go_shown_us is not None:
            self.phase = Phase.GO
            # A go shown later than planned turns a press stamped before it into an early
            # one: the table hears it now (freeze, beep, event), not only in the verdict.
            return self._check_early()
        return []

    def _on_abort(self, event: Abort) -> list[Action]:
        result = DuelResult(
            outcome=Outcome.ABORTED,
            winner=None,
            loser=None,
            arrow=None,
            launch=(),
            reaction_us={Side.LEFT: None, Side.RIGHT: None},
            go_us=self.go_us if self.phase.running else None,
            decided_at_us=event.t_us,
            reason=event.reason,
        )
        self.results.append(result)
        self.phase = Phase.DONE
        return [Announce(result)]

    def _on_press_after_verdict(self, event: PaddlePressed) -> list[Action]:
        """Too late to change anything: timed for the players' statistics, and checked.

        A press stamped early enough to have changed the verdict was delivered later than
        the settle time allowed; the verdict stands, but it is contested, never silent.
        """
        self._presses[event.side].append(event.t_us)
        result = self.result
        if (self.contest is not None or result is None or result.outcome is Outcome.ABORTED
                or self._timing is None):
            return []
        start, go = self._timing
        now = judge(self._presses, start, go, self.config)
        would_win = _winner(now.outcome, now.first)
        if now.outcome is result.outcome and would_win is result.winner:
            return []
        self.contest = Contest(event.side, event.t_us, result.outcome, now.outcome, would_win)
        return [self.contest]

    #: Which handler takes which input in which phase; anything absent is ignored. The
    #: handlers themselves (functions, called with the duel), each listed through `_rows`,
    #: so the type checker sees that it takes the input it is listed for.
    _TRANSITIONS: ClassVar[dict[tuple[Phase, type], _Handler]] = dict((
        *_rows((Phase.IDLE,), Load, _on_load),
        *_rows((Phase.LOADED,), Start, _on_start),
        *_rows((Phase.LOADED, *_RUNNING), PaddlePressed, _on_press),
        *_rows((Phase.LOADED, *_RUNNING), GoShown, _on_go_shown),
        *_rows((Phase.IDLE, Phase.LOADED, *_RUNNING), Abort, _on_abort),
        *_rows((Phase.DONE,), PaddlePressed, _on_press_after_verdict),
    ))

    def reaction_us(self) -> dict[Side, int | None]:
        """Each player's reaction (first press minus go), including presses that came after
        the verdict, up to the response timeout. The verdict itself never waits for these."""
        if self._timing is None or (self.result and self.result.outcome is Outcome.ABORTED):
            return {s: None for s in Side}
        start, go = self._timing
        deadline = go + self.config.response_timeout_us
        out: dict[Side, int | None] = {}
        for side in Side:
            stamps = [t for t in self._presses[side] if start <= t <= deadline]
            out[side] = min(stamps) - go if stamps else None
        return out

    def reactions_complete(self, now_us: int) -> bool:
        """No further press can change `reaction_us()`."""
        if self._timing is None:
            return self.phase is Phase.DONE
        go = self._timing[1]
        if now_us > go + self.config.response_timeout_us + self.config.settle_us:
            return True
        return all(v is not None for v in self.reaction_us().values())

    # -- judging --

    def _judge(self) -> Judgement:
        assert self.start_us is not None and self.go_us is not None
        verdict = judge(self._presses, self.start_us, self.go_us, self.config)
        if (
            self.await_go_report
            and self.go_shown_us is None
            and verdict.outcome is not Outcome.EARLY_PRESS
            and not (verdict.first is not None and verdict.counted[verdict.first] < self.go_us)
        ):
            # Whether a press came after go depends on when the unit showed it; wait for
            # the report, or give up on it when even a timeout would have been decided.
            assert self.go_at_us is not None
            give_up = self.go_at_us + self.config.response_timeout_us + self.config.settle_us + 1
            verdict = replace(verdict, commit_at_us=max(verdict.commit_at_us, give_up))
        return verdict

    def _check_early(self) -> list[Action]:
        """Freeze the countdown the moment an early press is known.

        Also once "go" is on: a press stamped before go that reaches the engine after it
        (a lost frame, a late report) is an early press all the same, and the table
        hears it as one (the freeze, its beep and its event), not only in the verdict.
        """
        if self.phase not in (Phase.COUNTING, Phase.GO):
            return []  # frozen already: the early press has been told
        verdict = self._judge()
        if verdict.outcome in (Outcome.EARLY_PRESS, Outcome.TIE) and verdict.first is not None:
            first_t = verdict.counted[verdict.first]
            assert self.go_us is not None
            if first_t < self.go_us:
                self.phase = Phase.FROZEN
                return [FreezeCountdown(first_t, verdict.first)]
        return []

    def _commit(self, verdict: Judgement, now_us: int) -> list[Action]:
        assert self.load is not None and self.go_us is not None and self.go_at_us is not None
        # Timed against the go judged on (see `go_us`): the one the unit showed, or the
        # planned go when an early press froze the countdown before it could show it.
        go = self.go_us
        # A press stamped after the verdict could not have been seen live, so a
        # replay must not count it either.
        last = min(
            go + self.config.response_timeout_us,
            verdict.commit_at_us - self.config.settle_us - 1,  # surely arrived by the verdict
        )
        reaction = {
            s: (verdict.counted[s] - go if s in verdict.counted and verdict.counted[s] <= last
                else None)
            for s in Side
        }
        assert self.start_us is not None
        self._timing = (self.start_us, go)
        cards = self.load.cards
        first = verdict.first
        winner = loser = arrow = None
        launch: tuple[LaunchPart, ...] = ()
        rematch = False
        if verdict.outcome is Outcome.EARLY_PRESS:
            assert first is not None
            loser, winner, arrow = first, first.other, first
            launch = (LaunchPart(first, cards),)
        elif verdict.outcome is Outcome.FASTER:
            assert first is not None
            winner, loser = first, first.other
            launch = (LaunchPart(loser, cards),)
        elif verdict.outcome is Outcome.TIE:
            assert first is not None
            if self.config.tie_policy is TiePolicy.SPLIT:
                launch = split_cards(cards, first)
            else:
                rematch = True
        if self.launched:
            launch = ()  # never twice, whatever happened before
        result = DuelResult(
            outcome=verdict.outcome,
            winner=winner,
            loser=loser,
            arrow=arrow,
            launch=launch,
            reaction_us=reaction,
            go_us=go,
            decided_at_us=now_us,
            rematch=rematch,
        )
        self.results.append(result)
        actions: list[Action] = []
        if arrow is not None:
            actions.append(PointArrow(arrow))
        if launch:
            actions.append(LaunchCards(launch))
        actions.append(Announce(result))
        if rematch:
            self.phase = Phase.LOADED
            self.start_us = self.go_at_us = None
            actions.append(ShowLoaded(cards))
        else:
            self.phase = Phase.DONE
        return actions


def _winner(outcome: Outcome, first: Side | None) -> Side | None:
    """Who a judgement names the winner: the first presser, or the other one if early."""
    if first is None:
        return None
    if outcome is Outcome.FASTER:
        return first
    if outcome is Outcome.EARLY_PRESS:
        return first.other
    return None


def run_to_verdict(
    duel: Duel, inputs: list[DuelInput], until_us: int | None = None
) -> list[Action]:
    """Feed every input, then let time run out: the verdict of a complete record.

    Used by replay and tests, where all inputs are known up front.
    """
    actions: list[Action] = []
    for event in inputs:
        actions.extend(duel.handle(event))
    horizon = until_us
    while duel.phase.running:
        deadline = duel.next_deadline_us
        assert deadline is not None
        if horizon is not None and deadline > horizon:
            break
        actions.extend(duel.advance(deadline))
    return actions

