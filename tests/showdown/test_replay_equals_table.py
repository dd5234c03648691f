"""Replay equals the table: whatever the scheduling, `replay --check` agrees with the service.

Random duels run through the live service on a fake unit whose loop wakes late at random
(a busy CPU), whose edges arrive late at random (some later than the settle time, so they
contest the verdict), and which, in half the runs, counts down on its own like a
microcontroller and reports "go" late. The duel log the service wrote is replayed, and
every verdict (and every contest) must come out as the table gave it.

`make test-deep` runs 5,000 examples; `make test` a few hundred.
"""

from __future__ import annotations

import heapq
import io
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from hardware.fake import FakeUnit
from showdown.contract.events import (
    GoShown,
    PaddlePressed,
    ReactionsTimed,
    Side,
    TiePolicy,
    UnitInput,
    VerdictContested,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.duel.replay import replay
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService
from tests.profiles import DEEP, scale


@dataclass
class BusyUnit(FakeUnit):
    """A fake unit on a busy machine: the loop oversleeps, and maybe it counts down itself."""

    rng: random.Random = field(default_factory=random.Random)
    max_oversleep_us: int = 0
    own_countdown: bool = False
    go_late_us: int = 0  # how long after the planned go the board shows it
    report_transit_us: int = 0  # and how long its report takes to arrive

    def __post_init__(self) -> None:
        super().__post_init__()
        self.runs_own_countdown = self.own_countdown

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        self.inputs.take(0)  # the wake a delivery gave: this unit's inputs are its script
        limit = self._now + max(0, round(timeout_s * 1_000_000))
        woke = min(limit, self._queue[0][0]) if self._queue else limit
        if self.max_oversleep_us and self.rng.random() < 0.5:
            woke += self.rng.randint(0, self.max_oversleep_us)  # the loop was not scheduled
        self._now = max(self._now, woke)
        out: list[UnitInput] = []
        while self._queue and self._queue[0][0] <= self._now:
            out.append(heapq.heappop(self._queue)[2])
        return out

    def start_countdown_at(self, start_us: int, countdown_us: int) -> None:
        super().start_countdown_at(start_us, countdown_us)
        if self.own_countdown:
            shown = start_us + countdown_us + self.go_late_us
            self.deliver(GoShown(shown), arrive_us=shown + self.report_transit_us)

    def freeze_countdown(self) -> None:
        super().freeze_countdown()
        if self.own_countdown:  # frozen before it showed go: the report never comes
            kept = [e for e in self._queue
                    if not (isinstance(e[2], GoShown) and e[2].t_us > self._now)]
            heapq.heapify(kept)
            self._queue = kept


@st.composite
def tables(draw: st.DrawFn) -> dict[str, object]:
    settle = draw(st.integers(0, 20_000))
    return {
        "config": DuelConfig(
            tie_window_us=draw(st.integers(0, 3_000)),
            tie_policy=draw(st.sampled_from(list(TiePolicy))),
            response_timeout_us=draw(st.integers(200_000, 1_500_000)),
            settle_us=settle,
        ),
        "own_countdown": draw(st.booleans()),
        "go_late_us": draw(st.integers(0, 8_000)),
        "report_transit_us": draw(st.integers(0, 3_000)),
        "max_oversleep_us": draw(st.sampled_from([0, 200, 2_000, 30_000])),
        "seed": draw(st.integers(0, 2**32)),
        "duels": draw(st.lists(st.lists(
            st.tuples(st.sampled_from(list(Side)),
                      st.integers(-800_000, 1_600_000),  # stamp relative to the planned go
                      st.integers(0, 3 * settle + 2_000)),  # how long it took to arrive
            max_size=4), min_size=1, max_size=3)),
    }


def play(case: dict[str, object]) -> tuple[list[str], list[object]]:
    config = case["config"]
    assert isinstance(config, DuelConfig)
    unit = BusyUnit(rng=random.Random(case["seed"]), max_oversleep_us=case["max_oversleep_us"],
                    own_countdown=case["own_countdown"], go_late_us=case["go_late_us"],
                    report_transit_us=case["report_transit_us"])
    log = io.StringIO()
    duel_log = DuelLog(stream=log)
    service = ShowdownService(unit, config, rng=random.Random(1), duel_log=duel_log)
    feed = service.subscribe("test")
    heard: list[object] = []
    countdown = 1_000_000
    for presses in case["duels"]:  # type: ignore[attr-defined]
        service.load(Side.LEFT, Side.RIGHT, 2)
        service.step(0)
        start = unit.now_us()
        service.start(countdown)
        go = start + countdown
        for side, offset, transit in presses:
            stamp = max(start + 1, go + offset)
            unit.deliver(PaddlePressed(side, stamp), arrive_us=stamp + transit)
        first = len(heard)
        for _ in range(5_000):
            service.step()
            heard += feed.drain()
            mine = heard[first:]
            verdicts = [e for e in mine if isinstance(e, VerdictGiven)]
            done = verdicts and (verdicts[-1].result.rematch
                                 or any(isinstance(e, ReactionsTimed) for e in mine))
            if done and not unit.pending():
                break
        else:
            raise AssertionError("the duel never finished")
        heard.append("next duel")
    assert duel_log.flush(5.0)
    return log.getvalue().splitlines(), heard




@pytest.mark.timeout(4 * 3600 if DEEP else 120)
# Each example a table's whole session: a hundred in `make test`, the thousands of the
# deep profile in `make test-deep`.
@settings(max_examples=scale(100, 5_000))
@given(tables())
def test_replay_gives_every_verdict_and_contest_the_table_gave(case) -> None:
    lines, heard = play(case)
    table = [e for e in heard if isinstance(e, VerdictGiven)]
    replayed = replay(lines)
    assert len(replayed) == len(table)
    for told, again in zip(table, replayed, strict=True):
        assert again.matches is True, (told.result, again.result, again.recorded)
        assert again.result.to_json() | {"reaction_us": None} == (
            told.result.to_json() | {"reaction_us": None})
    contested = [e for e in heard if isinstance(e, VerdictContested)]
    assert sum(v.contest is not None for v in replayed) == len(contested)


def test_the_case_the_issue_names_a_late_go_report_is_judged_alike() -> None:
    """A board shows go 3 ms after the planned instant; a press 1 ms after the planned go
    came before the go the players saw: early, live and in replay."""
    case = {
        "config": DuelConfig(settle_us=5_000), "own_countdown": True, "go_late_us": 3_000,
        "report_transit_us": 500, "max_oversleep_us": 0, "seed": 1,
        "duels": [[(Side.LEFT, 1_000, 0), (Side.RIGHT, 150_000, 0)]],
    }
    lines, heard = play(case)
    (verdict,) = [e for e in heard if isinstance(e, VerdictGiven)]
    assert verdict.result.outcome.value == "early_press" and verdict.result.loser is Side.LEFT
    (again,) = replay(lines)
    assert again.matches is True and again.result.loser is Side.LEFT


OLD_LOG = """\
{"input": "config", "countdown_min_us": 3000000, "countdown_max_us": 6000000, "tie_window_us": 100, "tie_policy": "rematch", "response_timeout_us": 3000000, "settle_us": 5000, "duel": 1}
{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 1, "arrived_us": 0, "duel": 1}
{"t_us": 1000, "input": "start", "countdown_us": 3000000, "arrived_us": 1000, "duel": 1}
{"t_us": 3001000, "input": "go", "arrived_us": 3001000, "duel": 1}
{"t_us": 3201000, "input": "press", "side": "right", "arrived_us": 3201000, "duel": 1}
{"t_us": 3200000, "input": "press", "side": "left", "arrived_us": 3206100, "duel": 1}
{"input": "verdict", "duel": 1, "result": {"outcome": "faster", "winner": "left", "loser": "right", "arrow": null, "launch": {"side": "right", "cards": 1}, "reaction_us": {"left": 199000, "right": null}}}
"""  # noqa: E501


def test_a_log_from_before_the_verdict_instants_still_replays() -> None:
    """No go-report mode, no verdict instant: inputs count when they arrived by the
    engine's own deadline (the left press arrived exactly at it, 3,206,100 us)."""
    (verdict,) = replay(OLD_LOG.splitlines())
    assert verdict.matches is True and verdict.result.winner is Side.LEFT
    assert verdict.recorded_contested is None  # such a log says nothing of contests
    late = OLD_LOG.replace('"arrived_us": 3206100', '"arrived_us": 3206101')
    (verdict,) = replay(late.splitlines())
    assert verdict.result.winner is Side.RIGHT and verdict.matches is False
