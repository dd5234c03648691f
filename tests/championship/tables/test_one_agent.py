"""One agent per table on either broker: a second `table join` of a table is refused in one
line that says who holds the table, since when and from where (and how to take it over, a
command that runs as printed); a take-over stops the old agent within 5 s, saying it was
taken over and by whom, and the two never throw each other off the broker. On mosquitto,
which lets the newer of two connections with one client id win, the two agents used to
reconnect in turn every two seconds, for ever."""

from __future__ import annotations

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from championship.broker.credentials import write_credentials
from championship.broker.link import Inbound
from championship.core import messages as wire
from championship.core.snapshot import TableStatus
from championship.desk.director import DirectorSync
from championship.desk.operations import Championship
from championship.desk.table_agent import TableAgent
from championship.store.table_file import TableFile
from companion.store.games import Store
from companion.store.wallclock import wall_clock_us
from companion.table.timebox import Phase, TimeBox
from tests.championship.tables.conftest import Cluster, Table, eventually
from tests.championship.tables.serving import ROOT, uno

S = 1_000_000


class Join:
    """`uno-showdown table join` as a process, its lines read as they come."""

    def __init__(self, argv: list[str], cwd: Path = ROOT) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "uno_showdown.commands.cli", *argv], cwd=cwd,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"})
        self.out: list[str] = []
        self.err: list[str] = []
        self._readers = [threading.Thread(target=self._read, args=(s, into), daemon=True)
                         for s, into in ((self.proc.stdout, self.out),
                                         (self.proc.stderr, self.err))]
        for r in self._readers:
            r.start()

    @staticmethod
    def _read(stream: object, into: list[str]) -> None:
        for line in stream:  # type: ignore[attr-defined]
            into.append(line.rstrip("\n"))

    def said(self, words: str) -> bool:
        return any(words in line for line in self.out)

    def ended(self, timeout: float) -> int:
        code = self.proc.wait(timeout)
        for r in self._readers:
            r.join(10)
        return code

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(20)
        for r in self._readers:
            r.join(10)


def _join_argv(cluster: Cluster, db: Path, creds: Path) -> list[str]:
    return ["table", "join", "--db", str(db), "--broker", f"mqtt://127.0.0.1:{cluster.port}",
            "--event", str(cluster.event_id), "--table", "1", "--credentials", str(creds),
            "--lang", "en"]


def test_a_second_agent_is_refused_and_a_take_over_stops_the_first(
        cluster: Cluster, tmp_path: Path) -> None:
    cluster.start_director()
    creds = tmp_path / "table-1.json"
    write_credentials(creds, cluster.table_creds[1])
    host = socket.gethostname()
    first = Join(_join_argv(cluster, tmp_path / "first.db", creds))
    joins = [first]
    try:
        eventually(lambda: first.said("Seated for flight-1"), 30, "the first agent seated")

        # A second agent, on a file of its own: refused in one line, nothing else first.
        second = Join(_join_argv(cluster, tmp_path / "second.db", creds))
        joins.append(second)
        assert second.ended(30) == 2
        assert len(second.err) == 1, second.err
        refusal = second.err[0]
        assert re.search(rf"Another agent holds table 1 of event 1, on {re.escape(host)} "
                         r"since \d\d:\d\d: this one stops\.", refusal), refusal
        assert not any("fresh file" in line for line in second.out), second.out
        assert first.proc.poll() is None and not first.said("Lost the broker")
        shown = uno("event", "show", "--db", cluster.director_db, "--lang", "en").stdout
        assert f"a second agent, on {host}, was told to stop at" in shown, shown

        # The take-over it offers runs as printed: the first agent stops within 5 s.
        offered = re.findall(r"`(uno-showdown [^`]*)`", refusal)
        assert len(offered) == 1 and offered[0].endswith(" --take-over")
        words = shlex.split(offered[0])
        assert words[:3] == ["uno-showdown", "table", "join"]
        third = Join(words[1:])
        joins.append(third)
        eventually(lambda: third.said("recording into"), 30, "the take-over running")
        running_at = time.monotonic()  # it connects from now on
        assert first.ended(5) == 2
        assert time.monotonic() - running_at < 5
        assert len(first.err) == 1, first.err
        assert re.fullmatch(rf"Table 1 of event 1 was taken over at \d\d:\d\d by the agent "
                            rf"on {re.escape(host)}: this one stops\.", first.err[0])
        assert not first.said("Lost the broker")

        # The new agent keeps the table: its deal reaches the director, no ping-pong.
        cluster.tables[1] = Table(1, str(tmp_path / "second.db"), cluster.table_creds[1])
        cluster.deal(1)
        eventually(lambda: any(ln.games for ln in cluster.director_lines()), 30,
                   "the deal at the director")
        assert third.proc.poll() is None
        assert not third.said("Lost the broker") and not third.err
        shown = uno("event", "show", "--db", cluster.director_db, "--lang", "en").stdout
        assert f"it took the table over from the agent on {host} at" in shown, shown
    finally:
        for j in joins:
            j.stop()



