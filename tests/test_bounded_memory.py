"""Months at a table: what the service and the recorder keep stays bounded, however many duels.

A service runs for 100,000 duels on the fake unit (about two months of a busy bar; 3,000 in
`make test`, three times what the service keeps, which is enough to show the caps hold), and
nothing it holds grows with them: the recent results are capped, the launch guard is one
number, the listeners' queues are drained. The recorder keeps a fixed number of recorded
duels for their late reaction times, and nothing for duels it has written.
"""

from __future__ import annotations

import random
from collections.abc import Sized

import pytest

from companion.app import CompanionApp
from companion.store.duels import REMEMBERED
from hardware.fake import FakeUnit
from showdown.contract.events import (
    DuelResult,
    LaunchPart,
    Outcome,
    PaddlePressed,
    ReactionsTimed,
    ServiceEvent,
    Side,
    TimerPressed,
    VerdictContested,
    VerdictGiven,
)
from showdown.duel.engine import DuelConfig
from showdown.service.dispatch import FEED_LIMIT
from showdown.service.loop import RESULTS_KEPT, ShowdownService
from tests.profiles import scale

DUELS = scale(3 * RESULTS_KEPT, 100_000)
#: A quick table: 1 ms countdowns and timeouts, a launch of 1 ms.
QUICK = DuelConfig(countdown_min_us=1_000, countdown_max_us=1_000, tie_window_us=0,
                   settle_us=0, response_timeout_us=1_000)


def sizes(obj: object) -> dict[str, int]:
    """The length of every container `obj` holds, by attribute name."""
    return {name: len(value) for name, value in vars(obj).items()
            if isinstance(value, Sized) and not isinstance(value, str | bytes)}


@pytest.mark.deep
def test_months_of_duels_leave_the_service_no_bigger() -> None:
    unit = FakeUnit(launch_us=1_000)
    heard = {"verdicts": 0}

    def count(event: ServiceEvent) -> None:  # a listener on its own thread, as any
        if isinstance(event, VerdictGiven):
            heard["verdicts"] += 1

    service = ShowdownService(unit, QUICK, rng=random.Random(5), listeners=(count,))
    feed = service.subscribe("test")
    peaks: dict[str, int] = {}
    for n in range(DUELS):
        service.load(Side.LEFT, Side.RIGHT, 1)
        service.step(0)
        start = unit.now_us() + 1
        unit.deliver(TimerPressed(start))
        unit.deliver(PaddlePressed(Side.LEFT if n % 3 else Side.RIGHT, start + 1_200))
        timed = False
        while not timed:
            service.step()
            timed = any(isinstance(e, ReactionsTimed) for e in feed.drain())
        if n % 100 == 0:
            for name, size in sizes(service).items():
                peaks[name] = max(peaks.get(name, 0), size)
    assert service.duel_id == DUELS
    assert len(service.results) == RESULTS_KEPT  # the latest, not all of them
    assert service._last_launched_id == DUELS  # the launch guard is one number
    assert max(peaks.values()) <= RESULTS_KEPT, peaks
    assert not service.flush_listeners(10.0)
    assert heard["verdicts"] == DUELS  # nothing dropped on the way
    assert len(unit.launches) == DUELS
    service.close()


def verdict(n: int, players: dict[Side, str]) -> VerdictGiven:
    result = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, None,
                        (LaunchPart(Side.RIGHT, 1),), {Side.LEFT: 180_000, Side.RIGHT: None},
                        decided_at_us=n * 10)
    return VerdictGiven(n, result, Side.LEFT, Side.RIGHT, 1, players)


def test_the_recorder_remembers_a_fixed_number_of_duels(tmp_path) -> None:
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"])
    players = {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
    recorder = app._duel_recorder()
    peaks: dict[str, int] = {}
    duels = 20 * REMEMBERED
    for n in range(1, duels + 1):
        app.on_service_event(verdict(n, players))
        # Late reaction times and a contest, and reaction times of duels never recorded.
        app.on_service_event(ReactionsTimed(n, {Side.LEFT: 180_000, Side.RIGHT: 230_000},
                                            players))
        if n % 7 == 0:
            app.on_service_event(VerdictContested(n, Side.RIGHT, 1, 2, Outcome.FASTER,
                                                  Outcome.FASTER, Side.RIGHT, players))
        app.on_service_event(ReactionsTimed(duels + n, {Side.LEFT: 1}, players))
        if n % 10 == 0:
            assert app.flush_duels(10.0)
            for name, size in sizes(recorder).items():
                peaks[name] = max(peaks.get(name, 0), size)
    assert app.flush_duels(10.0)
    assert peaks["_stored"] == REMEMBERED
    assert max(size for name, size in peaks.items() if name != "_stored") <= 10, peaks
    app.refresh()
    stored = app.duels()
    assert len(stored) == duels
    assert all(d.reaction_us["Bob"] == 230_000 for d in stored)
    assert sum(d.contested for d in stored) == duels // 7
    app.close()


def test_a_listener_that_never_returns_holds_at_most_a_feed_of_events() -> None:
    from showdown.service.dispatch import EventFeed

    feed = EventFeed("stuck", limit=100)
    for n in range(1_000):
        feed.put(verdict(n, {}))
    assert len(feed) == 100 and feed.dropped == 900
    assert FEED_LIMIT >= 10_000  # weeks of duels before a stuck listener loses any
