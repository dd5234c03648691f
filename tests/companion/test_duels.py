"""Showdown duels recorded with the game, from the real service running on the in-memory unit."""

from __future__ import annotations

import random

from companion.app import CompanionApp
from hardware.fake import FakeUnit
from showdown.contract.events import GoShown, PaddlePressed, Side, TimerPressed, VerdictGiven
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService
from uno_showdown.commands.cli import main

L, R = Side.LEFT, Side.RIGHT


class Heard(list):
    """What the service said, taken from its queue after each turn of the loop."""

    def __init__(self, service: ShowdownService) -> None:
        super().__init__()
        self.service = service
        self.feed = service.subscribe("test")

    def step(self, wait_s: float = 0.25) -> None:
        self.service.step(wait_s)
        self.extend(self.feed.drain())


def duel(service: ShowdownService, unit: FakeUnit, heard: Heard, players, left_ms, right_ms):
    """Load, start, and press after "go"; a negative time is an early press."""
    before = len([e for e in heard if isinstance(e, VerdictGiven)])
    service.load(L, R, 2, players=players)
    heard.step(0)
    unit.deliver(TimerPressed(unit.now_us() + 1_000))
    for _ in range(10_000):
        if any(isinstance(e, GoShown) for e in heard[-3:]) or len(
            [e for e in heard if isinstance(e, VerdictGiven)]) > before:
            break
        heard.step()
    go = next(e.t_us for e in reversed(heard) if isinstance(e, GoShown))
    unit.deliver(PaddlePressed(L, go + left_ms * 1000))
    unit.deliver(PaddlePressed(R, go + right_ms * 1000))
    for _ in range(10_000):  # let the slower press and the launch finish
        heard.step()
        if unit.pending() == 0 and len(
                [e for e in heard if isinstance(e, VerdictGiven)]) > before:
            for _ in range(50):
                heard.step()
            assert not service.flush_listeners(5.0)  # the companion heard it all
            return
    raise AssertionError("the duel never finished")


def test_verdicts_are_recorded_with_reaction_times_and_stats(tmp_path, capsys):
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid"])
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(), rng=random.Random(1),
                              listeners=(app.on_service_event,))
    heard = Heard(service)
    duel(service, unit, heard, {L: "Ann", R: "Bob"}, 180, 240)
    duel(service, unit, heard, {L: "cid", R: "Ann"}, 300, 220)
    duel(service, unit, heard, {L: "Ann", R: "Bob"}, 200, 150)
    assert app.flush_duels(5.0)

    duels = app.duels()
    assert [(d.challenger, d.opponent, d.winner) for d in duels] == [
        ("Ann", "Bob", "Ann"), ("Cid", "Ann", "Ann"), ("Ann", "Bob", "Bob")]
    assert duels[0].reaction_us == {"Ann": 180_000, "Bob": 240_000}  # the loser's time too
    stats = app.duel_stats()
    assert stats["Ann"].duels == 3 and stats["Ann"].wins == 2
    assert stats["Ann"].best_ms == 180 and stats["Ann"].median_ms == 200
    assert stats["Bob"].best_ms == 150 and stats["Bob"].median_ms == 195
    assert stats["Cid"].best_ms == 300
    assert app.last_duel() == duels[-1]
    app.close()

    reopened = CompanionApp.open(tmp_path / "games.db")
    assert reopened.duel_stats() == stats  # stored, not just remembered
    reopened.close()

    # and `game show` sums them up under the standings, fastest first
    assert main(["game", "show", "--db", str(tmp_path / "games.db")]) == 0
    shown = capsys.readouterr().out
    table = shown[shown.index("Showdown duels:"):].splitlines()[1:]
    assert table[0].split() == ["player", "duels", "won", "best", "ms", "median", "ms"]
    assert [row.split() for row in table[1:]] == [
        ["Bob", "2", "1", "150", "195"], ["Ann", "3", "2", "180", "200"],
        ["Cid", "1", "0", "300", "300"]]


def test_an_early_press_is_recorded_but_not_counted_as_a_reaction(tmp_path):
    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"])
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(), rng=random.Random(2),
                              listeners=(app.on_service_event,))
    heard = Heard(service)
    service.load(L, R, 1, players={L: "Ann", R: "Bob"})
    heard.step(0)
    unit.deliver(TimerPressed(1_000))
    unit.deliver(PaddlePressed(L, 500_000))  # long before any countdown can end
    for _ in range(2_000):
        heard.step()
        if any(isinstance(e, VerdictGiven) for e in heard) and unit.pending() == 0:
            break
    assert not service.flush_listeners(5.0) and app.flush_duels(5.0)
    (row,) = app.duels()
    assert row.outcome == "early_press" and row.loser == "Ann" and row.winner == "Bob"
    assert app.duel_stats()["Ann"].best_ms is None
    app.close()


def test_a_contested_duel_is_stored_so_and_counted_in_the_stats(tmp_path):
    from showdown.contract.events import VerdictContested

    app = CompanionApp.open(tmp_path / "games.db", lang="en")
    app.new_game("classic", "winner", ["Ann", "Bob"])
    unit = FakeUnit()
    service = ShowdownService(unit, DuelConfig(settle_us=5_000), rng=random.Random(2),
                              listeners=(app.on_service_event,))
    heard = Heard(service)
    service.load(L, R, 1, players={L: "Ann", R: "Bob"})
    service.start(1_000_000)
    while not any(isinstance(e, GoShown) for e in heard):
        heard.step()
    go = next(e.t_us for e in heard if isinstance(e, GoShown))
    unit.deliver(PaddlePressed(L, go + 200_000))
    unit.deliver(PaddlePressed(R, go + 190_000), arrive_us=go + 260_000)  # 70 ms in transit
    while not any(isinstance(e, VerdictContested) for e in heard):
        heard.step()
    assert not service.flush_listeners(5.0) and app.flush_duels(5.0)
    (row,) = app.duels()
    assert row.winner == "Ann" and row.contested  # the verdict stands, marked
    stats = app.duel_stats()
    assert stats["Ann"].contested == 1 and stats["Bob"].contested == 1
    app.close()
    with CompanionApp.open(tmp_path / "games.db") as reopened:
        assert reopened.duels()[0].contested