def _director_table_1(cluster: Cluster) -> TableStatus:
    with Championship.open(cluster.director_db, cluster.event_id) as champ:
        return next(t for t in champ.snapshot().stage_tables("flight-1") if t.table == 1)


def _late_rounds(cluster: Cluster) -> int:
    """The deals table 1 played after its time, as the director's standings hold them."""
    return _director_table_1(cluster).box.late_rounds


def _hand_fed_director(cluster: Cluster) -> DirectorSync:
    """The director started with its broker link closed: the test hands it messages."""
    director = cluster.start_director()
    director.link.close()
    return director


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_a_take_over_on_a_fresh_file_is_heard_from_its_first_status(
        cluster: Cluster, tmp_path: Path) -> None:
    """A Pi that died is replaced by a laptop with an empty games file (`table join
    --take-over`). The laptop's outbox numbers its messages from 1 again, while the Pi's had
    gone far higher: the deal in progress the laptop records after time is called must
    still show the table done on the director's screen, not waiting for a last deal for
    ever."""
    cluster.start_director()
    cluster.start_table(1)
    cluster.seated(1)
    now = wall_clock_us()
    for i in range(5):  # the Pi's outbox: a deal and a status each, ten messages and more
        cluster.deal(1, at_us=now - (5 - i) * 2 * S)
    eventually(lambda: _director_table_1(cluster).deals == 5, 30, "the Pi's deals heard")
    with Championship.open(cluster.director_db, cluster.event_id, clock=lambda: now) as champ:
        champ.end()  # time is called: the deal in progress may still be recorded
    assert _director_table_1(cluster).phase is Phase.LAST_DEAL

    pi = cluster.tables[1].agent
    assert pi is not None
    laptop = TableAgent(str(tmp_path / "laptop.db"), cluster.address, cluster.table_creds[1],
                        1, take_over=True)
    cluster.tables[1] = Table(1, str(tmp_path / "laptop.db"), cluster.table_creds[1], laptop)
    laptop.start()
    try:
        eventually(lambda: pi.stopped is not None, 30, "the Pi told it was taken over")
        assert laptop.seated.wait(30)

        def laptop_box() -> TimeBox:
            with Store(cluster.tables[1].db) as store:
                file = TableFile(store, cluster.event_id, 1)
                return store.boxes.load(file.stages()["flight-1"][0]).box

        eventually(lambda: (laptop_box().ends_at_us or now + S) < now + S, 30,
                   "the laptop told that time was called")
        cluster.deal(1, at_us=now + 2 * S)  # the deal in progress, after the time
        assert laptop_box().late_rounds == 1
        eventually(lambda: _director_table_1(cluster).done, 30,
                   "the laptop's last deal shown at the director: table 1 done")
        assert _director_table_1(cluster).box.late_rounds == 1
    finally:
        pi.stop()


PI, LAPTOP, STALE = "1a" * 8, "2b" * 8, "3c" * 8  # three games files (sources)


def _up(cluster: Cluster, source: str, seq: int, report: wire.Report) -> Inbound:
    """A message as any holder of table 1's credentials can sign it."""
    return Inbound(wire.up_topic(cluster.event_id, 1), wire.encode_up(
        wire.Up(1, source, seq, report), cluster.table_creds[1].secret))


def _beat(cluster: Cluster, source: str, agent: str | None, take_over: bool = False
          ) -> Inbound:
    return _up(cluster, source, 0, wire.Heartbeat(wall_clock_us(), 0, agent, "pi",
                                                   take_over))


