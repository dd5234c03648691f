"""kill -9 while rounds are being recorded: no reported round is lost, no round is half-written.

A writer process records 200 rounds through the CLI, one `game round` after another, and
prints what the CLI printed. It is killed with SIGKILL and started again, resuming from what
the store holds: the first 25 times right after a random count of saved rounds, so inside
the next round's write whatever the machine's speed. After every kill the store must hold
every round the CLI reported as saved, each exactly as entered and whole.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from uno_showdown.commands.cli import main

ROUNDS = 200
PLAYERS = ("Ann", "Bob", "Cid")
REPO = Path(__file__).resolve().parents[2]

WRITER = r"""
import sys
from companion.store.games import Store
from uno_showdown.commands.cli import main

db, total = sys.argv[1], int(sys.argv[2])
with Store(db) as store:
    start = len(store.games.load(1).rounds) + 1
for n in range(start, total + 1):
    winner, a, b = [("Ann", "Bob", "Cid"), ("Bob", "Cid", "Ann"), ("Cid", "Ann", "Bob")][n % 3]
    status = main(["game", "round", "--db", db, "--game", "1", "--winner", winner,
                   "--hand", f"{a}: r{n % 10} gskip", "--hand", f"{b}: b{n // 10 % 10} wild"])
    if status:
        sys.exit(status)
"""


def expected(n: int) -> dict[str, str]:
    winner, a, b = [("Ann", "Bob", "Cid"), ("Bob", "Cid", "Ann"), ("Cid", "Ann", "Bob")][n % 3]
    return {winner: "-", a: f"r{n % 10} gskip", b: f"b{n // 10 % 10} wild"}


def stored_rounds(db: Path) -> dict[int, dict[str, str]]:
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        rounds: dict[int, dict[str, str]] = {}
        for number, name, cards in conn.execute(
            "SELECT r.number, p.name, h.cards FROM rounds r "
            "LEFT JOIN hands h ON h.round_id = r.id LEFT JOIN players p ON p.id = h.player_id "
            "WHERE r.undone = 0"
        ):
            rounds.setdefault(number, {})
            if name is not None:
                rounds[number][name] = cards
        return rounds
    finally:
        conn.close()


@pytest.mark.slow
@pytest.mark.timeout(60)
def test_sigkill_never_loses_a_saved_round_nor_leaves_half_a_round(tmp_path, capsys):
    db = tmp_path / "games.db"
    assert main(["game", "new", "--db", str(db), "--edition", "classic", "--method", "winner",
                 "--players", ",".join(PLAYERS), "--target", "1000000"]) == 0
    capsys.readouterr()
    rng = random.Random(20240229)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    reported = 0
    kills = 0
    for life in range(60):
        proc = subprocess.Popen(
            [sys.executable, "-c", WRITER, str(db), str(ROUNDS)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO,
        )
        killed = False
        head = ""
        if life < 25:  # killed right after its k-th saved round: inside the next one's write,
            # whatever the machine's speed (a timer would miss a writer that is quick)
            assert proc.stdout is not None
            k = rng.randint(1, 10)
            while head.count(" saved.\n") < k:
                line = proc.stdout.readline()
                if not line:
                    break
                head += line
            else:
                proc.send_signal(signal.SIGKILL)
                killed = True
                kills += 1
        try:
            out, err = proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            raise
        out = head + out
        saved = [int(m) for m in re.findall(r"^Round (\d+) saved\.$", out, re.M)]
        if saved:
            reported = max(reported, *saved)
        if not killed:
            assert proc.returncode == 0, err
        rounds = stored_rounds(db)
        assert sorted(rounds) == list(range(1, len(rounds) + 1)), "rounds must be contiguous"
        assert len(rounds) >= reported, "a round reported as saved was lost"
        for number, hands in rounds.items():
            assert hands == expected(number), f"round {number} is not whole"
        if len(rounds) == ROUNDS:
            break
    assert len(stored_rounds(db)) == ROUNDS
    assert reported == ROUNDS or kills > 0
    assert kills >= 5, "the writer was hardly interrupted; the test proves little"
