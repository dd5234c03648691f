"""kill -9 during a championship: no deal reported as saved is lost, nothing is half-written.

A writer process plays qualifying at two tables through the ordinary `uno-showdown game
round`, as a table would, while the organiser pauses and resumes the clock with `uno-showdown
event pause|resume`. Games go to 60 points here, so tables keep reaching the target and
playing on in a new game: the round that ends a game and the game the table goes on in are
one transaction, like a clock event and every table's time box. The writer is killed with
SIGKILL eight times, each time after a random number of deals and at a random moment of
the next one (however fast the machine), and started again from what the file holds. After
every kill the file must hold every deal the writer reported, each exactly as entered; every
game that ended inside its box must have its next game; and the boxes must agree with the
clock.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest

from championship.core.clock import Kind
from championship.core.settings import make
from championship.desk.operations import Championship
from companion.store.games import Store
from companion.table.timebox import State

DEALS = 120
KILLS = 8
REPO = Path(__file__).resolve().parents[2]
TABLES = (("Ann", "Bob", "Cid"), ("Dan", "Eve", "Fay"))

WRITER = r"""
import sys
from championship.desk.operations import Championship
from companion.store.games import Store
from uno_showdown.commands.cli import main
from tests.championship.test_kill import deal, stored_deals

db, total = sys.argv[1], int(sys.argv[2])
with Championship.open(db) as champ:
    first = {t.table: t.game_ids[0] for t in champ.snapshot().tables}
    start = sum(len(d) for d in stored_deals(db, champ).values())
for n in range(start, total):
    table = n % 2 + 1
    with Store(db) as store:
        boxed = store.boxes.of_game(first[table])
        game_id = boxed.current_game_id
    if n % 10 == 5:  # the organiser pauses, or resumes (unless a killed life already did)
        verb = "pause" if n % 20 == 5 else "resume"
        with Championship.open(db) as champ:
            status = champ.snapshot().clock.status.value
        if (status == "paused") != (verb == "resume"):
            pass
        elif main(["event", verb, "--db", db]):
            sys.exit(3)
    winner, points = deal(n)
    argv = ["game", "round", "--db", db, "--game", str(game_id), "--winner", winner]
    for name, value in points.items():
        argv += ["--points", f"{name}: {value}"]
    if main(argv):
        sys.exit(2)
    print(f"DEAL {n}", flush=True)
"""


def deal(n: int) -> tuple[str, dict[str, int]]:
    """Deal n (at table n % 2 + 1): who went out and what the others held."""
    names = TABLES[n % 2]
    winner = names[n // 2 % 3]
    return winner, {name: (n * 7 + i * 13) % 40 for i, name in enumerate(names)
                    if name != winner}


def stored_deals(db: str, champ: Championship) -> dict[int, list[tuple[str, dict[str, int]]]]:
    """Every table's deals as stored, in order, across the games it played."""
    out: dict[int, list[tuple[str, dict[str, int]]]] = {}
    snap = champ.snapshot()
    with Store(db) as store:
        for t in snap.tables:
            rows = out.setdefault(t.table, [])
            for game_id in t.game_ids:
                for rnd in store.games.load(game_id).rounds:
                    rows.append((rnd.winner, {n: h.counted or 0 for n, h in rnd.hands.items()
                                              if n != rnd.winner}))
    return out


@pytest.mark.slow
@pytest.mark.timeout(120)
def test_sigkill_never_loses_a_reported_deal_nor_splits_a_change(tmp_path: Path) -> None:
    db = str(tmp_path / "games.db")
    with Championship.open(db) as champ:
        champ.new_event("Cup", make(tables=2, table_size=3, target=60,
                                    qualifying_minutes=600))
        champ.register([n for names in TABLES for n in names])
        champ.draw(seed=1)
        # seat the tables as TABLES says, whatever the draw: set the games' players
        snap = champ.snapshot()
        assert len(snap.tables) == 2
    _reseat(db)
    with Championship.open(db) as champ:
        champ.start()
    rng = random.Random(20170112)
    env = {**os.environ, "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
    reported = -1
    kills = 0
    for _life in range(KILLS + 5):
        proc = subprocess.Popen([sys.executable, "-c", WRITER, db, str(DEALS)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env, cwd=REPO)
        assert proc.stdout is not None
        lines: list[str] = []
        if kills < KILLS:  # kill it after a few deals, at a random moment of the next one
            for _deal in range(rng.randint(2, 12)):
                line = proc.stdout.readline()
                if not line:
                    break
                lines.append(line)
            time.sleep(rng.uniform(0, 0.01))  # lands anywhere in the next deal's work
            if proc.poll() is None:
                proc.send_signal(signal.SIGKILL)
                kills += 1
        out, err = proc.communicate(timeout=60)
        if proc.returncode != -signal.SIGKILL:
            assert proc.returncode == 0, err
        done = [int(m) for m in re.findall(r"^DEAL (\d+)$", "".join(lines) + out, re.M)]
        if done:
            reported = max(reported, *done)
        stored = check_file(db)
        assert stored > reported, "a deal reported as saved was lost"
        if stored == DEALS:
            break
    assert check_file(db) == DEALS
    assert kills == KILLS


def _reseat(db: str) -> None:
    """Give the two tables the players of TABLES (the draw is random; the test wants fixed
    names per table so that every deal can be checked by its number)."""
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT box_id FROM championship_tables ORDER BY table_no").fetchall()
    for (box_id,), names in zip(rows, TABLES, strict=True):
        (game_id,) = conn.execute("SELECT game_id FROM time_box_games WHERE box_id = ?",
                                  (box_id,)).fetchone()
        for seat, name in enumerate(names):
            conn.execute("UPDATE players SET name = ? WHERE game_id = ? AND seat = ?",
                         (name + "#", game_id, seat))
        for seat, name in enumerate(names):
            conn.execute("UPDATE players SET name = ? WHERE game_id = ? AND seat = ?",
                         (name, game_id, seat))
    conn.commit()
    conn.close()


def check_file(db: str) -> int:
    """Check the file after a kill; returns how many deals it holds."""
    conn = sqlite3.connect(db)
    assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    conn.close()
    with Championship.open(db) as champ:
        snap = champ.snapshot()
        tables = stored_deals(db, champ)
        count = sum(len(d) for d in tables.values())
        # deal n is the (n // 2)-th at table n % 2 + 1, whole and as entered
        for table, deals in tables.items():
            for k, got in enumerate(deals):
                assert got == deal(2 * k + table - 1), f"deal {2 * k + table - 1} is not whole"
        assert abs(len(tables[1]) - len(tables[2])) <= 1 and len(tables[1]) >= len(tables[2])
        with Store(db) as store:
            for t in snap.tables:  # a game that ended has its next game, in the same change
                for game_id in t.game_ids[:-1]:
                    assert store.games.load(game_id).verdict.over
                assert not store.games.load(t.game_id).verdict.over
        last = [e for e in snap.data.clock if e.kind in (Kind.PAUSE, Kind.RESUME)]
        paused = bool(last) and last[-1].kind is Kind.PAUSE
        for t in snap.tables:  # the clock event and the boxes were one change
            assert (t.box.state is State.PAUSED) == paused
        return count
