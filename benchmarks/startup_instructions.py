"""What the commands typed at a Pi cost to start, counted in instructions under arm64 emulation.

`benchmarks/cli_startup.py` times whole processes; under qemu-user on a shared machine
its wall times drift by a third from one run to the next, so a change of a few per cent
cannot be seen in them. This program counts instead: it runs the Pi's own Python (a Debian
arm64 root, as `make pi-check PI_KEEP=1` leaves one) under qemu-user under valgrind's
cachegrind and prints how many instructions the emulation executed for each command, with
its ratio to `python3 -c pass` counted the same way. The count is the same on every run
(hash seed fixed, each run on a fresh copy of one games file), so two versions of the code
compare exactly.

The rows below the baseline are floors that no code of ours can go under: the console
script pip writes imports `re`; any command that reads the games file imports sqlite3 and
has SQLite read the file's schema. The remaining rows are the commands themselves, run
from this checkout (`PYTHONPATH`), with the root's Python and standard library.

Instructions are not time: wall time under emulation also pays the system calls and page
faults valgrind does not count (the kernel's side of each), and a command that imports many
modules makes many of those: its ratio in wall time has come out higher than its ratio here
(docs/development.md gives both). `make pi-check` measures wall time, in the guide's own
install.

Run (as any user; valgrind and qemu-user-static on the host), after `make pi-check PI_KEEP=1`:
    python benchmarks/startup_instructions.py \
        --root /var/cache/uno-showdown-pi-check/bookworm-arm64-run
"""

from __future__ import annotations

import argparse
import concurrent.futures
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What pip's console script for `uno-showdown` runs (pip writes this, `re` included).
CONSOLE_SCRIPT = """import re
import sys
from uno_showdown.commands.console import run
if __name__ == "__main__":
    sys.argv[0] = re.sub(r"(-script\\.pyw|\\.exe)?$", "", sys.argv[0])
    sys.exit(run())
"""

ROUND = ["--winner", "Ann", "--hand", "Bob: r1", "--hand", "Cid: r1"]


def cases(script: str) -> list[tuple[str, list[str]]]:
    games = "import sqlite3, os; sqlite3.connect(os.environ['GAMES']).execute(" \
            "'SELECT count(*) FROM games').fetchall()"
    console = "import re, sys; re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])"
    return [
        ("python3 -c pass", ["-c", "pass"]),
        ("floor: the console script's re", ["-c", console]),
        ("floor: + argparse", ["-c", f"{console}; import argparse"]),
        ("floor: + sqlite3, one query", ["-c", f"{console}; import argparse; {games}"]),
        ("uno-showdown --help", [script, "--help"]),
        ("uno-showdown game list", [script, "game", "list"]),
        ("uno-showdown game show", [script, "game", "show"]),
        ("uno-showdown game round", [script, "game", "round", *ROUND]),
    ]


def seed_games_file(folder: Path) -> Path:
    """A games file with one game of three players and three rounds, made by this checkout
    on the host (the commands counted read it, and `game round` adds to a copy)."""
    env = dict(os.environ, XDG_DATA_HOME=str(folder), PYTHONPATH=str(ROOT), LANG="C.UTF-8")
    run = [sys.executable, "-m", "uno_showdown", "game"]
    subprocess.run([*run, "new", "--edition", "showdown", "--method", "winner",
                    "--players", "Ann,Bob,Cid"], env=env, check=True, capture_output=True)
    for _ in range(3):
        subprocess.run([*run, "round", *ROUND], env=env, check=True, capture_output=True)
    return folder / "uno-showdown" / "games.sqlite3"


#: The CPU qemu emulates: the Raspberry Pi 4's, as `make pi-check` (tools/pi_check.py says
#: why not qemu's default).
PI_CPU = "cortex-a72"


def count(root: Path, argv: list[str], seed: Path, scratch: Path, counted: bool = True,
          cpu: str = PI_CPU) -> int:
    """Host instructions for the root's python3 running `argv` under qemu-user (`counted`
    False: run it without valgrind, and return 0)."""
    data = Path(tempfile.mkdtemp(dir=scratch))
    (data / "uno-showdown").mkdir()
    games = data / "uno-showdown" / "games.sqlite3"
    shutil.copyfile(seed, games)
    env = {"PATH": "/usr/bin:/bin", "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT),
           "XDG_DATA_HOME": str(data), "HOME": str(data), "LANG": "C.UTF-8",
           "COLUMNS": "80", "GAMES": str(games)}
    valgrind = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--smc-check=all-non-file",
                "--cachegrind-out-file=/dev/null"] if counted else []
    done = subprocess.run(
        [*valgrind, "qemu-aarch64-static", "-cpu", cpu, "-L", str(root),
         str(root / "usr" / "bin" / "python3"), *argv],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if not counted and done.returncode == 0:
        return 0
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if done.returncode != 0 or found is None:
        raise SystemExit(f"{' '.join(argv)} failed under emulation ({done.returncode}): "
                         f"{done.stderr.strip()[-500:]}")
    return int(found[1].replace(",", ""))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, required=True,
                        help="a Debian arm64 root with python3 (make pi-check PI_KEEP=1 keeps "
                             "/var/cache/uno-showdown-pi-check/<suite>-arm64-run)")
    parser.add_argument("--jobs", type=int, default=2, help="counts run at once (default 2)")
    parser.add_argument("--cpu", default=PI_CPU,
                        help=f"the CPU qemu emulates (default {PI_CPU}, the Pi 4's)")
    args = parser.parse_args()
    missing = [tool for tool in ("valgrind", "qemu-aarch64-static") if not shutil.which(tool)]
    if missing:
        print(f"startup_instructions: {' and '.join(missing)} not found: apt-get install "
              "valgrind qemu-user-static", file=sys.stderr)
        return 2
    if not (args.root / "usr" / "bin" / "python3").exists():
        print(f"startup_instructions: no usr/bin/python3 in {args.root}: give the root "
              "`make pi-check PI_KEEP=1` leaves", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="startup-instructions-") as tmp:
        scratch = Path(tmp)
        script = scratch / "uno-showdown"
        script.write_text(CONSOLE_SCRIPT, encoding="utf-8")
        seed = seed_games_file(scratch / "seed")
        runs = cases(str(script))
        # once each first, uncounted: the root's Python writes this checkout's .pyc files
        for _name, argv in runs:
            count(args.root, argv, seed, scratch, counted=False, cpu=args.cpu)
        with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
            futures = [pool.submit(count, args.root, argv, seed, scratch, cpu=args.cpu)
                       for _n, argv in runs]
            try:
                counts = [future.result() for future in futures]
            except BaseException:  # a failed count: say so now, not after the queued ones
                pool.shutdown(wait=False, cancel_futures=True)
                raise
    base = counts[0]
    print(f"instructions to start under qemu-user as a {args.cpu} (arm64 Python of the root; "
          "host instructions counted by valgrind, millions); x pass: ratio to "
          "`python3 -c pass`")
    print(f"{'command':<36} {'M instr':>8} {'x pass':>7}")
    for (name, _argv), n in zip(runs, counts, strict=True):
        print(f"{name:<36} {n / 1e6:8.0f} {n / base:7.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
