"""The service loop on the fake unit: what the table sees and hears, in order."""

from __future__ import annotations

import io
import json
import random

import pytest

from hardware.fake import FakeUnit
from showdown.contract.events import (
    CountdownStarted,
    DuelLoaded,
    EarlyPressSeen,
    GoShown,
    LaunchFinished,
    LaunchPart,
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    Side,
    TimerPressed,
    UnitFault,
    VerdictContested,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig, Phase
from showdown.duel.replay import replay
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService

L, R = Side.LEFT, Side.RIGHT


class Table:
    """A fake unit, its service, what listeners heard and the duel log, in one place."""

    def __init__(self, config: DuelConfig | None = None, unit: FakeUnit | None = None):
        self.unit = unit or FakeUnit()
        self._heard: list[object] = []
        self._log_text = io.StringIO()
        self.duel_log = DuelLog(stream=self._log_text)
        self.service = ShowdownService(
            self.unit, config or DuelConfig(), rng=random.Random(3), duel_log=self.duel_log,
        )
        self.feed = self.service.subscribe("test")

    @property
    def log(self) -> io.StringIO:
        """The duel log as written so far (its writer thread has caught up)."""
        assert self.duel_log.flush(5.0)
        return self._log_text

    @property
    def events(self) -> list[object]:
        """Everything the service said so far, in order (drained from its queue)."""
        self._heard.extend(self.feed.drain())
        return self._heard

    def run_until(self, predicate, limit: int = 10_000) -> None:
        for _ in range(limit):
            if predicate():
                return
            self.service.step()
        raise AssertionError("the service never got there")

    def verdicts(self) -> list[VerdictGiven]:
        return [e for e in self.events if isinstance(e, VerdictGiven)]

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]


def test_a_whole_duel_from_load_to_launch():
    t = Table()
    t.service.load(L, R, 2, players={L: "Ann", R: "Bob"})
    t.service.step(0)
    t.unit.deliver(TimerPressed(1_000))
    t.run_until(lambda: t.of(GoShown))
    go = t.of(GoShown)[0].t_us
    assert go == 1_000 + t.of(CountdownStarted)[0].countdown_us
    t.unit.deliver(PaddlePressed(R, go + 180_000), arrive_us=go + 181_000)
    t.unit.deliver(PaddlePressed(L, go + 240_000), arrive_us=go + 241_000)
    t.run_until(lambda: t.of(ReactionsTimed) and t.of(LaunchFinished))
    (verdict,) = t.verdicts()
    assert verdict.result.outcome is Outcome.FASTER and verdict.result.winner is R
    assert verdict.players == {L: "Ann", R: "Bob"}
    assert t.unit.launches == [(LaunchPart(L, 2),)]
    assert t.of(ReactionsTimed)[0].reaction_us == {L: 240_000, R: 180_000}
    assert [type(e) for e in t.events] == [
        DuelLoaded, CountdownStarted, GoShown, VerdictGiven, LaunchFinished, ReactionsTimed,
    ] or [type(e) for e in t.events] == [
        DuelLoaded, CountdownStarted, GoShown, VerdictGiven, ReactionsTimed, LaunchFinished,
    ]
    names = [n for n in t.unit.names() if n != "show_countdown"]
    assert names.index("start_countdown") < names.index("show_go") < names.index("launch")


def test_countdown_lights_are_refreshed_while_counting():
    t = Table()
    t.service.load(L, R, 1)
    t.service.start(2_000_000)
    t.run_until(lambda: t.of(GoShown))
    refreshes = [c for c in t.unit.calls if c.name == "show_countdown"]
    assert len(refreshes) >= 50  # every ~20 ms over 2 s
    remaining = [c.args[0] for c in refreshes]
    assert remaining == sorted(remaining, reverse=True)


def test_early_press_freezes_at_once_then_points_the_arrow_and_launches_at_the_presser():
    t = Table()
    t.service.load(L, R, 3)
    t.service.start(3_000_000)
    t.service.step(0)
    t.unit.deliver(PaddlePressed(L, 1_000_000))
    t.run_until(lambda: t.of(EarlyPressSeen))
    assert t.unit.names()[-2:] == ["freeze_countdown", "beep"]
    assert not t.verdicts()  # the verdict waits for the settle time
    t.run_until(lambda: t.verdicts())
    assert t.verdicts()[0].result.outcome is Outcome.EARLY_PRESS
    assert ("set_arrow", (L,)) in [(c.name, c.args) for c in t.unit.calls]
    assert t.unit.launches == [(LaunchPart(L, 3),)]
    assert "show_go" not in t.unit.names()


