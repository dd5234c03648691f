"""The event clock: a pure function of the stored clock events and a `now` passed in.

The organiser starts a stage (a flight, then the final), may pause and resume it, and may
call time (`end`); otherwise the time is up when the stage's minutes have run, pauses not
counted. After the time is up the break before the next stage counts down (the seed's 10
minutes after qualifying while the results are copied, 15 between two flights); the next
stage starts when the organiser starts it, break over or not.

Times are wall-clock microseconds since the Unix epoch (`*_us`), like the companion's time
boxes, because the events are stored and read by other processes and must outlive a reboot.
Nothing here reads a clock or a file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from championship.core.settings import Settings

MINUTE_US = 60_000_000
FINAL = "final"


def flight_key(number: int) -> str:
    return f"flight-{number}"


class Kind(StrEnum):
    START = "start"
    PAUSE = "pause"
    RESUME = "resume"
    END = "end"


@dataclass(frozen=True, slots=True)
class ClockChange:
    kind: Kind
    stage: str
    at_us: int


@dataclass(frozen=True, slots=True)
class StagePlan:
    key: str  # "flight-1", "flight-2" or "final"
    duration_us: int
    break_us: int  # the break after the time is up, before the next stage


def stage_plan(settings: Settings, flights: int) -> tuple[StagePlan, ...]:
    """The stages of an event drawn into `flights` flights, the final last."""
    if flights <= 1:
        stages = [StagePlan(flight_key(1), settings.qualifying_minutes * MINUTE_US,
                            settings.break_minutes * MINUTE_US)]
    else:
        stages = [StagePlan(flight_key(n), settings.flight_minutes * MINUTE_US,
                            (settings.flight_break_minutes if n < flights
                             else settings.break_minutes) * MINUTE_US)
                  for n in range(1, flights + 1)]
    return (*stages, StagePlan(FINAL, settings.final_minutes * MINUTE_US, 0))


@dataclass(frozen=True, slots=True)
class StageClock:
    """One stage's clock, replayed from its events."""

    stage: str
    duration_us: int
    started_at_us: int
    paused_us: int = 0  # time spent in pauses that have ended
    paused_at_us: int | None = None  # while paused: since when
    ended_at_us: int | None = None  # when the organiser called time

    @property
    def paused(self) -> bool:
        return self.paused_at_us is not None and self.ended_at_us is None

    def time_up_at(self) -> int | None:
        """When the time is (or was) up; None while paused (it is not known yet)."""
        if self.ended_at_us is not None:
            return self.ended_at_us
        if self.paused_at_us is not None:
            return None
        return self.started_at_us + self.duration_us + self.paused_us

    def time_up(self, now_us: int) -> bool:
        up = self.time_up_at()
        return up is not None and now_us >= up

    def left(self, now_us: int) -> int:
        """Microseconds still to play (frozen while paused, 0 once the time is up)."""
        if self.ended_at_us is not None:
            return 0
        if self.paused_at_us is not None:
            return max(0, self.started_at_us + self.duration_us + self.paused_us
                       - self.paused_at_us)
        return max(0, self.started_at_us + self.duration_us + self.paused_us - now_us)


def replay(events: Iterable[ClockChange], plan: Sequence[StagePlan]) -> dict[str, StageClock]:
    """Every started stage's clock, from its events in the order they were stored."""
    durations = {p.key: p.duration_us for p in plan}
    clocks: dict[str, StageClock] = {}
    for e in events:
        c = clocks.get(e.stage)
        if e.kind is Kind.START:
            if c is None and e.stage in durations:
                clocks[e.stage] = StageClock(e.stage, durations[e.stage], e.at_us)
        elif c is None or c.ended_at_us is not None or c.time_up(e.at_us):
            continue
        elif e.kind is Kind.PAUSE and c.paused_at_us is None:
            clocks[e.stage] = _with(c, paused_at_us=e.at_us)
        elif e.kind is Kind.RESUME and c.paused_at_us is not None:
            clocks[e.stage] = _with(c, paused_us=c.paused_us + e.at_us - c.paused_at_us,
                                    paused_at_us=None)
        elif e.kind is Kind.END:
            up = c.time_up_at()
            clocks[e.stage] = _with(c, ended_at_us=e.at_us if up is None else min(up, e.at_us))
    return clocks


def _with(c: StageClock, **changes: int | None) -> StageClock:
    return replace(c, **changes)  # type: ignore[arg-type]


class Status(StrEnum):
    NOT_STARTED = "not_started"  # no stage has started yet
    RUNNING = "running"
    PAUSED = "paused"
    TIME_UP = "time_up"  # the current stage's time is up (its break may be running)


@dataclass(frozen=True, slots=True)
class ClockView:
    """What the event clock shows at one moment."""

    stage: str | None  # the stage started last
    status: Status
    left_us: int | None  # running or paused: the time still to play
    time_up_at_us: int | None  # when the current stage's time is (or was) up
    break_left_us: int | None  # time up: what is left of the break (0 once it is over)
    next_stage: str | None  # the stage after the current one (the first when none started)


def clock_view(events: Sequence[ClockChange], plan: Sequence[StagePlan],
               now_us: int) -> ClockView:
    clocks = replay(events, plan)
    keys = [p.key for p in plan]
    started = [k for k in keys if k in clocks]
    if not started:
        return ClockView(None, Status.NOT_STARTED, None, None, None, keys[0] if keys else None)
    stage = started[-1]
    index = keys.index(stage)
    following = keys[index + 1] if index + 1 < len(keys) else None
    c = clocks[stage]
    if c.paused:
        return ClockView(stage, Status.PAUSED, c.left(now_us), None, None, following)
    if not c.time_up(now_us):
        return ClockView(stage, Status.RUNNING, c.left(now_us), c.time_up_at(), None,
                         following)
    up = c.time_up_at()
    assert up is not None
    pause = plan[index].break_us
    left = max(0, pause - (now_us - up)) if following is not None and pause else None
    return ClockView(stage, Status.TIME_UP, 0, up, left, following)
