"""Who really pressed first? The engine (edge stamps) against an arrival-order arbiter.

For each gap between the two players' true press times, run duels where both
press after "go", stamp each edge at its true time (as the kernel or the
microcontroller does), deliver it after a random delay of 0 to 20 ms (a loaded
Pi), and count the verdicts that name the true winner. The naive arbiter is the
well-known GPIO reaction-game recipe: whichever callback runs first wins.

    python benchmarks/fairness.py [--duels 10000] [--seed 1]
"""

from __future__ import annotations

import argparse
import random

from showdown.contract.events import Outcome, PaddlePressed, Side
from showdown.duel.engine import Duel, DuelConfig, Load, Start

GAPS_MS = (0.05, 0.1, 0.5, 1, 2, 5, 10)
MAX_JITTER_US = 20_000
COUNTDOWN_US = 3_000_000


def one_duel(rng: random.Random, gap_us: int, config: DuelConfig) -> tuple[str, bool]:
    """Return (engine verdict: 'right'|'wrong'|'tie', naive arbiter right?)."""
    fast = rng.choice((Side.LEFT, Side.RIGHT))
    go = COUNTDOWN_US
    first = go + rng.randint(150_000, 400_000)
    stamps = {fast: first, fast.other: first + gap_us}
    arrivals = {s: t + rng.randint(0, MAX_JITTER_US) for s, t in stamps.items()}
    duel = Duel(config)
    duel.handle(Load(Side.LEFT, Side.RIGHT, 1))
    duel.handle(Start(0, COUNTDOWN_US))
    duel.advance(go)
    for side in sorted(arrivals, key=lambda s: (arrivals[s], s.value)):
        duel.advance(arrivals[side])
        duel.handle(PaddlePressed(side, stamps[side]))
    while duel.results == []:
        deadline = duel.next_deadline_us
        assert deadline is not None
        duel.advance(deadline)
    result = duel.results[0]
    if result.outcome is Outcome.TIE:
        engine = "tie"
    else:
        engine = "right" if result.winner is fast else "wrong"
    naive_winner = min(arrivals, key=lambda s: (arrivals[s], rng.random()))
    return engine, naive_winner is fast


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=10_000, help="duels per gap")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    config = DuelConfig()
    rng = random.Random(args.seed)
    print(f"{args.duels} duels per gap; delivery delay uniform 0-{MAX_JITTER_US / 1000:.0f} ms; "
          f"tie window {config.tie_window_us} us; settle {config.settle_us / 1000:.0f} ms")
    print()
    print(f"| {'gap (ms)':>8} | {'engine correct':>14} | {'engine tie':>10} | "
          f"{'naive correct':>13} | {'engine/naive':>12} |")
    print(f"|{'-' * 10}|{'-' * 16}|{'-' * 12}|{'-' * 15}|{'-' * 14}|")
    for gap_ms in GAPS_MS:
        gap_us = round(gap_ms * 1000)
        engine_right = ties = naive_right = 0
        for _ in range(args.duels):
            engine, naive = one_duel(rng, gap_us, config)
            engine_right += engine == "right"
            ties += engine == "tie"
            naive_right += naive
        pct = 100 * engine_right / args.duels
        naive_pct = 100 * naive_right / args.duels
        ratio = pct / naive_pct if naive_pct else float("inf")
        note = " (inside tie window)" if gap_us < config.tie_window_us else ""
        print(f"| {gap_ms:>8g} | {pct:>13.2f}% | {100 * ties / args.duels:>9.2f}% | "
              f"{naive_pct:>12.2f}% | {ratio:>11.2f}x |{note}")


if __name__ == "__main__":
    main()
