"""Tables are authenticated: no anonymous client and no wrong password gets into the broker,
a table cannot write another table's topic or the director's, and the director ignores (and
logs) a message not signed with the credentials of the table whose topic it came on, about
another table, for a player not seated there, or malformed. Nothing anyone sends crashes
the director or a table."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from championship.broker.link import Inbound
from championship.broker.signing import DirectorSigner, DirectorVerifier
from championship.core import messages as wire
from championship.core.access import new_signing_key
from championship.desk.table_agent import TableAgent
from companion.store.wallclock import wall_clock_us
from tests.championship.tables.conftest import Cluster, eventually

S = 1_000_000


def _probe_id(cluster: Cluster, username: str | None) -> str:
    """The client id a holder of `username`'s credentials would use (beside its agent)."""
    for creds in cluster.table_creds.values():
        if creds.username == username:
            return creds.client_id + "-probe"
    return f"probe-{username}"


def _connect(cluster: Cluster, username: str | None, password: str | None) -> str:
    result: dict[str, str] = {}
    done = threading.Event()
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=_probe_id(cluster, username),
                         protocol=mqtt.MQTTv311)
    if username is not None:
        client.username_pw_set(username, password)

    def on_connect(_c: object, _u: object, _f: object, reason: mqtt.ReasonCode,
                   _p: object) -> None:
        result["reason"] = str(reason)
        done.set()

    client.on_connect = on_connect
    client.connect("127.0.0.1", cluster.port)
    client.loop_start()
    try:
        assert done.wait(15), "the broker never answered"
    finally:
        client.loop_stop()
        client.disconnect()
    return result["reason"]


def test_no_anonymous_client_and_no_wrong_password(cluster: Cluster) -> None:
    assert _connect(cluster, None, None) == "Not authorized"
    assert _connect(cluster, cluster.table_creds[1].username, "guess") == "Not authorized"
    assert _connect(cluster, "someone", "else") == "Not authorized"
    assert _connect(cluster, cluster.table_creds[1].username,
                    cluster.table_creds[1].secret) == "Success"


def test_a_table_cannot_write_another_tables_topic_or_the_directors(cluster: Cluster) -> None:
    director = cluster.start_director()
    cluster.start_table(2)
    cluster.seated(2)
    me = cluster.table_creds[1]
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=me.client_id + "-intruder",
                         protocol=mqtt.MQTTv311)
    client.username_pw_set(me.username, me.secret)
    client.connect("127.0.0.1", cluster.port)
    client.loop_start()
    try:
        forged = wire.encode_up(wire.Up(2, "ab" * 8, 1, wire.DealReport(
            "flight-1", "g1:1", 1, {1: 999})), cluster.table_creds[2].secret)
        client.publish(wire.up_topic(cluster.event_id, 2), forged, qos=1).wait_for_publish(10)
        client.publish(wire.down_topic(cluster.event_id, 2), b"{}", qos=1,
                       retain=True).wait_for_publish(10)
        cluster.deal(2)  # something real after the forgeries, to know they had their chance
        cluster.wait_converged()
        assert director.taken >= 1 and all(ln.points != 999 for ln in cluster.director_lines())
        agent = cluster.tables[2].agent
        assert agent is not None and agent.ignored == 0  # the fake seating never arrived
    finally:
        client.loop_stop()
        client.disconnect()


def _up(cluster: Cluster, table: int, report: wire.Report, secret_of: int, seq: int = 1,
        claimed: int | None = None) -> Inbound:
    payload = wire.encode_up(wire.Up(claimed or table, "cd" * 8, seq, report),
                             cluster.table_creds[secret_of].secret)
    return Inbound(wire.up_topic(cluster.event_id, table), payload)


def test_the_director_ignores_and_logs_what_is_not_the_tables(cluster: Cluster) -> None:
    director = cluster.start_director()
    director.link.close()  # fed by hand below, as if some broker had let it all through
    with cluster.tables_seating() as seats:
        at1 = seats[1]
        stranger = seats[2][0]
    deal = wire.DealReport("flight-1", "g1:1", 1, {at1[0]: 10, at1[1]: 0})
    bad = [
        _up(cluster, 1, deal, secret_of=2),  # signed with another table's secret
        _up(cluster, 1, deal, secret_of=1, claimed=2),  # about another table
        _up(cluster, 1, wire.DealReport("flight-1", "g1:2", 1, {stranger: 5, at1[0]: 0}),
            secret_of=1),  # a player not seated there
        _up(cluster, 1, wire.DealReport("flight-2", "g1:3", 1, {at1[0]: 5}), secret_of=1,
            seq=2),
        Inbound(wire.up_topic(cluster.event_id, 1), b"\xff not json"),
        Inbound(wire.up_topic(cluster.event_id, 1), json.dumps({"v": 1, "table": 1}).encode()),
        Inbound(wire.up_topic(cluster.event_id, 7), b"{}"),
        Inbound("somewhere/else", b"{}"),
    ]
    assert director.ingest(bad) == 2  # authentic, and refused by the championship's rules
    logged = "\n".join(director.rejected)
    for words in ("does not match the table's credentials", "about table 2 on table 1's topic",
                  f"player {stranger} is not seated there", "does not play in it",
                  "not JSON", "is not signed", "has no table 7",
                  "not a table's topic"):
        assert words in logged
    assert all(ln.games == 0 for ln in cluster.director_lines())
    assert director.ingest([_up(cluster, 1, deal, secret_of=1, seq=3)]) == 1
    assert sum(ln.games for ln in cluster.director_lines()) == 0, (
        "a deal from a games file the table never announced is held")
    beat = wire.Heartbeat(wall_clock_us(), 0)
    assert director.ingest([_up(cluster, 1, beat, secret_of=1, seq=0)]) == 1
    assert sum(ln.games for ln in cluster.director_lines()) == 2


