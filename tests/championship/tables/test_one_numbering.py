"""One numbering: a table's games are named alike by the director, the page, the table's
screen and `game ...` at the table (the table's file numbers the games the director seats
there as the director does), and `game round` without `--game` at a championship's table
goes to the stage in progress, not to the next stage's game seated already."""

from __future__ import annotations

from pathlib import Path

from championship.desk.operations import Championship
from championship.store.table_file import TableFile
from companion.store.games import Store
from tests.championship.tables.conftest import build, eventually
from tests.championship.tables.serving import uno


def test_a_tables_games_have_the_directors_numbers_and_round_goes_to_the_stage_in_play(
        tmp_path: Path) -> None:
    cluster = build(tmp_path, "amqtt", players=21, tables=2)  # two flights at two tables
    try:
        cluster.start_director()
        table = cluster.start_table(2)
        with Championship.open(cluster.director_db, cluster.event_id) as champ:
            snap = champ.snapshot()
            director = {t.stage: t.game_id for t in snap.tables if t.table == 2}
        assert set(director) == {"flight-1", "flight-2"}

        def seated() -> bool:
            with Store(table.db) as store:
                file = TableFile(store, cluster.event_id, 2)
                return all(file.current_game(s) is not None for s in director)

        eventually(seated, 30, "both flights seated at table 2")
        with Store(table.db) as store:
            file = TableFile(store, cluster.event_id, 2)
            assert {s: file.current_game(s) for s in director} == director
            names = list(store.games.load(director["flight-1"]).names)
        # The director calls it game N; so does `game list` at the table.
        listed = uno("game", "list", "--db", table.db, "--lang", "en").stdout
        assert f"{director['flight-1']} " in listed and f"{director['flight-2']} " in listed

        hands = [a for n in names[1:] for a in ("--points", f"{n}: 7")]
        done = uno("game", "round", "--db", table.db, "--winner", names[0], *hands,
                   "--lang", "en")
        assert done.returncode == 0, done.stderr
        with Store(table.db) as store:
            assert len(store.games.load(director["flight-1"]).history()) == 1
            assert not store.games.load(director["flight-2"]).history()
    finally:
        cluster.close()