def _late(cluster: Cluster, source: str, seq: int, late: int) -> Inbound:
    return _up(cluster, source, seq, wire.StatusReport("flight-1", late, 3))


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_after_a_take_over_only_the_new_holders_file_speaks_for_the_table(
        cluster: Cluster) -> None:
    """The status of a table (its deals after time) as someone holding table 1's
    credentials might try to bend it: the director is fed by hand, as if the broker let
    everything through. The new holder's file counts from its first message; the old
    holder's late or replayed messages, a file no holding agent announced, the holder's
    token sent from another file and a heartbeat naming no agent change nothing, during
    the run and after the director starts again."""
    director = _hand_fed_director(cluster)
    director.ingest([_beat(cluster, PI, "a" * 16), _late(cluster, PI, 40, 1)])
    assert _late_rounds(cluster) == 1
    director.ingest([_beat(cluster, LAPTOP, "b" * 16, take_over=True),
                     _late(cluster, LAPTOP, 1, 0)])
    assert _late_rounds(cluster) == 0  # the fresh file's first status counts

    tries = [
        _late(cluster, PI, 41, 1),  # the old holder, late or replayed
        _late(cluster, STALE, 1, 1),  # a file nobody holding the table announced
        _beat(cluster, STALE, "b" * 16),  # the holder's token (a stop told it), another file
        _late(cluster, STALE, 2, 1),
        _beat(cluster, STALE, None),  # a heartbeat of an older agent, naming no token
        _late(cluster, STALE, 3, 1),
    ]
    for msg in tries:
        director.ingest([msg])
        assert _late_rounds(cluster) == 0
    # Nor did any of them announce the stale file: its deal is held for the director.
    with cluster.tables_seating() as seating:
        a, b = seating[1][:2]
    director.ingest([_up(cluster, STALE, 5, wire.DealReport(
        "flight-1", "g1:1", 1, {a: 0, b: 5}, wall_clock_us()))])
    with Championship.open(cluster.director_db, cluster.event_id) as champ:
        snap = champ.snapshot()
        assert [h.table for h in snap.held] == [1]
        assert not any(ln.games for ln in snap.qualifying)
    director.ingest([_late(cluster, LAPTOP, 2, 1)])
    assert _late_rounds(cluster) == 1
    cluster.stop_director()

    # Started again: no agent heard yet, the ledger says whose file speaks for the table.
    director = _hand_fed_director(cluster)
    director.ingest([_late(cluster, PI, 42, 0), _late(cluster, STALE, 4, 0)])
    assert _late_rounds(cluster) == 1
    director.ingest([_late(cluster, LAPTOP, 3, 0)])
    assert _late_rounds(cluster) == 0


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_after_the_director_starts_again_the_first_heartbeat_does_not_take_the_table(
        cluster: Cluster) -> None:
    """The director starts again while two agents of table 1 run: the Pi that held it and a
    second one started meanwhile (nobody could refuse it). Whichever heartbeat arrives
    first, the Pi's file still speaks for the table: the second agent is refused as it
    would have been, and its file's status changes nothing. A holder that left is noted as
    gone: after the next restart, a replacement takes the table at once."""
    director = _hand_fed_director(cluster)
    director.ingest([_beat(cluster, PI, "a" * 16), _late(cluster, PI, 1, 1)])
    assert _late_rounds(cluster) == 1
    cluster.stop_director()

    director = _hand_fed_director(cluster)
    director.ingest([_beat(cluster, STALE, "c" * 16), _late(cluster, STALE, 1, 0)])
    assert _late_rounds(cluster) == 1  # the second agent, first to be heard: not the table
    director.ingest([_beat(cluster, PI, "d" * 16), _late(cluster, PI, 2, 0)])
    assert _late_rounds(cluster) == 0  # the Pi's `table join`, started again on its file
    director.ingest([_up(cluster, PI, 0, wire.Heartbeat(wall_clock_us(), 0, "d" * 16, "pi",
                                                         False, True))])  # it leaves
    cluster.stop_director()

    director = _hand_fed_director(cluster)
    director.ingest([_beat(cluster, LAPTOP, "b" * 16), _late(cluster, LAPTOP, 1, 1)])
    assert _late_rounds(cluster) == 1  # the table was free: the replacement holds it
