"""What a championship costs: standings and results for 200 players over 2 flights and 1,500
recorded deals, and recording a deal at a table of the event against the same game with no
event (the time box's check inside the transaction is the difference).

The event: 200 players at a bar of 15 tables of 7, so two flights of 100 at 15 tables each;
1,500 deals are recorded at its 30 tables (games to 500 restart, so the tables play many
games), on a simulated clock. Then, with flight 2 still running:

* recording a deal at one of its tables, through the app (what the table's screen does) and
  through `uno-showdown game round` run in-process (which opens the file and loads the game
  first), against a copy of that same game in a file with no event (its target raised, as
  alone it would stop at 500 where the event's table plays on in a new game, which the
  event's rows include);
* `event standings --json` and `event results --json` run in-process (open the file, read
  the standings kept beside the event in their order; `results` also the final and the
  awards), against `game show` of one game;
* the same standings for an event of 1,000 players and 10,000 deals (72 tables a flight, 2
  flights), and for the 200 players with 10,000 deals: the standings are kept deal by deal,
  in order, so reading them grows neither with the deals nor much with the players (the
  last lines give the ratios to the 200 players' 1,625 deals, p50 and p99). Before each
  timed standings call one more deal is recorded at a table (untimed, through the app, as
  a table does): whatever a reader keeps has to take in a change before every call, as the
  director's snapshot does after every deal.

Times run from the call until it returns (a recorded deal is committed with fsync); a row
and its baseline take turns, and so do the three events' standings, sample by sample, so a
busy moment of the machine falls on all of them. The objects the benchmark built are set
aside from Python's collector before timing (`gc.freeze`): a typed command runs in a fresh
process, without them. Run: python benchmarks/championship.py [--samples N] [--no-large]
(about a minute, a third of it building the large events). Prints p50/p99 in milliseconds
and the p99 ratio against the baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from championship.core.settings import make
from championship.desk.operations import Championship
from companion.app import CompanionApp
from companion.scoring import MAX_TARGET, Rules
from companion.store import wallclock
from companion.store.games import Store
from showdown.contract.record import replace
from uno_showdown.commands.cli import main

PLAYERS = 200
TABLES = 15
DEALS = 1500
#: The large event: its standings must cost what the 200 players' do (within 1.5x).
LARGE_PLAYERS = 1000
LARGE_TABLES = 72
LARGE_DEALS = 10_000
START_US = 1_484_245_800_000_000


class Clock:
    def __init__(self) -> None:
        self.now_us = START_US

    def __call__(self) -> int:
        return self.now_us


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def deal_for(rng: random.Random, names: list[str]) -> tuple[str, dict[str, int]]:
    winner = rng.choice(names)
    return winner, {n: rng.choice((0, 3, 9, 20, 27, 40, 50, 70)) for n in names if n != winner}


def record_deals(db: Path, clock: Clock, game_ids: list[int], count: int,
                 rng: random.Random) -> None:
    apps = [CompanionApp.open(db, g, clock=clock) for g in game_ids]
    try:
        for i in range(count):
            app = apps[i % len(apps)]
            assert app.game is not None
            winner, points = deal_for(rng, app.game.names)
            app.record_round(winner, points=points)
    finally:
        for app in apps:
            app.close()


def build_event(db: Path, clock: Clock, players: int = PLAYERS, tables: int = TABLES,
                deals: int = DEALS) -> Championship:
    rng = random.Random(2017)
    champ = Championship.open(db, clock=clock, lang="en")
    champ.new_event("Benchmark Cup", make(tables=tables, flight_minutes=600))
    champ.register([f"Player {n:04d}" for n in range(1, players + 1)])
    _draw, seated = champ.draw(seed=1)
    for stage in ("flight-1", "flight-2"):
        champ.start()
        games = [s.game_id for s in seated if s.stage == stage]
        record_deals(db, clock, games, deals // 2, rng)
        if stage == "flight-1":
            champ.end()
            for t in champ.snapshot().stage_tables(stage):
                if not t.done:
                    champ.done(t.table)
    return champ


def time_calls(call: Callable[[int], None], samples: int,
               between: Callable[[], None] | None = None) -> list[float]:
    """Time `samples` calls; `between` (untimed) runs before each, e.g. to record a deal."""
    out = []
    for n in range(samples):
        if between is not None:
            between()
        t0 = time.perf_counter()
        call(n)
        out.append((time.perf_counter() - t0) * 1000)
    return out


def time_pair(first: Callable[[int], None], second: Callable[[int], None],
              samples: int, between: Callable[[], None] | None = None
              ) -> tuple[list[float], list[float]]:
    """Time two calls taking turns, so that a busy moment of the machine falls on both;
    `between` (untimed) runs before each call of `second`."""
    a: list[float] = []
    b: list[float] = []
    for _n in range(samples):
        a += time_calls(first, 1)
        b += time_calls(second, 1, between)
    return a, b


def time_turns(calls: list[tuple[Callable[[int], None], Callable[[], None] | None]],
               samples: int) -> list[list[float]]:
    """Time several calls taking turns, one sample of each per round; each call's `between`
    (untimed, when given) runs just before it."""
    out: list[list[float]] = [[] for _c in calls]
    for _n in range(samples):
        for times, (call, between) in zip(out, calls, strict=True):
            times += time_calls(call, 1, between)
    return out


class NextDeal:
    """Records one more deal at the event's tables of its last stage, round the tables in
    turn, through the app as a table's screen does (another connection to the file): run
    untimed before each standings sample, so what a reader keeps has to take in a change
    before every timed call, as the director's does after every deal."""

    def __init__(self, db: Path, clock: Clock, champ: Championship, seed: int) -> None:
        self.apps = [CompanionApp.open(db, t.game_id, clock=clock)
                     for t in champ.snapshot().stage_tables("flight-2")]  # still running
        self.rng = random.Random(seed)
        self.n = 0

    def __call__(self) -> None:
        app = self.apps[self.n % len(self.apps)]
        self.n += 1
        assert app.game is not None
        winner, points = deal_for(self.rng, app.game.names)
        app.record_round(winner, points=points)

    def close(self) -> None:
        for app in self.apps:
            app.close()


