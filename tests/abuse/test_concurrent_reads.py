"""Readers against writers in separate processes: every read sees one committed state.

Before, loading a game read its rounds and their hands in separate queries, so a commit
landing between them gave a reader hands of rounds it had not seen: a KeyError in about
one `game show` in five during writes, and `CompanionApp.refresh()` (what the table's
screen polls) raised in one poll in five, closing the window mid-game. Now each read is one
read transaction. Two writer processes change one game as fast as they can (rounds, undo,
redo, corrections, duels) while two reader processes read it the ways the CLI and the screen
do; not one read may fail or see a game the model would not build.
"""

from __future__ import annotations

import multiprocessing
import time
import traceback
from pathlib import Path
from typing import Any

from companion.app import CompanionApp
from companion.store.errors import GameChangedError
from showdown.contract.errors import CompanionError

SECONDS = 3.0
PLAYERS = ["Ann", "Bob", "Cid"]


def work(role: str, *args: Any) -> None:
    """Run a writer or a reader; if it dies, its traceback goes to the queue (the last
    argument), so the test fails at once saying why instead of waiting for a result."""
    try:
        {"writer": _writer, "reader": _reader}[role](*args)
    except BaseException:
        args[-1].put(("crash", 0, 0, [traceback.format_exc()]))


def _writer(db: str, seed: int, ready: Any, results: multiprocessing.Queue) -> None:
    """Change the game every way the table does; a change made from a stale copy is
    refused (another writer got there first) and simply tried again, as the screen does."""
    done = conflicts = 0
    app = CompanionApp.open(db, lang="en")
    ready.wait(timeout=60)  # all four processes are up: the seconds start together
    stop_at = time.monotonic() + SECONDS
    try:
        step = seed
        while time.monotonic() < stop_at:
            step += 1
            try:
                if step % 7 == 0:
                    app.undo()
                elif step % 7 == 1:
                    app.redo()
                elif step % 7 == 2 and app.game is not None and app.game.rounds:
                    app.edit_round(1, "Bob", points={"Ann": step % 30, "Cid": 3})
                elif step % 7 == 3:
                    app.store.duels.add(app.game.id, len(app.game.rounds), "Ann", "Cid", 2,
                                       "faster", "Ann", "Cid", 200_000, 250_000, "now")
                else:
                    app.record_round(PLAYERS[step % 3], points={
                        p: step % 20 for p in PLAYERS if p != PLAYERS[step % 3]})
                done += 1
            except GameChangedError:
                conflicts += 1
    finally:
        app.close()
    results.put(("writer", done, conflicts, []))


def _reader(db: str, ready: Any, results: multiprocessing.Queue) -> None:
    """Read as `game show` does (a fresh store each time) and as the screen's poll does."""
    from uno_showdown.commands.cli import main

    reads = 0
    errors: list[str] = []
    screen = CompanionApp.open(db, lang="en")
    ready.wait(timeout=60)
    stop_at = time.monotonic() + SECONDS
    try:
        while time.monotonic() < stop_at:
            try:
                with CompanionApp.open(db, unfinished_only=False, lang="en") as cli_app:
                    game = cli_app.game
                    assert game is not None
                    game.standings()  # every derived value: the rounds hold what they must
                    game.history()
                    cli_app.duel_stats()
                screen._seen_version = None  # as if another program had just committed
                screen.refresh()
                assert screen.game is not None
                screen.game.standings()
                reads += 1
                if reads % 25 == 0:
                    status = main(["game", "show", "--db", db, "--rounds"])
                    if status != 0:
                        errors.append(f"game show exited {status}")
            except (CompanionError, AssertionError, LookupError, TypeError) as exc:
                errors.append(f"{type(exc).__name__}: {exc}")
    finally:
        screen.close()
    results.put(("reader", reads, 0, errors))


def test_readers_never_fail_while_writers_commit(tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    with CompanionApp.open(db, lang="en") as app:
        app.new_game("classic", "lazy", PLAYERS)
        app.record_round("Ann", points={"Bob": 5, "Cid": 7})
    context = multiprocessing.get_context("spawn")  # a clean interpreter per process
    results = context.Queue()
    ready = context.Barrier(4)
    processes = [context.Process(target=work, args=("writer", str(db), seed, ready, results))
                 for seed in (0, 3)]
    processes += [context.Process(target=work, args=("reader", str(db), ready, results))
                  for _ in range(2)]
    for process in processes:
        process.start()
    outcomes = [results.get(timeout=60) for _ in processes]
    for process in processes:
        process.join(timeout=30)
        assert process.exitcode == 0
    errors = [e for kind, _, _, errs in outcomes if kind != "writer" for e in errs]
    assert errors == []
    reads = sum(n for kind, n, _, _ in outcomes if kind == "reader")
    writes = sum(n for kind, n, _, _ in outcomes if kind == "writer")
    assert reads > 20 and writes > 20, outcomes  # both sides really ran at the same time