def test_late_delivery_with_an_earlier_stamp_wins():
    """Arrival order says left; the stamps say right. The stamps win."""
    t = Table()
    t.service.load(L, R, 1)
    t.service.start(1_000_000)
    t.run_until(lambda: t.of(GoShown))
    go = t.of(GoShown)[0].t_us
    t.unit.deliver(PaddlePressed(L, go + 200_000), arrive_us=go + 200_100)
    t.unit.deliver(PaddlePressed(R, go + 195_000), arrive_us=go + 215_000)  # 20 ms late
    t.run_until(lambda: t.verdicts())
    assert t.verdicts()[0].result.winner is R
    assert t.unit.launches == [(LaunchPart(L, 1),)]


def test_tie_rematch_needs_the_timer_again_and_launches_once_in_the_end():
    t = Table(DuelConfig(tie_window_us=1_000))
    t.service.load(L, R, 1)
    t.service.start(1_000_000)
    t.run_until(lambda: t.of(GoShown))
    go = t.of(GoShown)[0].t_us
    t.unit.deliver(PaddlePressed(L, go + 200_000))
    t.unit.deliver(PaddlePressed(R, go + 200_500))
    t.run_until(lambda: t.verdicts())
    assert t.verdicts()[0].result.rematch
    assert t.service.phase is Phase.LOADED and t.unit.launches == []
    t.unit.deliver(TimerPressed(t.unit.now_us() + 1_000))
    t.run_until(lambda: len(t.of(GoShown)) == 2)
    go2 = t.of(GoShown)[1].t_us
    t.unit.deliver(PaddlePressed(R, go2 + 300_000))
    t.run_until(lambda: len(t.verdicts()) == 2)
    assert t.verdicts()[1].result.winner is R
    assert t.unit.launches == [(LaunchPart(L, 1),)]


def test_timeout_launches_nothing():
    t = Table(DuelConfig(response_timeout_us=500_000))
    t.service.load(L, R, 1)
    t.service.start(1_000_000)
    t.run_until(lambda: t.verdicts())
    assert t.verdicts()[0].result.outcome is Outcome.TIMEOUT
    assert t.unit.launches == []


def test_a_unit_fault_aborts_the_duel_without_launch():
    t = Table()
    t.service.load(L, R, 2)
    t.service.start(3_000_000)
    t.service.step(0)
    t.unit.deliver(UnitFault(500_000, "link lost"))
    t.unit.deliver(PaddlePressed(L, 3_200_000))
    t.run_until(lambda: t.verdicts())
    t.unit.advance_to(10_000_000)
    t.service.step(0)
    assert t.verdicts()[0].result.outcome is Outcome.ABORTED
    assert t.of(UnitFault)[0].reason == "link lost"
    assert t.unit.launches == []
    assert "stop_launcher" in t.unit.names()
    assert "show_idle" in t.unit.names()  # lights off: nothing is loaded any more


def test_a_unit_that_runs_its_own_countdown_is_judged_on_its_go_report():
    class BoardUnit(FakeUnit):
        runs_own_countdown = True

    t = Table(unit=BoardUnit())
    t.service.load(L, R, 1)
    t.service.start(1_000_000)
    t.service.step(0)
    # The board showed go 3 ms late; a press 2 ms after the planned go was early.
    t.unit.deliver(GoShown(1_003_000), arrive_us=1_004_000)
    t.unit.deliver(PaddlePressed(L, 1_002_000), arrive_us=1_010_000)
    t.unit.deliver(PaddlePressed(R, 1_200_000))
    t.run_until(lambda: t.verdicts())
    result = t.verdicts()[0].result
    assert result.outcome is Outcome.EARLY_PRESS and result.loser is L
    assert "show_go" not in t.unit.names()


def test_loading_again_mid_countdown_aborts_the_old_duel():
    t = Table()
    t.service.load(L, R, 1)
    t.service.start(3_000_000)
    t.service.step(0)
    t.service.load(R, L, 2)
    t.service.step(0)
    assert t.verdicts()[0].result.outcome is Outcome.ABORTED
    assert t.service.phase is Phase.LOADED and t.service.duel_id == 2


def test_a_broken_listener_does_not_stop_the_unit():
    t = Table()

    def broken(event):
        raise RuntimeError("screen crashed")

    t.service.add_listener(broken)
    t.service.load(L, R, 1)
    t.service.start(500_000)
    t.run_until(lambda: t.of(GoShown))
    t.unit.deliver(PaddlePressed(L, t.unit.now_us() + 100_000))
    t.run_until(lambda: t.verdicts())
    assert t.unit.launches


def test_an_exception_on_the_unit_stops_the_launcher_before_it_propagates():
    class Exploding(FakeUnit):
        def show_loaded(self, cards: int) -> None:
            raise OSError("i2c error")

    t = Table(unit=Exploding())
    t.service.load(L, R, 1)
    t.unit.motor_running = True
    with pytest.raises(OSError):
        t.service.step(0)
    assert not t.unit.motor_running


def test_run_returns_on_stop_with_the_launcher_stopped():
    t = Table()
    t.service.load(L, R, 1)
    t.service.stop()
    t.service.run()
    assert t.unit.names()[-1] == "stop_launcher"


