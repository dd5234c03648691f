"""How long `uno-showdown` takes to start, as whole processes, beside `python -c pass`.

A Pi pays for every module the command line imports before it does anything, so the
command imports only the subcommand being run (see `uno_showdown/commands/cli.py`).
This program
starts each command line as a fresh process, several times, in turns (baseline,
command, baseline, ...) so a machine whose speed drifts treats them alike, and prints
min / median / max wall time in milliseconds with two ratios to the baseline measured in
the same run: min to min (what the command costs itself: on a busy machine, other work
only ever adds time, so the fastest run is the least disturbed) and median to median.
The goal: under 2x `python -c pass` for `--help`, `points` and the commands typed at the
table (`game list`, `game show`, `game round`), on a Pi-class CPU too (measured under arm64
emulation, where each module imported costs several times what it does here). The baseline
is this interpreter with its own site-packages, so what every process of it pays before any
code of ours runs (an editable install's import finder: pathlib, re and more) counts on
both sides.

Run: python benchmarks/cli_startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def command_line() -> list[str]:
    """The installed console script beside this interpreter, else `python -m uno_showdown`."""
    script = Path(sys.executable).parent / "uno-showdown"
    if script.exists():
        return [str(script)]
    found = shutil.which("uno-showdown")
    return [found] if found else [sys.executable, "-m", "uno_showdown"]


def editable_install() -> bool:
    """Whether this interpreter has the project as an editable install (pip's direct_url
    record says so): its import finder runs in every process, `python -c pass` too."""
    import json
    from importlib import metadata
    try:
        record = metadata.distribution("uno-showdown").read_text("direct_url.json") or "{}"
    except metadata.PackageNotFoundError:
        return False
    return bool(json.loads(record).get("dir_info", {}).get("editable"))


def cases(scratch: Path) -> list[tuple[str, list[str]]]:
    cli = command_line()
    db = str(scratch / "games.db")
    console = "import re, sys; re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])"
    games = (f"import argparse, sqlite3; sqlite3.connect({db!r}).execute("
             "'SELECT count(*) FROM games').fetchall()")
    return [
        ("python -c pass", [sys.executable, "-c", "pass"]),
        # what no code of ours goes under: pip's console script imports re and runs it;
        # a game command parses its arguments and has SQLite read the games file's schema
        ("floor: console script", [sys.executable, "-c", console]),
        ("floor: + argparse, SQL", [sys.executable, "-c", f"{console}; {games}"]),
        ("uno-showdown --help", [*cli, "--help"]),
        ("uno-showdown --version", [*cli, "--version"]),
        ("uno-showdown points", [*cli, "points", "--edition", "showdown", "r5", "gskip"]),
        ("uno-showdown game list", [*cli, "game", "list", "--db", db]),
        ("uno-showdown game show", [*cli, "game", "show", "--db", db]),
        ("uno-showdown game round", [*cli, "game", "round", "--db", db, "--winner", "Ann",
                                     "--hand", "Bob: r1", "--hand", "Cid: r1"]),
        ("uno-showdown duel --help", [*cli, "duel", "--help"]),
        ("uno-showdown run --help", [*cli, "run", "--help"]),
    ]


def time_once(argv: list[str], env: dict[str, str]) -> float:
    """Milliseconds from starting `argv` until it has exited."""
    start = time.perf_counter_ns()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
                          cwd=ROOT, check=False)
    elapsed = (time.perf_counter_ns() - start) / 1e6
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): "
                         f"{done.stderr.decode(errors='replace').strip()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15, help="runs of each (default 15)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        scratch = Path(tmp)
        env = dict(os.environ, XDG_DATA_HOME=str(scratch), LANG="C.UTF-8")
        # As on a user's machine, Python keeps the compiled modules (.pyc) it wrote on the
        # first run; a shell that forbids writing them would time the compiler instead.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        db = str(scratch / "games.db")
        subprocess.run([*command_line(), "game", "new", "--db", db, "--edition", "showdown",
                        "--method", "winner", "--players", "Ann,Bob,Cid"], env=env, check=True,
                       capture_output=True)
        runs = cases(scratch)
        times: dict[str, list[float]] = {name: [] for name, _argv in runs}
        for _name, argv in runs:  # one warm-up each: the disk cache, the .pyc files
            time_once(argv, env)
        for _ in range(args.runs):
            for name, argv in runs:
                times[name].append(time_once(argv, env))
    if editable_install():
        print("note: uno-showdown is installed editable here, so `python -c pass` also pays "
              "the editable finder's imports (pathlib, re, enum ...), which the ratios hide; "
              "the Pi's install is not editable: `make pi-check` measures that one")
    base_min = min(times["python -c pass"])
    base_median = statistics.median(times["python -c pass"])
    print(f"whole processes, {args.runs} runs each, in turns; ms; x pass: ratio to "
          "`python -c pass`, by min and by median")
    print(f"{'command':<26} {'min':>7} {'median':>7} {'max':>7} {'x min':>7} {'x med':>7}")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"{name:<26} {min(samples):7.1f} {median:7.1f} {max(samples):7.1f} "
              f"{min(samples) / base_min:7.2f} {median / base_median:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
