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

from championship.broker.credentials import write_credentials
from tests.championship.tables.conftest import Cluster, Table, eventually
from tests.championship.tables.serving import ROOT, uno


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

