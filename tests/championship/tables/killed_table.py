"""A table killed with SIGKILL at the worst moments (run by test_faults as a child process).

`python -m tests.championship.tables.killed_table DB STAGE MODE`: MODE `after-commit` records a
deal and
kills itself before anything could publish it; `after-queue` records a deal, queues it in
the outbox (the agent's own transaction) and kills itself before sending it.
"""

from __future__ import annotations

import os
import random
import signal
import sys

from championship.store.table_file import TableFile
from companion.app import CompanionApp
from companion.store.games import Store


def main() -> None:
    db, stage, mode, event, table, seed = sys.argv[1:7]
    rng = random.Random(int(seed))
    store = Store(db)
    file = TableFile(store, int(event), int(table))
    game_id = file.current_game(stage)
    with CompanionApp.open(db, game_id) as app:
        assert app.game is not None
        names = list(app.game.names)
        winner = rng.choice(names)
        app.record_round(winner, points={n: rng.randint(1, 50) for n in names if n != winner})
    if mode == "after-queue":
        assert file.scan() > 0
    os.kill(os.getpid(), signal.SIGKILL)


if __name__ == "__main__":
    main()