def quiet_cli(argv: list[str]) -> None:
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        status = main(argv)
    if status:
        raise SystemExit(f"the CLI failed: {' '.join(argv)}: {sink.getvalue()}")


def main_() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100,
                        help="samples per recording row (a quarter for `game round`, three "
                             "times as many for the standings, whose p99 then is not just "
                             "the one slowest call)")
    parser.add_argument("--no-large", action="store_true",
                        help=f"leave out the event of {LARGE_PLAYERS} players and "
                             f"{LARGE_DEALS} deals, and the 200 players' with as many "
                             "deals (building them takes about 20 s)")
    args = parser.parse_args()
    few = max(10, args.samples // 4)
    clock = Clock()
    wallclock.now = clock  # the commands run in-process read the same simulated clock
    rows: list[tuple[str, str, list[float], bool]] = []
    with tempfile.TemporaryDirectory() as tmp:
        event_db, plain_db = Path(tmp) / "event.db", Path(tmp) / "plain.db"
        t0 = time.perf_counter()
        champ = build_event(event_db, clock)
        snap = champ.snapshot()
        built = time.perf_counter() - t0
        table = snap.stage_tables("flight-2")[0]
        with Store(event_db) as store:
            game = store.games.load(table.game_id)
        with Store(plain_db) as store:  # the same game, with no event around it (and no
            # end: a game alone stops at 500, where the event's table plays on in a new one)
            plain_id = store.games.create(replace(game, rules=Rules.make("championship",
                                                                        MAX_TARGET)))
        rng = random.Random(7)
        gc.collect()
        gc.freeze()  # what was built is set aside from the collector (see the turns below)
        event_app = CompanionApp.open(event_db, table.game_id, clock=clock)
        plain_app = CompanionApp.open(plain_db, plain_id, clock=clock)

        def app_deal(app: CompanionApp) -> Callable[[int], None]:
            def call(_n: int) -> None:
                assert app.game is not None
                winner, points = deal_for(rng, app.game.names)
                app.record_round(winner, points=points)
            return call

        def cli_deal(db: Path, app: CompanionApp) -> Callable[[int], None]:
            def call(_n: int) -> None:
                app.refresh()
                assert app.game is not None and app.game.id is not None
                winner, points = deal_for(rng, app.game.names)
                argv = ["game", "round", "--db", str(db), "--game", str(app.game.id),
                        "--winner", winner]
                for name, value in points.items():
                    argv += ["--points", f"{name}: {value}"]
                quiet_cli(argv)
            return call

        base, event = time_pair(app_deal(plain_app), app_deal(event_app), args.samples)
        rows.append(("record a deal, app", "no event (baseline)", base, True))
        rows.append(("record a deal, app", "at a table of the event", event, False))
        base, event = time_pair(cli_deal(plain_db, plain_app), cli_deal(event_db, event_app),
                                few)
        rows.append(("record a deal, `game round`", "no event (baseline)", base, True))
        rows.append(("record a deal, `game round`", "at a table of the event", event, False))
        event_app.close()
        plain_app.close()
        events = [("standings", event_db, champ, 11)]
        large_text = ""
        if not args.no_large:
            large_db = Path(tmp) / "large.db"
            t0 = time.perf_counter()
            large = build_event(large_db, clock, LARGE_PLAYERS, LARGE_TABLES, LARGE_DEALS)
            large_built = time.perf_counter() - t0
            long_db = Path(tmp) / "long.db"  # the 200 players again, with 10,000 deals
            long = build_event(long_db, clock, PLAYERS, TABLES, LARGE_DEALS)
            events += [("standings, large event", large_db, large, 12),
                       ("standings, 10,000 deals", long_db, long, 13)]
        # Every event's standings take turns, sample by sample, with one `game show`
        # baseline each: a busy moment of the machine falls on all of them alike, so the
        # ratios between the events hold however loaded the machine is.
        deals = [NextDeal(db, clock, c, seed) for _what, db, c, seed in events]
        turns: list[tuple[Callable[[int], None], Callable[[], None] | None]] = []
        labels: list[tuple[str, str, bool]] = []
        def cli(*argv: str) -> Callable[[int], None]:
            return lambda _n: quiet_cli(list(argv))

        def snapshot_of(c: Championship) -> Callable[[int], None]:
            def call(_n: int) -> None:
                c.snapshot()
            return call

        for (what, db, c, _seed), next_deal in zip(events, deals, strict=True):
            turns += [(cli("game", "show", "--db", str(plain_db)), None),
                      (cli("event", "standings", "--db", str(db), "--json"), next_deal)]
            labels += [(what, "`game show`, one game (baseline)", True),
                       (what, "`event standings --json`", False)]
            if what == "standings":
                turns.append((cli("event", "results", "--db", str(db), "--json"), next_deal))
                labels.append((what, "`event results --json`", False))
            turns.append((snapshot_of(c), next_deal))
            labels.append((what, "snapshot, file already open", False))
            c.snapshot()  # the first reading of this connection (what it keeps, if anything)
        # The commands run in this process, which holds three built events: the collector's
        # passes over those objects (tens of ms each, whichever call they fall in) are this
        # benchmark's, not the commands' (each runs in a fresh process when typed), so what
        # was built is set aside from the collector before the timed turns.
        gc.collect()
        gc.freeze()
        for (what, where, is_base), samples in zip(labels, time_turns(turns, 3 * args.samples),
                                                   strict=True):
            rows.append((what, where, samples, is_base))
        for next_deal in deals:
            next_deal.close()
        after = champ.snapshot()
        games = sum(len(t.game_ids) for t in after.tables)
        if not args.no_large:
            big = large.snapshot()
            large_text = (f"a championship of {LARGE_PLAYERS} players, {len(big.tables)} "
                          f"tables in 2 flights, {big.deals_in()} deals in "
                          f"{sum(len(t.game_ids) for t in big.tables)} games (built in "
                          f"{large_built:.1f} s)")
            large.close()
            long.close()
        champ.close()
    print(f"a championship of {PLAYERS} players, {len(after.tables)} tables in 2 flights, "
          f"{after.deals_in()} deals in {games} games (built in {built:.1f} s)")
    if large_text:
        print(large_text)
    print(f"{'what':<28} {'where':<34} {'n':>4} {'p50 ms':>8} {'p99 ms':>8} {'p99 ×base':>10}")
    base_p99 = 0.0
    for what, where, samples, is_base in rows:
        p50, p99 = statistics.median(samples), percentile(samples, 0.99)
        if is_base:
            base_p99 = p99
        print(f"{what:<28} {where:<34} {len(samples):>4} {p50:>8.2f} {p99:>8.2f} "
              f"{p99 / base_p99:>10.2f}")
    small = {where: percentile(x, 0.99) for what, where, x, _b in rows if what == "standings"}
    small_all = {where: x for what, where, x, _b in rows if what == "standings"}
    for what, where, samples, is_base in rows:
        if what.startswith("standings, ") and not is_base and where in small:
            who = LARGE_PLAYERS if what.endswith("large event") else PLAYERS
            print(f"{who} players / {LARGE_DEALS} deals against {PLAYERS} / {DEALS}, {where}: "
                  f"p50 {statistics.median(samples) / statistics.median(small_all[where]):.2f}x,"
                  f" p99 {percentile(samples, 0.99) / small[where]:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