def test_launch_finished_reports_cards_counted_and_jams():
    t = Table()
    t.unit.deliver(LaunchFinished(10, cards_counted=1, jammed=True))
    t.run_until(lambda: t.of(LaunchFinished))
    (done,) = t.of(LaunchFinished)
    assert done.jammed and done.cards_counted == 1
    assert t.unit.names()[-1] == "beep"


def test_the_duel_log_replays_to_the_same_verdicts():
    t = Table()
    for n in range(6):
        t.service.load(L if n % 2 else R, None, 1 + n % 3)
        t.service.start(1_000_000 + n * 100_000)
        t.run_until(lambda n=n: len(t.of(CountdownStarted)) == n + 1)
        if n == 2:  # an early press
            t.unit.deliver(PaddlePressed(L, t.unit.now_us() + 300_000))
        t.run_until(lambda n=n: len(t.of(GoShown)) == n + 1 or len(t.verdicts()) == n + 1)
        now = t.unit.now_us()
        t.unit.deliver(PaddlePressed(R, now + 150_000 + n), arrive_us=now + 170_000)
        t.unit.deliver(PaddlePressed(L, now + 160_000), arrive_us=now + 161_000)
        t.run_until(lambda n=n: len(t.of(ReactionsTimed)) == n + 1)
    lines = t.log.getvalue().splitlines()
    assert all(json.loads(line)["duel"] for line in lines)
    verdicts = replay(lines)
    assert len(verdicts) == 6
    assert all(v.matches is not False for v in verdicts)
    assert [v.result.outcome for v in verdicts] == [e.result.outcome for e in t.verdicts()]
    timed = [dict(e.reaction_us) for e in t.of(ReactionsTimed)]
    assert [v.result.reaction_us for v in verdicts] == timed


def test_a_press_too_late_to_count_that_would_have_won_contests_the_verdict():
    """Never silent: the verdict stands, and the log, the listeners and replay all say so."""
    t = Table(DuelConfig(settle_us=5_000))
    t.service.load(L, R, 1, players={L: "Ann", R: "Bob"})
    t.service.start(1_000_000)
    t.run_until(lambda: t.of(GoShown))
    go = t.of(GoShown)[0].t_us
    t.unit.deliver(PaddlePressed(L, go + 200_000), arrive_us=go + 200_100)
    # Right pressed first, but its edge took 40 ms to arrive: more than the settle time.
    t.unit.deliver(PaddlePressed(R, go + 195_000), arrive_us=go + 235_000)
    t.run_until(lambda: t.of(VerdictContested))
    (verdict,) = t.verdicts()
    assert verdict.result.winner is L and t.unit.launches == [(LaunchPart(R, 1),)]
    (contest,) = t.of(VerdictContested)
    assert (contest.duel_id, contest.side, contest.t_us, contest.arrived_us) == (
        1, R, go + 195_000, go + 235_000)
    assert (contest.given, contest.would_be, contest.would_win) == (
        Outcome.FASTER, Outcome.FASTER, R)
    assert contest.players == {L: "Ann", R: "Bob"}
    lines = [json.loads(line) for line in t.log.getvalue().splitlines()]
    (logged,) = [line for line in lines if line["input"] == "contested"]
    assert logged["side"] == "right" and logged["would_win"] == "right"
    (replayed,) = replay(t.log.getvalue().splitlines())
    assert replayed.matches is True and replayed.contest is not None
    assert replayed.to_json()["contested"]["would_win"] == "right"


def test_a_slower_press_after_the_verdict_contests_nothing():
    t = Table()
    t.service.load(L, R, 1)
    t.service.start(1_000_000)
    t.run_until(lambda: t.of(GoShown))
    go = t.of(GoShown)[0].t_us
    t.unit.deliver(PaddlePressed(L, go + 200_000))
    t.unit.deliver(PaddlePressed(R, go + 400_000))  # after the verdict, and slower
    t.run_until(lambda: t.of(ReactionsTimed))
    assert not t.of(VerdictContested)
    assert '"contested"' not in t.log.getvalue()


def test_a_log_marked_contested_that_replay_finds_clean_fails_the_check():
    t = Table()
    t.service.load(L, R, 1)
    t.service.start(1_000_000)
    t.run_until(lambda: t.of(GoShown))
    go = t.of(GoShown)[0].t_us
    t.unit.deliver(PaddlePressed(L, go + 200_000))
    t.run_until(lambda: t.of(ReactionsTimed))
    doctored = [*t.log.getvalue().splitlines(),
                '{"input": "contested", "duel": 1, "side": "right", "t_us": 5, '
                '"arrived_us": 6, "given": "faster", "would_be": "faster", "would_win": "right"}']
    (replayed,) = replay(doctored)
    assert replayed.matches is False
