"""A whole championship on a simulated clock, checked against the test's own arithmetic.

Seed 000 with 23 players at a bar of 3 tables: too many to seat at once, so qualifying is two
flights of 45 minutes. The organiser works from the command line (`uno-showdown event ...`),
the tables record their deals through the companion, as the table's screen does, on one
simulated wall clock. Deals take random times, so every table is in the middle of a deal
when the time is up: most finish it (it counts), one stops and is marked done. The organiser
pauses flight 1 for a dispute and calls time on flight 2 early; a player withdraws during
flight 2; a game reaches 500 and the table plays on in a new one. Then the 7 best play the
final and the awards are given.

The test keeps its own books: each deal's points from its own card values (numbers at face
value, actions 20, wilds 50; whoever went out 0), per player and stage, as exact fractions,
and ranks them by its own reading of the rules. Every standing, finalist, place and award
the program prints must match.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest

from championship.desk.operations import Championship
from companion.app import CompanionApp
from showdown.contract.errors import CompanionError
from tests.championship.conftest import MINUTE_US, SimClock, card_value, deal_hands, run

NAMES = ["Anna", "Boris", "Vera", "Gleb", "Dasha", "Egor", "Zhenya", "Ivan", "Kira", "Lev",
         "Masha", "Nikita", "Olga", "Pavel", "Rita", "Sasha", "Tanya", "Ulyana", "Fedor",
         "Khariton", "Tsvetana", "Chingiz", "Shura"]
SEED = 2017
STANDING_KEYS = {"rank", "number", "name", "points", "games", "result"}


@dataclass
class Books:
    """The test's own accounts."""

    points: dict[str, dict[int, list[int]]] = field(
        default_factory=lambda: {"qualifying": {}, "final": {}})
    restarts: int = 0
    late_deals: int = 0
    refused: int = 0

    def add(self, stage: str, number: int, value: int) -> None:
        line = self.points[stage].setdefault(number, [0, 0])
        line[0] += value
        line[1] += 1

    def result(self, stage: str, number: int) -> Fraction:
        points, games = self.points[stage][number]
        return Fraction(points, games)

    def ranking(self, stage: str, lots: dict[int, int], withdrawn: set[int],
                among: set[int] | None = None) -> list[int]:
        """Lowest result first; ties: fewer points, more games, the draw's lot."""
        numbers = [n for n, (_p, g) in self.points[stage].items()
                   if g and n not in withdrawn and (among is None or n in among)]
        return sorted(numbers, key=lambda n: (self.result(stage, n), self.points[stage][n][0],
                                              -self.points[stage][n][1], lots[n]))