PAYLOADS = st.one_of(
    st.binary(max_size=300),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
                 lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
                     st.sampled_from(["v", "table", "seq", "kind", "stage", "deal", "rev",
                                      "points", "source", "mac", "late", "stages", "players",
                                      "box", "event", "target", "edition"]) | st.text(max_size=5),
                     inner, max_size=8), max_leaves=20).map(
        lambda v: json.dumps(v).encode()),
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(payload=PAYLOADS, topic=st.sampled_from(["up1", "up2", "down", "ack", "standings"]))
@example(payload=b'{"mac": "\\u0080"}', topic="up1")  # once a TypeError in compare_digest
def test_random_payloads_never_crash_either_side(amqtt_cluster: Cluster, payload: bytes,
                                                 topic: str) -> None:
    c = amqtt_cluster
    director, table = c.director, c.tables[1].agent
    assert director is not None and table is not None
    if topic.startswith("up"):
        director.ingest([Inbound(wire.up_topic(c.event_id, int(topic[2])), payload)])
    else:
        target = {"down": wire.down_topic, "ack": wire.ack_topic}.get(topic)
        table._handle(target(c.event_id, 1) if target else wire.standings_topic(c.event_id),
                      payload)
    assert all(ln.games == 0 for ln in c.director_lines())


@pytest.mark.parametrize("mac", ["\u0080", "é" * 64, "\ud800", "", "0" * 64])
def test_a_forged_signature_of_any_characters_is_refused_not_raised(mac: str) -> None:
    """A signature is compared as bytes: hmac.compare_digest refuses a str with non-ASCII
    characters, and a forged message may carry any (a lone surrogate too, from JSON)."""
    body = json.dumps({"v": wire.VERSION, "mac": mac}).encode()
    with pytest.raises(wire.WireError, match="signature does not match"):
        wire.opened(body, "secret")


def test_after_the_noise_both_sides_still_work(amqtt_cluster: Cluster) -> None:
    amqtt_cluster.deal(1)
    amqtt_cluster.wait_converged()
    eventually(lambda: amqtt_cluster.director is not None
               and amqtt_cluster.director.taken > 0, 10)


@pytest.mark.parametrize("sig", ["\u0080", "é" * 64, "\ud800", "", "A" * 86, 5, None])
def test_a_forged_director_signature_of_any_kind_is_refused_not_raised(sig: object) -> None:
    body = {"v": wire.VERSION, "kind": "stop", "table": 1, "sig": sig}
    verifier = DirectorVerifier(DirectorSigner(new_signing_key()).public)
    with pytest.raises(wire.WireError, match="director"):
        wire.decode_stop(json.dumps(body).encode(), verifier, 1)


def test_a_table_takes_the_directors_word_only_under_the_directors_key(
        amqtt_cluster: Cluster) -> None:
    """Whoever holds table 1's credentials file has its secret. Signed with it (the HMAC
    the director used to sign with), or with a key of the forger's own, an acknowledgement
    that would empty the table's outbox, a stop that would end its agent, a time reply that
    would move its clocks and a seating that would reseat it are all refused; the same
    messages under the director's key are taken."""
    c = amqtt_cluster
    c.stop_table(1)
    c.stop_director()
    c.deal(1)
    agent = TableAgent(c.tables[1].db, c.address, c.table_creds[1], 1)  # driven by hand
    try:
        agent.scan()
        waiting = agent.file.pending()
        assert waiting >= 1
        assert c.director_creds.signing_key is not None
        director = DirectorSigner(c.director_creds.signing_key)
        ack, down = wire.ack_topic(c.event_id, 1), wire.down_topic(c.event_id, 1)
        stages = agent.file.stages()

        def said(key: wire.Signer) -> list[tuple[str, bytes]]:
            moved = wire.Seating(1, "Forged Cup", "classic", 50, ())
            return [(ack, wire.encode_ack(1, agent.file.source, 10**6, key)),
                    (ack, wire.encode_stop(1, wire.Stop(agent.token, wire.STOP_TAKEN,
                                                         "f" * 16, "forger", 0), key)),
                    (ack, wire.encode_time(1, wall_clock_us(), wall_clock_us() + 3600 * S,
                                           key)),
                    (down, wire.encode_seating(moved, key))]

        def under_table_secret(payload: bytes) -> bytes:
            body = json.loads(payload)
            body.pop("sig")
            return wire.sign(body, c.table_creds[1].secret)

        forged = [(t, under_table_secret(p)) for t, p in said(director)]
        forged += said(DirectorSigner(new_signing_key()))  # the forger's own key
        for topic, payload in forged:
            agent._handle(topic, payload)
        assert agent.ignored == len(forged)
        assert agent.file.pending() == waiting  # nothing dropped from the outbox
        assert agent.stopped is None and agent.offset_us == 0
        assert agent.file.stages() == stages and not agent.seated.is_set()

        for topic, payload in said(director)[:3]:  # the director's own: taken
            agent._handle(topic, payload)
        assert agent.ignored == len(forged)
        assert agent.file.pending() == 0 and agent.stopped is not None
        assert agent.offset_us != 0
    finally:
        agent.stop()
