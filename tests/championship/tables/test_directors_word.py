"""The director's word is final, and the director's clock is the event's: implausible deals
are held (not counted, and said), the director voids and restores deals with who, when and
why on the results sheet, and a table whose clock is off is measured and judged on the
director's time.

The director is fed by hand, as if some broker let everything through with a table's own
credentials: what a table's credentials can send is exactly what is tested."""

from __future__ import annotations

import pytest

from championship.broker.link import Inbound
from championship.core import messages as wire
from championship.desk.director import DirectorSync
from championship.desk.operations import Championship
from championship.desk.sheet import results_sheet
from companion.store.wallclock import wall_clock_us
from tests.championship.conftest import run
from tests.championship.tables.conftest import Cluster

S = 1_000_000
SOURCE = "ab" * 8


def _up(cluster: Cluster, report: wire.Report, seq: int, source: str = SOURCE) -> Inbound:
    return Inbound(wire.up_topic(cluster.event_id, 1), wire.encode_up(
        wire.Up(1, source, seq, report), cluster.table_creds[1].secret))


def _director(cluster: Cluster) -> DirectorSync:
    director = cluster.start_director()
    director.link.close()  # fed by hand below
    return director


def _seats(cluster: Cluster) -> list[int]:
    with cluster.tables_seating() as seats:
        return seats[1]


