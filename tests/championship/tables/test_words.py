"""Words that say what happened, once: a table's terminal says one line when it loses the
broker and one when it is back (it said each twice), in local hours and minutes; the
director's log says when a broker that did not answer answers, and each loss and return
once, on either broker."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.reasoncodes import ReasonCode

from championship.desk.director import DirectorSync
from championship.desk.table_agent import TableAgent
from tests.championship.tables.conftest import Cluster, build, eventually


def test_a_broker_loss_is_one_line_at_the_table_and_one_in_the_directors_log(
        cluster: Cluster, caplog: pytest.LogCaptureFixture) -> None:
    said: list[str] = []
    cluster.start_director()
    table = cluster.start_table(1)
    assert table.agent is not None
    table.agent.say = said.append
    cluster.seated(1)
    def director() -> list[str]:
        return [r.getMessage() for r in caplog.records if r.name.endswith("director")
                and "broker" in r.getMessage().lower()]

    with caplog.at_level(logging.WARNING):
        cluster.broker.stop()
        eventually(lambda: any("Lost the broker" in s for s in said), 60, "the loss said")
        cluster.broker.start()
        eventually(lambda: any("The broker is back" in s for s in said), 60, "its return")
        eventually(lambda: len(director()) >= 2, 30, "the director's loss and return")
    broker_lines = [s for s in said if not s.startswith("Seated for")]
    assert len(broker_lines) == 2, broker_lines
    assert re.fullmatch(r"Lost the broker at \d\d:\d\d: the table keeps recording \(waiting "
                        r"to be sent: \d+\)\.", broker_lines[0]), broker_lines[0]
    assert broker_lines[1] == "The broker is back: sending what waits."
    logged = director()
    assert len(logged) == 2, logged
    assert logged[0].startswith("lost the broker at mqtt://127.0.0.1:")
    assert logged[1] == f"the broker at mqtt://127.0.0.1:{cluster.port} is back"


@pytest.mark.parametrize("cluster", ["amqtt"], indirect=True)
def test_the_directors_log_says_when_a_silent_broker_answers(
        cluster: Cluster, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    from championship.core import presence

    monkeypatch.setattr(presence, "HEARTBEAT_S", 0.5)  # 5 s in the bar
    cluster.broker.stop()
    with caplog.at_level(logging.WARNING):
        director = cluster.start_director()
        assert isinstance(director, DirectorSync)

        def logged(words: str) -> bool:
            return any(words in r.getMessage() for r in caplog.records)

        eventually(lambda: logged("does not answer"), 20, "the broker said silent")
        cluster.broker.start()
        eventually(lambda: logged("answers now"), 40, "its answer said")
    assert logged(f"the broker at mqtt://127.0.0.1:{cluster.port} answers now: the tables "
                  "reach the director")


def test_a_broker_lost_before_the_table_first_looked_is_said_all_the_same(
        tmp_path: Path) -> None:
    """A busy table's sync may not look at its link between the connection and its loss (the
    director sees the table seated, the broker goes): the loss is said once, and the return.
    The link's own paho callbacks are called here as paho's thread calls them, with nothing
    connecting: the agent's thread is not started, so the order is this test's."""
    cluster = build(tmp_path, "amqtt")
    try:
        agent = TableAgent(str(tmp_path / "table1.db"), cluster.address, cluster.table_creds[1],
                           1)
        said: list[str] = []
        agent.say = said.append
        link = agent.link
        connected = ReasonCode(PacketTypes.CONNACK, "Success")
        gone = ReasonCode(PacketTypes.DISCONNECT, "Unspecified error")
        link._on_connect(link.client, None, None, connected, None)
        link._on_disconnect(link.client, None, None, gone, None)
        agent.note_link()  # its first look: the connection already lost
        assert [s.split(" at ")[0] for s in said] == ["Lost the broker"], said
        agent.note_link()
        assert len(said) == 1, said  # said once
        link._on_connect(link.client, None, None, connected, None)
        link._on_disconnect(link.client, None, None, gone, None)
        link._on_connect(link.client, None, None, connected, None)
        agent.note_link()  # back, lost and back again between two looks
        assert said[1:] == ["The broker is back: sending what waits."], said
        agent.store.close()
    finally:
        cluster.close()
