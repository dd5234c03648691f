"""A burst: many tables back at once with the deals they recorded offline. Every deal lands
once, and what the director sends back is paid per round, not per message: a broker that
passes the burst on a few messages at a time (amqtt) must not cost the tables one
acknowledgement per message, nor the director one page state per handful of deals."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path

import pytest

from championship.broker.link import Inbound
from championship.broker.signing import DirectorSigner, DirectorVerifier
from championship.core import messages as wire
from championship.desk import director as director_mod
from championship.desk import table_agent
from championship.desk.director import (
    ACK_EVERY_S,
    STANDINGS_BYTES_PER_S,
    STANDINGS_EVERY_S,
    DirectorSync,
    standings_gap,
    state_gap,
)
from championship.desk.table_agent import TableAgent
from companion.store.wallclock import wall_clock_us
from tests.championship.tables.conftest import BROKERS, Cluster, build, eventually

TABLES = 3
DEALS = 10
SOURCE = "cd" * 8


@pytest.fixture(params=BROKERS)
def burst_cluster(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Cluster]:
    c = build(tmp_path, request.param, players=7 * TABLES, tables=TABLES)
    try:
        yield c
    finally:
        c.close()


def test_tables_back_at_once_land_every_deal_once(burst_cluster: Cluster) -> None:
    c = burst_cluster
    director = c.start_director()
    rounds: list[tuple[float, int]] = []  # when each round of acknowledgements went, and how many
    send_acks = director.send_acks

    def noting() -> None:
        # when the round begins, as the director's own gap counts it: the time it takes to
        # publish a round must not shorten the gap measured to the next
        at, before = director_mod.time.monotonic(), director.acks_sent
        send_acks()
        rounds.append((at, director.acks_sent - before))

    director.send_acks = noting  # type: ignore[method-assign]
    tables = range(1, TABLES + 1)
    for n in tables:
        c.start_table(n)
    for n in tables:
        c.seated(n)
    for n in tables:  # the bar's network goes down
        c.stop_table(n)
    for n in tables:
        for _ in range(DEALS):
            c.deal(n)
    for n in tables:  # and comes back: all at once
        c.start_table(n)
    c.wait_converged(60)  # every player's points and games as the tables' files add them up
    assert sum(ln.games for ln in c.director_lines()) == TABLES * DEALS * 7
    for n in tables:
        agent = c.tables[n].agent
        assert agent is not None
        eventually(lambda a=agent: a.file.pending() == 0, 20, f"table {n}'s outbox drained")
    assert all(0 < sent <= TABLES for _at, sent in rounds), "one per table and file a round"
    assert all(b[0] - a[0] >= ACK_EVERY_S * 0.99 for a, b in pairwise(rounds))


def _up(c: Cluster, table: int, report: wire.Report, seq: int) -> Inbound:
    return Inbound(wire.up_topic(c.event_id, table), wire.encode_up(
        wire.Up(table, SOURCE, seq, report), c.table_creds[table].secret))


def test_deals_passed_on_one_at_a_time_are_acknowledged_once_per_table(tmp_path: Path) -> None:
    """amqtt hands a burst over a few messages at a time: thirty batches of one deal from
    three tables are three acknowledgements, each saying all ten of its table's deals are
    on the director's disk, and they go only once the deals are committed."""
    c = build(tmp_path, "amqtt", players=7 * TABLES, tables=TABLES)
    director = DirectorSync(c.director_db, c.event_id, c.address, c.director_creds,
                            c.table_creds)  # not started: fed by hand, one message a batch
    published: list[tuple[str, bytes]] = []
    director.link.publish = (  # type: ignore[method-assign]
        lambda topic, payload, *, retain=False: published.append((topic, payload)))
    try:
        with c.tables_seating() as seats:
            seated = {n: seats[n] for n in range(1, TABLES + 1)}
        now = wall_clock_us()
        for n in seated:  # each table announces its games file
            assert director.ingest([_up(c, n, wire.Heartbeat(now, DEALS), 0)]) == 1
        for k in range(1, DEALS + 1):
            for n, players in seated.items():
                points = {p: (0 if i == 0 else 3 * i + k) for i, p in enumerate(players)}
                deal = wire.DealReport("flight-1", f"g1:{k}", 1, points, now)
                assert director.ingest([_up(c, n, deal, k)]) == 1
        acks = [(t, p) for t, p in published if t.endswith("/ack") and not wire.is_time(p)]
        assert acks == [], "nothing acknowledged per message"
        assert sum(ln.games for ln in c.director_lines()) == TABLES * DEALS * 7
        director.send_acks()
        acks = [(t, p) for t, p in published if t.endswith("/ack") and not wire.is_time(p)]
        assert sorted(t for t, _p in acks) == sorted(
            wire.ack_topic(c.event_id, n) for n in seated)
        for topic, payload in acks:
            n = int(topic.split("/")[-2])
            key = c.table_creds[n].director_key
            assert key is not None
            ack = wire.decode_ack(payload, DirectorVerifier(key), n)
            assert (ack.source, ack.seq) == (SOURCE, DEALS)
        director.send_acks()  # nothing new taken: nothing sent again
        assert director.acks_sent == TABLES
    finally:
        director.stop()
        c.close()


