"""Issue 26, finding 3: a signed deal keyed by "²" threw the director's whole batch away
(149 messages, 149 tracebacks). Now a bad message is refused alone: the good ones of the
same batch are taken, and the log says so in a few lines, not one per message."""

from __future__ import annotations

import logging

import pytest

from championship.broker.link import Inbound
from championship.core import messages as wire
from companion.store.wallclock import wall_clock_us
from tests.championship.tables.conftest import Cluster

POISON = 149
GOOD = 20


def test_poison_messages_are_refused_alone(amqtt_cluster: Cluster,
                                           caplog: pytest.LogCaptureFixture) -> None:
    c = amqtt_cluster
    director = c.director
    assert director is not None
    director.link.close()  # fed by hand, as the broker would hand it over
    secret = c.table_creds[1].secret
    topic = wire.up_topic(c.event_id, 1)
    with c.tables_seating() as seats:
        a, b = seats[1][:2]
    source = "ef" * 8

    def body(seq: int, points: dict[str, int]) -> dict[str, object]:
        return {"v": 1, "table": 1, "source": source, "seq": seq, "stage": "flight-1",
                "kind": "deal", "deal": f"g9:{seq}", "rev": 1, "points": points}

    batch: list[Inbound] = []
    for i in range(POISON + GOOD):
        if i < GOOD:
            points = {str(a): 10 + i, str(b): 0}
        else:
            points = {"\u00b2": 5, str(b): 0} if i % 3 else {str(a): 1, "\u0661": 0}
        batch.append(Inbound(topic, wire.sign(body(i + 1, points), secret)))
    batch = batch[GOOD:GOOD + 70] + batch[:GOOD] + batch[GOOD + 70:]  # the good in between
    # the table announces its games file, as its heartbeats do: only then are its deals
    # plausible (a file never announced is held for the director). The fixture's agent
    # holds the table, so this file's agent takes it over (a heartbeat naming no agent
    # announces no file while an agent holds the table).
    beat = wire.Up(1, source, 0, wire.Heartbeat(at_us=wall_clock_us(), waiting=0,
                                                agent="ab" * 8, host="test", take_over=True))
    batch.insert(0, Inbound(topic, wire.encode_up(beat, secret)))
    with caplog.at_level(logging.WARNING, logger="uno-showdown.director"):
        assert director.ingest(batch) == GOOD + 1  # the good deals and the heartbeat
    assert sum(ln.games for ln in c.director_lines()) == 2 * GOOD
    lines = [r for r in caplog.records if r.name == "uno-showdown.director"]
    assert len(lines) <= 5, [r.getMessage() for r in lines]  # not one per message
    assert len(director.rejected) == 100  # each one refused (the newest hundred kept)
    assert not any(r.exc_info for r in caplog.records)
