"""Tables on their own machines reach the director through a real broker: a round
confirmed at a table is in the director's standings, exactly, with nothing counted twice."""

from __future__ import annotations

import itertools
import json
import time

from championship.desk.table_agent import STANDINGS_WRITE_S
from championship.store.table_file import TableFile
from companion.store.games import Store
from tests.championship.tables.conftest import Cluster, eventually


def test_rounds_at_two_tables_reach_the_director(cluster: Cluster) -> None:
    cluster.start_director()
    for n in (1, 2):
        cluster.start_table(n)
        cluster.seated(n)
    for _ in range(3):
        cluster.deal(1)
        cluster.deal(2)
    cluster.wait_converged()
    lines = cluster.director_lines()
    assert sum(ln.games for ln in lines) == 3 * 14
    for n in (1, 2):
        agent = cluster.tables[n].agent
        assert agent is not None
        eventually(lambda a=agent: a.file.pending() == 0, 10, "the outbox drained")


def test_a_table_keeps_the_newest_standings_but_not_one_write_per_deal(cluster: Cluster) -> None:
    """With fifty tables the standings change several times a second; a table's Pi writes
    the newest of them at most once every `STANDINGS_WRITE_S`, and the last one is kept."""
    cluster.start_director()
    for n in (1, 2):
        cluster.start_table(n)
        cluster.seated(n)
    watcher = cluster.tables[1].agent
    assert watcher is not None
    written: list[float] = []  # when the agent wrote, on its own clock
    write_standings = watcher.write_standings

    def noting(*, force: bool = False) -> None:
        before = watcher._standings_written
        write_standings(force=force)
        if watcher._standings_written != before:
            written.append(watcher._standings_written)

    watcher.write_standings = noting  # type: ignore[method-assign]
    for _ in range(12):
        cluster.deal(2)
    cluster.wait_converged()

    def at_table_2(text: str | bytes | None) -> int:
        return sum(v for k, v in json.loads(text or "{}").get("deals", {}).items()
                   if k.endswith("/2"))

    def in_file() -> int:
        with Store(cluster.tables[1].db) as store:
            return at_table_2(TableFile(store, cluster.event_id, 1).meta("standings"))

    eventually(lambda: in_file() == 12, 10, "table 1 holds the newest standings")
    gaps = [b - a for a, b in itertools.pairwise(written)]
    assert written and all(gap >= STANDINGS_WRITE_S for gap in gaps), gaps
    assert len(written) < 12

    # The last standings arrive while the next write is not due: the table keeps them when
    # it stops.
    watcher._standings_written = time.monotonic() + 60
    cluster.deal(2)

    def heard() -> bool:
        waiting = watcher._standings
        return waiting is not None and at_table_2(waiting) == 13

    eventually(heard, 10, "the last standings reached table 1")
    assert in_file() == 12
    cluster.stop_table(1)
    assert in_file() == 13


def test_a_table_that_came_before_the_director_has_its_first_deal_counted_at_once(
        cluster: Cluster) -> None:
    """A table connected before the director listened: its heartbeat, which names its games
    file, went to nobody, and the next is seconds away. Its first deals were held as from a
    file it never announced until then (about a second late on the page in the benchmark).
    Once seated, it names its file at once."""
    table = cluster.start_table(1)
    agent = table.agent
    assert agent is not None
    eventually(lambda: agent.link.connected.is_set() and agent._beaten > 0, 20,
               "table 1 connected and its first heartbeat sent")
    cluster.start_director()
    cluster.seated(1)
    cluster.deal(1)

    def held() -> list[object]:
        with Store(cluster.director_db) as store, store.reading() as conn:
            return [r[0] for r in conn.execute(
                "SELECT held FROM championship_remote_deals WHERE table_no = 1")]

    eventually(lambda: held(), 20, "table 1's deal at the director")
    assert held() == [None]
