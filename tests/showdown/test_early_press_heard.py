"""An early press is always heard, on a unit that counts down and reports its own go.

The host only estimates the unit's clock (a Pico's over USB: the estimate ran 36-41 ms
ahead on the emulated board), and a press's frame may reach it late (a lost frame is resent
10 ms later; a busy host reads later still). Whatever the estimate's error and however late
the press arrives (0-1 s, inside the response timeout), a press the unit stamped before its
go is told as an early press: the countdown freezes, the early beep sounds, listeners hear
`EarlyPressSeen`, the verdict is the early press, and the duel log replays to it.

The fake unit here is a board: it shows go at the planned instant unless it saw the press
first (then it never shows go, as the firmware does); with `board_saw_it` False it showed go
anyway (the press's edge came to it late), and the press reaches the host after that report.
"""

from __future__ import annotations

import heapq
import io
import random
from dataclasses import dataclass

from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.fake import FakeUnit
from showdown.contract.events import (
    Beep,
    EarlyPressSeen,
    GoShown,
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    Side,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.duel.replay import replay
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService
from tests.profiles import scale

COUNTDOWN_US = 2_000_000


@dataclass
class Board(FakeUnit):
    """A unit that runs its own countdown, with a host whose estimate of its clock is off
    by `clock_error_us` (positive: the estimate runs ahead of the board)."""

    clock_error_us: int = 0
    board_saw_it: bool = True
    go_latency_us: int = 0
    report_transit_us: int = 0
    early_stamp_us: int | None = None  # the early press, on the board's clock

    runs_own_countdown = True

    def now_us(self) -> int:
        return self._now + self.clock_error_us

    def start_countdown_at(self, start_us: int, countdown_us: int) -> None:
        super().start_countdown_at(start_us, countdown_us)
        go = start_us + countdown_us + self.go_latency_us
        if self.early_stamp_us is None or not self.board_saw_it:
            self.deliver(GoShown(go), arrive_us=go + self.report_transit_us)


@st.composite
def cases(draw: st.DrawFn) -> dict[str, object]:
    return {
        "side": draw(st.sampled_from(list(Side))),
        "before_go_us": draw(st.integers(1, 200_000)),  # how long before go it was stamped
        "delay_us": draw(st.integers(0, 1_000_000)),  # how late it reached the host
        "clock_error_us": draw(st.integers(-50_000, 600_000)),
        "board_saw_it": draw(st.booleans()),
        "go_latency_us": draw(st.integers(0, 3_000)),
        "report_transit_us": draw(st.integers(0, 15_000)),
        "other_after_go_us": draw(st.none() | st.integers(0, 500_000)),
    }


def play(case: dict[str, object]) -> tuple[Board, list[object], list[str]]:
    side = case["side"]
    assert isinstance(side, Side)
    unit = Board(start_us=1_000_000, clock_error_us=int(case["clock_error_us"]),  # type: ignore[call-overload]
                 board_saw_it=bool(case["board_saw_it"]),
                 go_latency_us=int(case["go_latency_us"]),  # type: ignore[call-overload]
                 report_transit_us=int(case["report_transit_us"]))  # type: ignore[call-overload]
    log = io.StringIO()
    duel_log = DuelLog(stream=log)
    service = ShowdownService(unit, DuelConfig(), rng=random.Random(1), duel_log=duel_log)
    feed = service.subscribe("test")
    service.load(Side.LEFT, Side.RIGHT, 2)
    service.step(0)
    service.start(COUNTDOWN_US)
    service.step(0)
    duel = service.duel
    assert duel is not None and duel.go_at_us is not None
    go = duel.go_at_us  # the board counts from the engine's start, on its own clock
    stamp = go - int(case["before_go_us"])  # type: ignore[call-overload]
    assert duel.start_us is not None and stamp > duel.start_us
    unit.early_stamp_us = stamp
    if case["board_saw_it"]:  # the board froze at once: no go report will come
        unit._queue = [e for e in unit._queue if not isinstance(e[2], GoShown)]
        heapq.heapify(unit._queue)
    unit.deliver(PaddlePressed(side, stamp), arrive_us=stamp + int(case["delay_us"]))  # type: ignore[call-overload]
    other = case["other_after_go_us"]
    if other is not None and case["board_saw_it"]:
        later = go + int(other)  # type: ignore[call-overload]
        unit.deliver(PaddlePressed(side.other, later), arrive_us=later + 5_000)
    heard: list[object] = []
    for _ in range(20_000):
        service.step()
        heard += feed.drain()
        if any(isinstance(e, ReactionsTimed) for e in heard) and not unit.pending():
            break
    else:
        raise AssertionError("the duel never finished")
    assert duel_log.flush(5.0)
    service.close()
    return unit, heard, log.getvalue().splitlines()


def _assert_heard_early(case: dict[str, object]) -> None:
    unit, heard, lines = play(case)
    side = case["side"]
    seen = [e for e in heard if isinstance(e, EarlyPressSeen)]
    assert [e.side for e in seen] == [side], (case, heard)
    assert "freeze_countdown" in unit.names()
    beeps = [c.args[0] for c in unit.calls if c.name == "beep"]
    assert Beep.EARLY in beeps, beeps
    (verdict,) = [e for e in heard if isinstance(e, VerdictGiven)]
    assert verdict.result.outcome is Outcome.EARLY_PRESS and verdict.result.loser is side
    (again,) = replay(lines)
    assert again.matches is True and again.result.loser is side


@settings(max_examples=scale(150, 5_000), deadline=None)
@given(cases())
def test_a_press_stamped_before_go_is_heard_early_whatever_the_delay_and_clock(case) -> None:
    _assert_heard_early(case)


def test_the_estimate_ahead_and_a_late_frame_the_issue_names() -> None:
    """The estimate 40 ms ahead, a press 1 ms before go whose frame came 12 ms late."""
    _assert_heard_early({
        "side": Side.RIGHT, "before_go_us": 1_000, "delay_us": 12_000,
        "clock_error_us": 40_000, "board_saw_it": True, "go_latency_us": 0,
        "report_transit_us": 500, "other_after_go_us": None,
    })
