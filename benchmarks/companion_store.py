"""How long recording a round takes as a game grows: 0, 100 and 1,000 rounds already stored.

Two paths are timed, each from the call until the round is committed to disk:
* `app`: `CompanionApp.record_round`, what the screen does (the game stays in memory);
* `cli`: `uno-showdown game round` run in-process, which opens the file and loads the whole
  game first, as a script at the table would.

Run: python benchmarks/companion_store.py [--samples N]. Prints p50/p99 in milliseconds and
the ratio against the empty-store baseline measured in the same run.
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app import CompanionApp
from companion.game import Game
from companion.scoring import MAX_TARGET, Rules
from companion.store import Store
from showdown.cli import main

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]
SIZES = (0, 100, 1000)


def round_input(n: int) -> tuple[str, dict[str, str]]:
    winner = PLAYERS[n % 4]
    others = [p for p in PLAYERS if p != winner]
    hands = {others[0]: f"r{n % 10} gskip y+2", others[1]: "wild b5", others[2]: f"g{n % 9 + 1}"}
    return winner, hands


def seeded_store(path: Path, rounds: int) -> int:
    game = Game.new("classic", Rules.make("winner", target=MAX_TARGET), PLAYERS)
    from companion.app import build_hands

    for n in range(rounds):
        winner, hands = round_input(n)
        game = game.add_round(winner, build_hands(hands, None), "2024-01-01T00:00:00+00:00")
    with Store(path) as store:
        return store.create_game(game)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    k = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[k]


def time_app(path: Path, game_id: int, start: int, samples: int) -> list[float]:
    app = CompanionApp.open(path, game_id, lang="en")
    out = []
    try:
        for n in range(start, start + samples):
            winner, hands = round_input(n)
            t0 = time.perf_counter()
            app.record_round(winner, {k: v.split() for k, v in hands.items()})
            out.append((time.perf_counter() - t0) * 1000)
    finally:
        app.close()
    return out


def time_cli(path: Path, game_id: int, start: int, samples: int) -> list[float]:
    out = []
    for n in range(start, start + samples):
        winner, hands = round_input(n)
        argv = ["game", "round", "--db", str(path), "--game", str(game_id), "--winner", winner]
        for name, cards in hands.items():
            argv += ["--hand", f"{name}: {cards}"]
        sink = io.StringIO()
        t0 = time.perf_counter()
        with contextlib.redirect_stdout(sink):
            status = main(argv)
        out.append((time.perf_counter() - t0) * 1000)
        if status:
            raise SystemExit(f"the CLI failed: {sink.getvalue()}")
    return out


def main_() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=100, help="rounds timed per row")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for path_name, timer in (("app", time_app), ("cli", time_cli)):
            baseline: tuple[float, float] | None = None
            for size in SIZES:
                path = Path(tmp) / f"{path_name}-{size}.db"
                game_id = seeded_store(path, size)
                samples = timer(path, game_id, size, args.samples)
                p50, p99 = statistics.median(samples), percentile(samples, 0.99)
                if baseline is None:
                    baseline = (p50, p99)
                rows.append((path_name, size, p50, p99, p50 / baseline[0], p99 / baseline[1]))
    print(f"recording a round, {args.samples} samples per row (ms, committed with fsync)")
    print(f"{'path':<5} {'stored':>7} {'p50 ms':>8} {'p99 ms':>8} {'p50 ×base':>10} "
          f"{'p99 ×base':>10}")
    for name, size, p50, p99, r50, r99 in rows:
        print(f"{name:<5} {size:>7} {p50:>8.2f} {p99:>8.2f} {r50:>10.2f} {r99:>10.2f}")
    worst = max(r[3] for r in rows if r[1] == 1000)
    print(f"p99 at 1,000 rounds stored: {worst:.2f} ms (goal: under 50 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main_())