class Sim:
    def __init__(self, db: str, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
        self.db, self.clock, self.capsys = db, clock, capsys
        self.rng = random.Random(20170112)
        self.books = Books()
        self.number = {name: i + 1 for i, name in enumerate(NAMES)}
        self.withdrawn: set[int] = set()
        self.totals: dict[int, dict[str, int]] = {}

    def cli(self, *argv: str) -> str:
        status, out, err = run(self.capsys, "event", *argv, "--db", self.db)
        assert status == 0, err
        return out

    def refused(self, *argv: str) -> str:
        status, out, err = run(self.capsys, "event", *argv, "--db", self.db)
        assert status == 2 and out == "" and err.count("\n") == 1, (status, out, err)
        return err

    def snapshot(self):  # type: ignore[no-untyped-def]
        with Championship.open(self.db, clock=self.clock) as champ:
            return champ.snapshot()

    def record(self, app: CompanionApp, stage: str, late: bool) -> None:
        """One deal ends at the table: someone went out; enter every other hand."""
        app.refresh()  # as the screen does: it may have moved on (a withdrawal)
        game = app.game
        assert game is not None and game.id is not None
        totals = self.totals.setdefault(game.id, {})  # this game's, toward 500
        players = game.names
        winner = self.rng.choice(players)
        hands = deal_hands(self.rng, players, winner)
        values = {name: sum(card_value(c) for c in cards) for name, cards in hands.items()}
        points = {}
        if self.rng.random() < 0.3:  # this table counts one hand by head
            name = self.rng.choice(list(hands))
            points[name] = values[name]
            del hands[name]
        summary = app.record_round(winner, hands=hands, points=points)
        assert summary.late is late
        values[winner] = 0
        for name in players:
            self.books.add(stage, self.number[name], values[name])
            totals[name] = totals.get(name, 0) + values[name]
        # rule 2.3: whoever went out deals next, in the same game or in the next one
        assert app.game is not None and app.game.dealer == winner
        reached = max(totals.values()) >= 500
        if reached and not late:  # rule 2.1: the game to 500 starts again at the table
            assert summary.continued_in == app.game.id != game.id
            assert sorted(app.game.names) == sorted(players) and not app.game.rounds
            self.books.restarts += 1
        else:
            assert summary.continued_in is None and app.game.id == game.id
        if late:
            self.books.late_deals += 1

    def try_record(self, app: CompanionApp) -> None:
        """A deal after the table is done: refused in one sentence, nothing written."""
        game = app.game
        assert game is not None
        before = len(game.rounds)
        with pytest.raises(CompanionError, match="time is up and this table is done"):
            app.record_round(game.names[0], points={n: 5 for n in game.names[1:]})
        assert len(app.store.games.load(game.id or 0).rounds) == before
        self.books.refused += 1

    def play(self, stage_key: str, stage: str, tables: dict[int, int], *,
             pause_after: float | None = None, call_time_after: float | None = None,
             stops: frozenset[int] = frozenset(), withdraw: tuple[float, int] | None = None
             ) -> None:
        """Play a started stage to its end: deals end at random times at every table."""
        apps = {t: CompanionApp.open(self.db, gid, clock=self.clock) for t, gid in
                tables.items()}
        start = self.clock.now_us
        ends = {t: start + self._deal_time() for t in apps}
        try:
            while ends:
                t = min(ends, key=lambda k: ends[k])
                when = ends[t]
                if pause_after is not None and start + pause_after * MINUTE_US <= when:
                    self.clock.now_us = start + round(pause_after * MINUTE_US)
                    up = self.snapshot().clock.time_up_at_us
                    self.cli("pause")
                    self.clock.advance(7)  # a dispute settled by the staff (rule 3)
                    self.cli("resume")
                    assert self.snapshot().clock.time_up_at_us == up + 7 * MINUTE_US
                    ends = {k: v + 7 * MINUTE_US for k, v in ends.items()}
                    pause_after = None
                    continue
                if call_time_after is not None and start + call_time_after * MINUTE_US <= when:
                    self.clock.now_us = start + round(call_time_after * MINUTE_US)
                    self.cli("end")
                    call_time_after = None
                    continue
                if withdraw is not None and start + withdraw[0] * MINUTE_US <= when:
                    self.clock.now_us = start + round(withdraw[0] * MINUTE_US)
                    out = self.cli("withdraw", str(withdraw[1]))
                    assert "plays on without them" in out
                    self.withdrawn.add(withdraw[1])
                    withdraw = None
                    continue
                self.clock.now_us = when
                snap = self.snapshot()
                up = snap.clock.time_up_at_us
                assert up is not None
                if when < up:
                    self.record(apps[t], stage, False)
                    ends[t] = when + self._deal_time()
                elif t in stops:  # they stop when the time is up: the organiser says done
                    out = self.cli("done", "--table", str(t))
                    assert "is done" in out
                    assert "was already done" in self.cli("done", "--table", str(t))
                    self.try_record(apps[t])
                    del ends[t]
                else:  # the deal in progress when the time was up is played and counts
                    self.record(apps[t], stage, True)
                    self.try_record(apps[t])
                    del ends[t]
            assert self.snapshot().stage_done(stage_key)
        finally:
            for app in apps.values():
                app.close()

    def _deal_time(self) -> int:
        return round(self.rng.uniform(3.0, 7.5) * MINUTE_US)


def check_standings(sim: Sim, lots: dict[int, int]) -> list[int]:
    """`event standings --json` against the books; returns the ranking."""
    out = sim.cli("standings", "--json")
    lines = json.loads(out)
    assert all(set(line) == STANDING_KEYS for line in lines)
    ranking = sim.books.ranking("qualifying", lots, sim.withdrawn)
    ranked = [ln for ln in lines if ln["rank"] is not None]
    assert [ln["number"] for ln in ranked] == ranking
    assert [ln["rank"] for ln in ranked] == list(range(1, len(ranking) + 1))
    for ln in ranked:
        points, games = sim.books.points["qualifying"][ln["number"]]
        assert (ln["points"], ln["games"]) == (points, games)
        assert Fraction(ln["result"]) == Fraction(points, games)  # exact, not a rounded float
        assert ln["name"] == NAMES[ln["number"] - 1]
    unranked = [ln for ln in lines if ln["rank"] is None]
    assert [ln["number"] for ln in unranked] == sorted(
        set(range(1, len(NAMES) + 1)) - set(ranking))
    return ranking


@pytest.mark.slow
def test_a_whole_championship_on_a_simulated_clock(db: str, clock: SimClock,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    sim = Sim(db, clock, capsys)
    assert sim.cli("new", "Discovery UNO Cup", "--tables", "3").strip() == "1"
    out = sim.cli("register", *NAMES)
    assert [line.split(None, 1) for line in out.splitlines()] == [
        [str(i + 1), name] for i, name in enumerate(NAMES)]

    # The draw: 23 players do not fit at 3 tables of 7, so two flights, 12 then 11.
    draw = json.loads(sim.cli("draw", "--seed", str(SEED), "--json"))
    assert set(draw) == {"seed", "flights"} and draw["seed"] == SEED
    assert [set(f) for f in draw["flights"]] == [{"flight", "minutes", "tables"}] * 2
    assert [(f["flight"], f["minutes"]) for f in draw["flights"]] == [(1, 45), (2, 45)]
    seated = [n for f in draw["flights"] for t in f["tables"] for n in t["players"]]
    assert sorted(seated) == list(range(1, 24))
    for f, size in zip(draw["flights"], (12, 11), strict=True):
        sizes = [len(t["players"]) for t in f["tables"]]
        assert sum(sizes) == size and max(sizes) - min(sizes) <= 1
        assert all(2 <= s <= 7 for s in sizes) and len(sizes) <= 3
        assert all(set(t) == {"table", "game", "players"} for t in f["tables"])
    assert json.loads(sim.cli("draw", "--seed", str(SEED), "--json"))["flights"] != []
    again = json.loads(sim.cli("show", "--json"))
    assert [[t["players"] for t in f["tables"]] for f in again["flights"]] == [
        [t["players"] for t in f["tables"]] for f in draw["flights"]]  # same seed, same draw
    draw = json.loads(sim.cli("draw", "--seed", str(SEED), "--json"))
    lots = {p.number: p.lot for p in sim.snapshot().data.players}
    assert sorted(lots.values()) == list(range(1, 24))

    flight1 = {t["table"]: t["game"] for t in draw["flights"][0]["tables"]}
    flight2 = {t["table"]: t["game"] for t in draw["flights"][1]["tables"]}
    # A flight 2 table cannot record while flight 1 plays.
    with CompanionApp.open(db, next(iter(flight2.values())), clock=clock) as early:
        assert early.game is not None
        with pytest.raises(CompanionError, match="the clock has not started yet"):
            early.record_round(early.game.names[0], points={n: 1 for n in early.game.names[1:]})

    sim.cli("start")
    assert "Flight 1" in sim.refused("start")
    sim.play("flight-1", "qualifying", flight1, pause_after=20, stops=frozenset({2}))
    err = sim.refused("final")
    assert "Flight 2 has not been played yet" in err

    # Flight 2: a player leaves, the organiser calls time five minutes early.
    leaver = draw["flights"][1]["tables"][-1]["players"][1]
    sim.cli("start")
    up = sim.snapshot().clock.time_up_at_us
    sim.play("flight-2", "qualifying", flight2, call_time_after=40, withdraw=(12, leaver))
    assert sim.snapshot().clock.time_up_at_us == up - 5 * MINUTE_US
    assert leaver in sim.withdrawn

    ranking = check_standings(sim, lots)
    assert leaver not in ranking
    assert sim.books.restarts >= 1, "no table reached 500: the seed's rule 2.1 went untested"
    assert sim.books.late_deals >= 2 and sim.books.refused >= 4

    # The final: the 7 lowest results, seated in their order.
    final = json.loads(sim.cli("final", "--json"))
    assert set(final) == {"game", "players"} and final["players"] == ranking[:7]
    assert json.loads(sim.cli("final", "--json")) == final  # asked again: the same seating
    # qualifying results are taken: a correction there is refused now
    with CompanionApp.open(db, flight1[1], clock=clock, follow=False) as closed:
        assert closed.game is not None
        with pytest.raises(CompanionError, match="results of this table were taken"):
            closed.edit_round(1, closed.game.names[0],
                              points={n: 0 for n in closed.game.names[1:]})
    sim.cli("start")
    sim.play("final", "final", {1: final["game"]})
    assert sim.snapshot().over
    assert "championship is over" in sim.refused("start")

    results = json.loads(sim.cli("results", "--json"))
    order = sim.books.ranking("final", lots, sim.withdrawn, set(final["players"]))
    assert [p["place"] for p in results["places"]] == [1, 2, 3]
    assert [p["number"] for p in results["places"]] == order[:3]
    for p in results["places"]:
        points, games = sim.books.points["final"][p["number"]]
        assert (p["points"], p["games"], Fraction(p["result"])) == (
            points, games, Fraction(points, games))
        assert p["name"] == NAMES[p["number"] - 1]
    # the seed's luckiest: the most qualifying points; of equal points, the lower ranked
    most = max(sim.books.points["qualifying"][n][0] for n in ranking)
    luckiest = [n for n in ranking if sim.books.points["qualifying"][n][0] == most][-1]
    assert results["luckiest"] == {
        "number": luckiest, "name": NAMES[luckiest - 1], "points": most, "by": "points",
        "result": str(sim.books.result("qualifying", luckiest)).replace(" ", "")}
    assert results["complete"] is True
    assert [ln["number"] for ln in results["qualifying"] if ln["rank"]] == ranking

    html = db + ".html"
    status, _out, err = run(capsys, "event", "results", "--db", db, "--html", html)
    assert status == 0 and "Results sheet written" in err
    sheet = Path(html).read_text(encoding="utf-8")
    for p in results["places"]:
        assert p["name"] in sheet
    assert "Provisional" not in sheet
