"""Tables on their own machines reach the director through a real broker: a round
confirmed at a table is in the director's standings, exactly, with nothing counted twice."""

from __future__ import annotations

from .conftest import Cluster, eventually


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
