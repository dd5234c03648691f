"""How long `uno-showdown game import` takes as the file grows: 1,000 to 20,000 rounds.

An import checks the whole file before it writes anything: it replays every round through
the game model (who may go out, which cards the edition holds, whether the game was already
over), then stores the game in one transaction and reads it back. Each of those steps must
cost the same per round however long the game is, or a long lazy-method evening (no target,
so no end) becomes a file that takes minutes to import.

Run: python benchmarks/import_game.py [--sizes 1000,5000,20000]. Prints the time of a JSON
and a CSV import (in-process, as `game import` runs it) and the cost per round, with the ratio
of each size's per-round cost against the smallest size measured in the same run: about 1.0
everywhere means linear.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.app import CompanionApp

PLAYERS = ["Ann", "Bob", "Cid", "Dan"]


def exported(rounds: int) -> str:
    """A file as `game export` writes it: a lazy-method game (it never ends) of `rounds`."""
    played = []
    for n in range(rounds):
        winner = PLAYERS[n % 4]
        others = [p for p in PLAYERS if p != winner]
        hands: dict[str, str | int] = {winner: "-", others[0]: f"r{n % 10} gskip y+2",
                                       others[1]: "wild b5", others[2]: n % 50}
        played.append({"winner": winner, "played_at": "2026-11-29T20:00:00+00:00",
                       "hands": hands})
    return json.dumps({
        "format": "uno-showdown-game", "version": 1, "edition": "classic", "method": "lazy",
        "target": None, "options": [], "created_at": "2026-11-29T20:00:00+00:00",
        "players": [{"name": p, "joined_round": 0, "team": None} for p in PLAYERS],
        "rounds": played, "undone": [], "duels": [],
    })


def time_import(folder: Path, name: str, text: str, fmt: str) -> tuple[float, str]:
    """Seconds for one import into a fresh games file, and the game exported back as CSV."""
    with CompanionApp.open(folder / f"{name}.db", lang="en") as app:
        started = time.perf_counter()
        app.import_game(text, fmt)
        elapsed = time.perf_counter() - started
        return elapsed, app.export("csv")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="1000,5000,20000",
                        help="round counts, comma-separated (default 1000,5000,20000)")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for rounds in sizes:
            json_s, csv_text = time_import(folder, f"json{rounds}", exported(rounds), "json")
            csv_s, _ = time_import(folder, f"csv{rounds}", csv_text, "csv")
            rows.append((rounds, json_s, csv_s))
    base_json = rows[0][1] / rows[0][0]
    base_csv = rows[0][2] / rows[0][0]
    print(f"{'rounds':>7} {'json s':>8} {'µs/round':>9} {'ratio':>6} "
          f"{'csv s':>8} {'µs/round':>9} {'ratio':>6}")
    for rounds, json_s, csv_s in rows:
        per_json, per_csv = json_s / rounds, csv_s / rounds
        print(f"{rounds:>7} {json_s:>8.2f} {per_json * 1e6:>9.0f} {per_json / base_json:>6.2f} "
              f"{csv_s:>8.2f} {per_csv * 1e6:>9.0f} {per_csv / base_csv:>6.2f}")
    print(f"(ratio: cost per round against the {sizes[0]:,}-round import of the same run)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