def _games(cluster: Cluster) -> int:
    return sum(ln.games for ln in cluster.director_lines())


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_implausible_deals_are_held_for_the_director_and_said(
        cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    director = _director(cluster)
    a, b, c = _seats(cluster)[:3]
    now = wall_clock_us()
    assert director.ingest([_up(cluster, wire.Heartbeat(now, 0), 0)]) == 1
    deals = [
        wire.DealReport("flight-1", "g1:1", 1, {a: 10, b: 5}, now),  # nobody went out
        wire.DealReport("flight-1", "g1:2", 1, {a: 0}, now),  # one player, 0 points
        wire.DealReport("flight-1", "g1:3", 1, {a: 0, b: 1_000_000}, now),  # no hand holds it
        wire.DealReport("flight-1", "g1:4", 1, {a: 0, b: 5}, 4_102_444_800 * S),  # year 2100
    ]
    director.ingest([_up(cluster, d, i + 1) for i, d in enumerate(deals)])
    invented = wire.DealReport("flight-1", "g9:1", 1, {a: 0, c: 5}, now)
    director.ingest([_up(cluster, invented, 1, source="cd" * 8)])  # a file never announced
    assert _games(cluster) == 0
    status, out, _err = run(capsys, "event", "show", "--db", cluster.director_db)
    assert status == 0
    for why in ("nobody went out", "fewer than two players are scored",
                "more points than the deck holds", "its time is outside the stage",
                "a games file the table never announced"):
        assert "Held for the director: table 1" in out and why in out
    assert "Table 1: playing, clock +0.0 s" in out

    # The director decides: a held deal counts once restored, and no longer once voided.
    status, out, _err = run(capsys, "event", "restore", "--db", cluster.director_db,
                            "--table", "1", "--deal", "g1:1", "--why", "checked the sheet",
                            "--by", "Rita")
    assert (status, out) == (0, "Deal g1:1 of table 1 (Qualifying) counts now.\n")
    assert _games(cluster) == 2
    status, out, _err = run(capsys, "event", "void", "--db", cluster.director_db, "--table",
                            "1", "--deal", "g1:1", "--why", "nobody went out after all",
                            "--by", "Rita")
    assert (status, out) == (
        0, "Deal g1:1 of table 1 (Qualifying) is void: it no longer counts.\n")
    assert _games(cluster) == 0
    with Championship.open(cluster.director_db, cluster.event_id) as champ:
        sheet = results_sheet(champ.snapshot())
    assert "Audit: the director&#x27;s word on deals" in sheet
    assert sheet.count("<td>Rita</td>") == 2
    assert "<td>restored</td><td>Rita</td><td>checked the sheet</td>" in sheet
    assert "<td>void</td><td>Rita</td><td>nobody went out after all</td>" in sheet
    assert "<td>held</td><td></td><td>nobody went out</td>" not in sheet  # decided
    assert "<td>held</td><td></td><td>more points than the deck holds</td>" in sheet


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_the_directors_refusals_are_one_line(cluster: Cluster,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    director = _director(cluster)
    a, b = _seats(cluster)[:2]
    now = wall_clock_us()
    director.ingest([_up(cluster, wire.Heartbeat(now, 0), 0),
                     _up(cluster, wire.DealReport("flight-1", "g1:1", 1, {a: 0, b: 9}, now), 1)])
    assert _games(cluster) == 2
    db = ("--db", cluster.director_db, "--table", "1")
    cases = [
        (("restore", *db, "--deal", "g1:1", "--why", "x"),
         "deal g1:1 of table 1 counts already: only a void or held deal can be restored"),
        (("void", *db, "--deal", "g7:7", "--why", "x"),
         "table 1 has no deal g7:7: `uno-showdown event deals --table 1 --db "
         f"{cluster.director_db}` lists them"),
        (("void", *db, "--deal", "g1:1", "--why", "  "),
         "say why in a few words with --why TEXT (at most 200 characters)"),
    ]
    for argv, said in cases:
        status, out, err = run(capsys, "event", *argv)
        assert (status, out) == (2, "")
        assert err.strip().endswith(said) and err.count("\n") == 1, err
    assert run(capsys, "event", "void", *db, "--deal", "g1:1", "--why", "dispute")[0] == 0
    status, _out, err = run(capsys, "event", "void", *db, "--deal", "g1:1", "--why", "again")
    assert status == 2 and err.strip().endswith("deal g1:1 of table 1 is already void")
    status, out, _err = run(capsys, "event", "deals", *db)
    assert status == 0 and "g1:1  void" in out
    assert _games(cluster) == 0


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_a_table_whose_clock_is_behind_is_judged_on_the_directors_time(
        cluster: Cluster, capsys: pytest.CaptureFixture[str]) -> None:
    director = _director(cluster)
    a, b = _seats(cluster)[:2]
    behind = 600 * S  # a Pi without a real-time clock, ten minutes behind
    now = wall_clock_us()
    director.ingest([_up(cluster, wire.Heartbeat(now - behind, 0), 0)])
    _status, out, _err = run(capsys, "event", "show", "--db", cluster.director_db)
    assert "Table 1: playing, clock -600.0 s (off: check its clock)" in out
    with Championship.open(cluster.director_db, cluster.event_id, clock=lambda: now) as champ:
        champ.end()
    # On the table's own clock both deals look ten minutes before the end: they were not.
    late = [wire.DealReport("flight-1", f"g1:{i}", 1, {a: 0, b: 5}, now - behind + i * S)
            for i in (1, 2)]
    director.ingest([_up(cluster, d, i) for i, d in enumerate(late, 1)])
    assert _games(cluster) == 2, "only the deal in progress counts"
    assert any("after the time of" in r for r in director.rejected)


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_a_broker_that_never_answers_is_said_and_shown(
        cluster: Cluster, caplog: pytest.LogCaptureFixture,
        capsys: pytest.CaptureFixture[str]) -> None:
    """`event serve --broker` to a dead broker: the director says so (once), and `event
    show` says the broker is lost."""
    from championship.broker.link import BrokerAddress
    from tests.championship.tables.conftest import eventually, free_port

    dead = BrokerAddress("127.0.0.1", free_port(), False)
    director = DirectorSync(cluster.director_db, cluster.event_id, dead,
                            cluster.director_creds, cluster.table_creds)
    director.start()
    try:
        eventually(lambda: "does not answer" in caplog.text, 15, "the director says it")
    finally:
        director.stop()
    assert caplog.text.count("does not answer") == 1
    assert f"the broker at {dead.url} does not answer" in caplog.text
    _status, out, _err = run(capsys, "event", "show", "--db", cluster.director_db)
    assert "The broker: lost since" in out


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_heartbeats_that_change_nothing_send_no_new_standings(cluster: Cluster) -> None:
    """The page's document goes to every table as the standings: a table's first heartbeat
    changes it (the table is heard), the ones after it that say the same do not."""
    from tests.championship.tables.conftest import eventually

    published: list[dict[str, object]] = []
    director = DirectorSync(cluster.director_db, cluster.event_id, cluster.address,
                            cluster.director_creds, cluster.table_creds,
                            on_state=published.append)
    director.start()
    try:
        eventually(lambda: director.link.connected.is_set(), 20)
        eventually(lambda: len(published) >= 1, 10)
        start = wall_clock_us()
        director.link.inbox.put(_up(cluster, wire.Heartbeat(start, 0), 0))
        eventually(lambda: 1 in director.heard, 10, "the first heartbeat taken")
        eventually(lambda: any(t.get("presence") == "playing" for s in published[-1:]
                               for st in s["stages"]  # type: ignore[attr-defined]
                               for t in st["tables"]), 10, "the page says table 1 plays")
        count = len(published)
        for i in range(1, 6):
            director.link.inbox.put(_up(cluster, wire.Heartbeat(start + i * 1000, 0), 0))
        eventually(lambda: len(director._samples[1]) == 6, 10, "all six heartbeats taken")
        director.publish_state()  # what the page would get now: the same as before
        assert published[-1]["stages"] == published[count - 1]["stages"]
        assert len(published) == count + 1
    finally:
        director.stop()