def test_the_page_and_the_tables_are_told_less_often_while_deals_keep_coming() -> None:
    assert state_gap(10.0) == director_mod.STATE_EVERY_S  # the first deal after a quiet spell
    assert state_gap(0.01) == director_mod.STATE_BUSY_S > director_mod.STATE_EVERY_S
    assert standings_gap(2_000, 10) == STANDINGS_EVERY_S  # small standings: once a second
    fifty = standings_gap(50_000, 50)  # fifty tables of seven: some 50 kB each
    assert fifty * STANDINGS_BYTES_PER_S >= 50_000 * 50 and fifty > STANDINGS_EVERY_S


def test_a_table_sends_again_only_what_is_through_the_broker_unanswered(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Fifty tables' deals queue in a slow broker for seconds: a table whose deals are still
    in that queue must not send them all again (that doubled a burst). The broker passes a
    table's messages on in order, so once the director answers a heartbeat sent after them
    they are through it, and only then does their lack of an acknowledgement mean a loss."""
    monkeypatch.setattr(table_agent, "RESEND_S", 0.0)  # no grace: the rule alone decides
    c = build(tmp_path, "amqtt")
    try:
        c.start_director()
        c.start_table(1)
        c.seated(1)
        c.stop_table(1)
        c.stop_director()  # nothing is acknowledged from here on
        agent = TableAgent(c.tables[1].db, c.address, c.table_creds[1], 1)  # driven by hand
        sent: list[bytes] = []
        agent.link.publish = (  # type: ignore[method-assign]
            lambda topic, payload, *, retain=False: sent.append(payload))
        agent.link.connected.set()
        try:
            before_us = wall_clock_us()  # a heartbeat sent before the deals
            for _ in range(3):
                c.deal(1)
            agent.scan()
            agent.flush()
            first = len(sent)  # the deals, and the table's status notes beside them
            assert first >= 3
            agent.flush()  # no acknowledgement, but nothing says they are through the broker
            assert c.director_creds.signing_key is not None
            director = DirectorSigner(c.director_creds.signing_key)
            agent._handle(wire.ack_topic(c.event_id, 1),
                          wire.encode_time(1, before_us, wall_clock_us(), director))
            agent.flush()  # that heartbeat went before them: they may still be queued
            assert len(sent) == first, "deals still queued in the broker were sent again"
            agent._handle(wire.ack_topic(c.event_id, 1),
                          wire.encode_time(1, wall_clock_us(), wall_clock_us(), director))
            agent.flush()  # a heartbeat sent after them was answered: they were lost
            assert sent[first:] == sent[:first]
        finally:
            agent.stop()
    finally:
        c.close()
