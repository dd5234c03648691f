"""Words that say what happened, once: a table's terminal says one line when it loses the
broker and one when it is back (it said each twice), in local hours and minutes; the
director's log says when a broker that did not answer answers, and each loss and return
once, on either broker."""

from __future__ import annotations

import logging
import re

import pytest

from championship.desk.director import DirectorSync
from tests.championship.tables.conftest import Cluster, eventually


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
