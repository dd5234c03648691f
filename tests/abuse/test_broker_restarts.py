"""Issue 26, finding 4: amqtt's broadcast task failed ("dictionary changed size during
iteration") in 6 of 25 starts with tables reconnecting and 6 of 82 restarts, and a message
it had acknowledged was lost; the deals came back by the tables' resend, but the director's
one-off seating and clock messages did not.

The broker is restarted again and again while the tables reconnect, with deals recorded
and the clock paused and resumed in between; afterwards every deal is on the director's
standings and every table holds the director's clock. On both brokers."""

from __future__ import annotations

import pytest

from championship.desk.operations import Championship
from championship.store.table_file import TableFile
from companion.store.games import Store
from tests.championship.tables.conftest import Cluster, eventually

RESTARTS = 6


def _director_states(c: Cluster) -> dict[int, str]:
    with Championship.open(c.director_db, c.event_id) as champ:
        return {t.table: t.box.state.value for t in champ.snapshot().stage_tables("flight-1")}


def _table_state(c: Cluster, n: int) -> str | None:
    with Store(c.tables[n].db) as store:
        stages = TableFile(store, c.event_id, n).stages()
        if "flight-1" not in stages:
            return None
        return store.boxes.load(stages["flight-1"][0]).box.state.value


@pytest.mark.slow
def test_no_message_is_lost_while_the_broker_restarts(cluster: Cluster) -> None:
    c = cluster
    director = c.start_director()
    for n in (1, 2):
        c.start_table(n)
        c.seated(n)
    deals = 0
    for restart in range(RESTARTS):
        c.broker.stop()
        for n in (1, 2):
            c.deal(n)
            deals += 1
        with Championship.open(c.director_db, c.event_id) as champ:
            champ.pause() if restart % 2 == 0 else champ.resume()
        agent = c.tables[1].agent
        assert agent is not None
        before = agent.link.connections
        c.broker.start()  # the tables reconnect, while the director sends
        c.deal(1)
        deals += 1
        # the next restart comes as soon as one table is back, the others still on the way
        eventually(lambda a=agent, b=before: a.link.connections > b,  # type: ignore[misc]
                   30, "table 1 reconnects")
    c.wait_converged(60)
    with c.tables_seating() as seats:
        seated = sum(len(seats[n]) for n in (1, 2))
    assert sum(ln.games for ln in c.director_lines()) == deals * seated // 2
    wanted = _director_states(c)
    assert set(wanted.values()) == {"paused" if RESTARTS % 2 else "open"}  # the last change
    for n in (1, 2):
        eventually(lambda n=n: _table_state(c, n) == wanted[n], 30,  # type: ignore[misc]
                   f"table {n} holds the director's clock")
    assert director.link.connections >= 2 and director.link.lost >= 1


def test_the_director_sends_a_seating_again_until_the_table_holds_it(
        amqtt_cluster: Cluster) -> None:
    """Table 1 holds its seating and said so: it is not sent again. Table 2 is not there:
    its seating goes again every few seconds, until table 2 joins and says it holds it."""
    c = amqtt_cluster
    director = c.director
    assert director is not None
    eventually(lambda: director.resent >= 2, 20, "table 2's seating sent again")
    assert 1 in director._seen and 2 not in director._seen
    c.start_table(2)
    c.seated(2)
    eventually(lambda: 2 in director._seen, 20, "table 2 says it holds its seating")
    with Championship.open(c.director_db, c.event_id) as champ:
        champ.pause()  # a new seating (the clock in it) for both tables
    eventually(lambda: all(_table_state(c, n) == "paused" for n in (1, 2)), 20)
    eventually(lambda: director._seen.get(1) == director._seatings[1][2]
               and director._seen.get(2) == director._seatings[2][2], 20)
    sent = director.resent
    director._resent_at.clear()  # as if every table's wait were over
    director.resend_unseen()
    assert director.resent == sent  # both hold the newest: nothing goes again
