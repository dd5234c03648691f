"""Faults on loopback, each bounded in time: the broker restarted mid-flight, a table offline
for 20 deals, a table killed between its commit and its publish, duplicated and reordered
deliveries, a correction arriving before the original. After each, the director's standings
equal those worked out from the tables' own files, exactly."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import paho.mqtt.client as mqtt

from championship.core import messages as wire
from championship.desk.operations import Championship
from championship.store.table_file import TableFile
from companion.store.games import Store
from companion.store.wallclock import wall_clock_us
from tests.championship.tables.conftest import Cluster, Table, eventually

ROOT = Path(__file__).resolve().parents[3]


def _start(cluster: Cluster, *tables: int) -> None:
    cluster.start_director()
    for n in tables:
        cluster.start_table(n)
        cluster.seated(n)


def test_the_broker_restarted_mid_flight(cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    for _ in range(3):
        cluster.deal(1)
        cluster.deal(2)
    cluster.wait_converged()
    cluster.broker.stop()
    for _ in range(4):  # the tables play on without the broker
        cluster.deal(1)
        cluster.deal(2)
    cluster.broker.start()
    cluster.deal(2)
    cluster.wait_converged(40)
    assert sum(ln.games for ln in cluster.director_lines()) == 15 * 7


def test_a_table_offline_for_20_deals_then_back(cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    cluster.deal(1)
    cluster.wait_converged()
    cluster.stop_table(1)
    for _ in range(20):
        cluster.deal(1)
    cluster.deal(2)
    cluster.start_table(1)
    cluster.wait_converged(40)
    games = {ln.number: ln.games for ln in cluster.director_lines()}
    assert sorted(set(games.values())) == [1, 21]


def _killed(cluster: Cluster, n: int, mode: str, seed: int) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tests.championship.tables.killed_table", cluster.tables[n].db,
         "flight-1",
         mode, str(cluster.event_id), str(n), str(seed)], cwd=ROOT, timeout=60,
        capture_output=True)
    assert proc.returncode == -9, proc.stderr.decode()


def test_a_table_killed_between_its_commit_and_its_publish(cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    cluster.deal(1)
    cluster.wait_converged()
    cluster.stop_table(1)
    _killed(cluster, 1, "after-commit", 1)  # committed, never queued
    _killed(cluster, 1, "after-queue", 2)  # queued, never sent
    with Store(cluster.tables[1].db) as store:
        assert TableFile(store, cluster.event_id, 1).pending() > 0
    cluster.start_table(1)
    cluster.wait_converged(40)
    assert max(ln.games for ln in cluster.director_lines()) == 3


def _raw_table(cluster: Cluster, n: int) -> mqtt.Client:
    creds = cluster.table_creds[n]
    client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=creds.client_id + "-raw",
                         protocol=mqtt.MQTTv311)
    client.username_pw_set(creds.username, creds.secret)
    client.connect("127.0.0.1", cluster.port)
    client.loop_start()
    return client


def _queued(cluster: Cluster, n: int) -> list[bytes]:
    with Store(cluster.tables[n].db) as store:
        file = TableFile(store, cluster.event_id, n)
        file.scan()
        return [file.payload(q, cluster.table_creds[n].secret) for q in file.outbox()]


def test_duplicated_and_reordered_deliveries(cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    cluster.stop_table(1)  # table 1's messages go by hand: shuffled and twice over
    for _ in range(8):
        cluster.deal(1)
    with cluster.tables[1].app() as app:
        app.undo()
    payloads = _queued(cluster, 1)
    rng = random.Random(5)
    shuffled = payloads * 2
    rng.shuffle(shuffled)
    client = _raw_table(cluster, 1)
    try:
        for p in shuffled:
            client.publish(wire.up_topic(cluster.event_id, 1), p, qos=1).wait_for_publish(10)
        cluster.wait_converged(40)
        assert max(ln.games for ln in cluster.director_lines()) == 7
    finally:
        client.loop_stop()
        client.disconnect()


def test_a_corrected_round_arriving_before_the_original(cluster: Cluster) -> None:
    _start(cluster)
    cluster.start_table(1)
    cluster.seated(1)
    cluster.stop_table(1)
    cluster.deal(1)
    original = _queued(cluster, 1)
    with cluster.tables[1].app() as app:
        game = app.game
        assert game is not None
        names = list(game.names)
        app.edit_round(1, names[0], points={n: 99 for n in names[1:]})
    correction = [p for p in _queued(cluster, 1) if p not in original]
    assert correction
    client = _raw_table(cluster, 1)
    try:
        for p in correction + original:
            client.publish(wire.up_topic(cluster.event_id, 1), p, qos=1).wait_for_publish(10)
        eventually(lambda: cluster.converged() and any(
            ln.points == 99 for ln in cluster.director_lines()), 30, "the correction counts")
    finally:
        client.loop_stop()
        client.disconnect()


def _games_by_player(cluster: Cluster) -> dict[int, int]:
    return {ln.number: ln.games for ln in cluster.director_lines()}


def test_a_deal_from_a_replacement_file_counts_beside_the_first_files(cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    cluster.deal(1)
    cluster.deal(1)
    cluster.wait_converged()
    cluster.stop_table(1)
    # Table 1's machine is swapped mid-flight: a fresh games file numbers its games afresh.
    cluster.tables[1] = Table(1, str(cluster.tmp / "table1-replacement.db"),
                              cluster.table_creds[1])
    cluster.start_table(1)
    cluster.seated(1)
    for _ in range(3):
        cluster.deal(1)
    with cluster.tables_seating() as seating:
        at_one = seating[1]
    eventually(lambda: all(_games_by_player(cluster)[n] == 5 for n in at_one), 30,
               "both files' deals counted")
    with Store(cluster.tables[1].db) as store:
        eventually(lambda: TableFile(store, cluster.event_id, 1).pending() == 0, 20,
                   "the new file's outbox emptied")


def test_a_deal_after_the_final_is_seated_is_refused_and_the_table_told(
        cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    cluster.deal(1)
    cluster.deal(2)
    cluster.wait_converged()
    cluster.stop_table(1)  # table 1 does not hear that time was called
    with Championship.open(cluster.director_db, cluster.event_id) as champ:
        champ.end()
        champ.done(1)
        champ.done(2)
        champ.seat_final()
        before = champ.snapshot().qualifying
    cluster.deal(1)  # recorded at the table, which still thinks the flight runs
    cluster.start_table(1)
    with Store(cluster.tables[1].db) as store:
        file = TableFile(store, cluster.event_id, 1)
        eventually(lambda: file.pending() == 0 and file.refused(), 30,
                   "the deal acknowledged and its refusal told")
        assert "were already taken" in file.refused()[0]
    assert cluster.director_lines() == before
    assert cluster.director is not None
    assert any("were taken and are closed" in r for r in cluster.director.rejected)


def test_after_time_is_called_only_the_deal_in_progress_counts(cluster: Cluster) -> None:
    _start(cluster, 1, 2)
    cluster.deal(2)
    cluster.wait_converged()
    cluster.stop_table(1)  # offline: its deals arrive after time was called
    now = wall_clock_us()  # the rounds' times are kept to the second: deals 2 s apart
    cluster.deal(1, at_us=now - 2_000_000)  # played in time
    with Championship.open(cluster.director_db, cluster.event_id, clock=lambda: now) as champ:
        champ.end()
    cluster.deal(1, at_us=now + 2_000_000)  # the deal in progress when time was called
    cluster.deal(1, at_us=now + 4_000_000)  # one more: it does not count
    cluster.start_table(1)
    with Store(cluster.tables[1].db) as store:
        file = TableFile(store, cluster.event_id, 1)
        eventually(lambda: file.pending() == 0 and file.refused(), 30,
                   "the third deal refused and the table told")
        assert "after the time was up" in file.refused()[0]
    with cluster.tables_seating() as seating:
        assert {_games_by_player(cluster)[n] for n in seating[1]} == {2}
