"""What recording costs as a game grows: 0, 1,000 and 10,000 duels or rounds already stored.

Three paths are timed, each from the call until the record is committed to disk:
* `duel`: a verdict handed to the companion (`CompanionApp.on_service_event`, what the
  table's service does) until the recorder has written it and the app holds its row;
* `app`: `CompanionApp.record_round`, what the screen does (the game stays in memory);
* `cli`: `uno-showdown game round` run in-process, which opens the file and the game
  first, as a script at the table would.

Run: python benchmarks/companion_store.py [--samples N]. Prints p50/p99 in milliseconds and
the ratio against the empty-store row of the same path, measured in the same run.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import statistics
import sys
import tempfile
import time
from pathlib import Path
from types import MappingProxyType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app import CompanionApp, build_hands
from companion.scoring import MAX_TARGET, Rules
from companion.store.games import Store
from companion.table.game import Game
from companion.table.records import DuelRow
from showdown.contract.events import DuelResult, LaunchPart, Outcome, Side, VerdictGiven
from uno_showdown.commands.cli import main

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
SIZES = (0, 1_000, 10_000)


def round_input(n: int) -> tuple[str, dict[str, str]]:
    winner = PLAYERS[n % 4]
    others = [p for p in PLAYERS if p != winner]
    hands = {others[0]: f"r{n % 10} gskip y+2", others[1]: "wild b5", others[2]: f"g{n % 9 + 1}"}
    return winner, hands


def seeded_store(path: Path, rounds: int = 0, duels: int = 0) -> int:
    game = Game.new("classic", Rules.make("winner", target=MAX_TARGET), PLAYERS)
    for n in range(rounds):
        winner, hands = round_input(n)
        game = game.add_round(winner, build_hands(hands, None), "2024-01-01T00:00:00+00:00")
    rows = [
        DuelRow(0, 0, PLAYERS[n % 4], PLAYERS[(n + 1) % 4], 1, "faster", PLAYERS[n % 4],
                PLAYERS[(n + 1) % 4], MappingProxyType({PLAYERS[n % 4]: 200_000,
                                                        PLAYERS[(n + 1) % 4]: 260_000}),
                "2024-01-01T00:00:00+00:00")
        for n in range(duels)
    ]
    with Store(path) as store:
        return store.games.create(game, rows)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def verdict(n: int) -> VerdictGiven:
    result = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, None,
                        (LaunchPart(Side.RIGHT, 1),), {Side.LEFT: 180_000, Side.RIGHT: None},
                        decided_at_us=1_000_000 + n)
    return VerdictGiven(n, result, Side.LEFT, Side.RIGHT, 1,
                        {Side.LEFT: PLAYERS[n % 4], Side.RIGHT: PLAYERS[(n + 1) % 4]})


class DuelPath:
    """A verdict handed to the app until its row is written and held."""

    def __init__(self, path: Path, game_id: int, start: int) -> None:
        self.app = CompanionApp.open(path, game_id, lang="en")
        self.app.last_duel()  # the screen has read the stored duels, as when it opens
        self.start = self.n = start

    def record(self) -> float:
        self.n += 1
        t0 = time.perf_counter()
        self.app.on_service_event(verdict(self.n))
        if not self.app.flush_duels(10.0):
            raise SystemExit("a duel was not recorded within 10 s")
        return (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        self.app.refresh()  # the screen's next look reads only the new duels
        assert len(self.app.duels()) == self.n
        self.app.close()


class AppPath:
    """`CompanionApp.record_round`, with the game in memory as the screen holds it."""

    def __init__(self, path: Path, game_id: int, start: int) -> None:
        self.app = CompanionApp.open(path, game_id, lang="en")
        self.app.standings()  # the screen shows the standings before a round is entered
        self.n = start

    def record(self) -> float:
        winner, hands = round_input(self.n)
        self.n += 1
        t0 = time.perf_counter()
        self.app.record_round(winner, {k: v.split() for k, v in hands.items()})
        return (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        self.app.close()


class CliPath:
    """`uno-showdown game round`, in-process: open the file, add the round, print."""

    def __init__(self, path: Path, game_id: int, start: int) -> None:
        self.path, self.game_id, self.n = path, game_id, start

    def record(self) -> float:
        winner, hands = round_input(self.n)
        self.n += 1
        argv = ["game", "round", "--db", str(self.path), "--game", str(self.game_id),
                "--winner", winner]
        for name, cards in hands.items():
            argv += ["--hand", f"{name}: {cards}"]
        sink = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sink):
            status = main(argv)
        if status:
            raise SystemExit(f"the CLI failed: {sink.getvalue()}")
        return (time.perf_counter() - t0) * 1000

    def close(self) -> None:
        pass


def main_() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100, help="records timed per row")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, kind, what in (("duel", DuelPath, "duels"), ("app", AppPath, "rounds"),
                                 ("cli", CliPath, "rounds")):
            paths = []
            for size in SIZES:
                db = Path(tmp) / f"{name}-{size}.db"
                paths.append(kind(db, seeded_store(db, **{what: size}), size))
            # Turn and turn about, each row first in its turn, so a busy disk (or the write
            # just before) weighs on every row alike.
            samples: list[list[float]] = [[] for _ in SIZES]
            for turn in range(args.samples):
                for k in range(len(paths)):
                    i = (turn + k) % len(paths)
                    samples[i].append(paths[i].record())
            for timed in paths:
                timed.close()
            base = statistics.median(samples[0]), percentile(samples[0], 0.99)
            for size, got in zip(SIZES, samples, strict=True):
                p50, p99 = statistics.median(got), percentile(got, 0.99)
                rows.append((name, what, size, p50, p99, p50 / base[0], p99 / base[1]))
    print(f"recording a duel or a round, {args.samples} samples per row, the rows of a path "
          "taken turn about (ms, committed with fsync)")
    print(f"{'path':<5} {'stored':>14} {'p50 ms':>8} {'p99 ms':>8} {'p50 ×base':>10} "
          f"{'p99 ×base':>10}")
    for name, what, size, p50, p99, r50, r99 in rows:
        print(f"{name:<5} {f'{size:,} {what}':>14} {p50:>8.2f} {p99:>8.2f} {r50:>10.2f} "
              f"{r99:>10.2f}")
    worst = max(r[6] for r in rows if r[2] == SIZES[-1])
    print(f"worst p99 at {SIZES[-1]:,} stored against 0 stored: {worst:.2f}× (goal: within 2×)")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
