"""The table knows: `table status` tells a live agent from a dead one by the agent's hold on
the file (not its last words) and counts what waits in the file, not in a dead agent's
memory; a deal the director holds, voids or restores is said at its table (the agent's
terminal, `table status`, the table's screen) with the director's reason."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest

from championship.broker.credentials import write_credentials
from championship.desk.operations import Championship
from championship.store.table_file import link_state
from companion.store.games import Store
from tests.championship.tables.conftest import Cluster, Table, eventually
from tests.championship.tables.serving import uno
from tests.championship.tables.test_one_agent import Join, _join_argv


def _status(db: str) -> str:
    done = uno("table", "status", "--db", db, "--lang", "en")
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_status_after_the_agent_was_killed_says_it_and_counts_the_file(
        cluster: Cluster, tmp_path: Path) -> None:
    cluster.start_director()
    creds = tmp_path / "table-1.json"
    write_credentials(creds, cluster.table_creds[1])
    db = tmp_path / "table1.db"
    join = Join(_join_argv(cluster, db, creds))
    try:
        eventually(lambda: join.said("Seated for flight-1"), 30, "the agent seated")
        eventually(lambda: "The broker: connected since" in _status(str(db)), 20)
        join.proc.send_signal(signal.SIGKILL)
        assert join.ended(10) == -signal.SIGKILL
    finally:
        join.stop()
    cluster.tables[1] = Table(1, str(db), cluster.table_creds[1])
    for _ in range(3):
        cluster.deal(1)
    status = _status(str(db))
    assert ("`uno-showdown table join` is not running on this file (it ended without "
            "stopping): nothing is sent until it runs again.") in status
    assert "connected since" not in status
    waiting = int(re.search(r"Waiting to be sent: (\d+)\.", status).group(1))  # type: ignore[union-attr]
    assert waiting >= 3  # the three deals (and the table's count of them)


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_the_directors_word_on_a_deal_is_said_at_its_table(cluster: Cluster) -> None:
    import pygame

    from companion.screen.screen import CompanionScreen

    said: list[str] = []
    cluster.start_director()
    table = cluster.start_table(1)
    assert table.agent is not None
    table.agent.say = said.append
    cluster.seated(1)
    with table.app() as app:  # 5,000 points each: more than the deck holds
        assert app.game is not None
        names = list(app.game.names)
        app.record_round(names[0], points={n: 5000 for n in names[1:]})
    held = ("The director holds round 1 of game 1 (flight-1): more points than the deck "
            "holds; it does not count until the director decides.")
    eventually(lambda: held in said, 30, "the table says the deal is held")
    assert held in _status(table.db)
    pygame.font.init()
    with table.app() as app, Store(table.db) as store:
        screen = CompanionScreen(app, (800, 480), link_state=lambda: link_state(store))
        screen.update(screen._now_ms + 1000)
        banner = screen.banner()
        assert banner is not None and "1 deal held by the director" in banner[1], banner

        with Championship.open(cluster.director_db, cluster.event_id) as champ:
            champ.void_deal(1, "g1:1", "5,000 points is a typo", "Rita")
        voided = "The director voided round 1 of game 1 (flight-1): 5,000 points is a typo."
        eventually(lambda: voided in said, 30, "the table says the deal is void")

        def told() -> bool:
            screen.update(screen._now_ms + 1000)
            return screen._notice == voided

        eventually(told, 20, "the table's screen says it")
        banner = screen.banner()
        assert banner is not None and "held by the director" not in banner[1]
    status = _status(table.db)
    assert voided in status and held not in status


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_a_held_deal_does_not_end_the_tables_game_and_a_restore_does(
        cluster: Cluster) -> None:
    said: list[str] = []
    cluster.start_director()
    table = cluster.start_table(1)
    assert table.agent is not None
    table.agent.say = said.append
    cluster.seated(1)
    with table.app() as app:  # 5,000 points each: past the target, more than the deck holds
        assert app.game is not None and app.game.id is not None
        game_id, names = app.game.id, list(app.game.names)
        recorded = app.record_round(names[0], points={n: 5000 for n in names[1:]})
        assert recorded.continued_in is not None  # the table's game went past 500
    reopened = (f"Game {game_id} is not over: the deal that took it to the target is held, "
                f"so the table plays on in game {game_id} (game {recorded.continued_in} had "
                "no round and is taken back).")
    eventually(lambda: reopened in said, 30, "the table says its game is open again")
    with Store(table.db) as store:
        game = store.games.load(game_id)
        assert not game.verdict.over
        assert store.games.revision(recorded.continued_in) is None

    points = [a for n in names[1:] for a in ("--points", f"{n}: 7")]
    done = uno("game", "round", "--db", table.db, "--winner", names[0], *points,
               "--lang", "en")
    assert done.returncode == 0, done.stderr
    with Store(table.db) as store:
        assert len(store.games.load(game_id).history()) == 2  # the same game goes on

    with Championship.open(cluster.director_db, cluster.event_id) as champ:
        champ.restore_deal(1, f"g{game_id}:1", "they did score that much", "Rita")
    ended = (f"Game {game_id} is over again now that its deal counts (rule 2.1): the table "
             "plays on in game")
    eventually(lambda: any(line.startswith(ended) for line in said), 30,
               "the table says the restore ended its game")
    with Store(table.db) as store:
        assert store.games.load(game_id).verdict.over
        box = store.boxes.of_game(game_id)
        assert box is not None and box.current_game_id != game_id
