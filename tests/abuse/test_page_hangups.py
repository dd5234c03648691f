"""Many phones hanging up at once must not freeze the live page or the stop.

300 phones follow the page (`GET /events`, each reads the document), a deal is recorded
and reaches every one of them, then they all hang up at the same moment. The next deal must
still reach a fresh stream and `/state.json`, and SIGTERM must stop `event serve` within 5 s
with nothing unhandled in its log. (On Python 3.11 a condition waited on with `wait_for`
and cancelled by the hang-up re-acquired its lock wrongly: hundreds of "Lock is not
acquired" tracebacks, the page frozen for good, SIGTERM ignored.)"""

from __future__ import annotations

import contextlib
import json
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from championship.broker.credentials import read_credentials
from championship.broker.link import BrokerAddress
from championship.desk.table_agent import TableAgent
from championship.store.table_file import TableFile
from companion.app import CompanionApp
from companion.store.games import Store
from tests.championship.tables.conftest import eventually
from tests.championship.tables.serving import Serving, serving

PHONES = 300  # the page's own cap on streams (`app.MAX_STREAMS`)


def _join(s: Serving, tmp: Path) -> TableAgent:
    creds = read_credentials(s.credentials / "table-1.json")
    agent = TableAgent(str(tmp / "table1.db"), BrokerAddress("127.0.0.1", s.broker_port,
                                                             False), creds, 1)
    agent.start()
    assert agent.seated.wait(20), "the table was never seated"
    return agent


def _deal(agent: TableAgent) -> None:
    with Store(agent.store.path) as store:
        game_id = TableFile(store, agent.event_id, agent.table).current_game("flight-1")
    with CompanionApp.open(agent.store.path, game_id) as app:
        assert app.game is not None
        names = list(app.game.names)
        app.record_round(names[0], points={n: 10 for n in names[1:]})


def _deals(s: Serving) -> int:
    try:
        with urllib.request.urlopen(s.url + "state.json", timeout=5) as r:
            return int(json.loads(r.read())["total_deals"])
    except (OSError, urllib.error.URLError):
        return -1  # no answer (a frozen page): the caller waits and then says what


class Phone:
    """One `GET /events` stream on a raw socket: the documents it was sent, in order."""

    def __init__(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), 10)
        self.sock.sendall(b"GET /events HTTP/1.1\r\nHost: page\r\n\r\n")
        self.buffer = b""

    def read_until(self, needle: bytes, timeout: float = 20.0) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.buffer:
            left = deadline - time.monotonic()
            assert left > 0, f"{needle!r} never came: {self.buffer[-300:]!r}"
            self.sock.settimeout(left)
            chunk = self.sock.recv(65536)
            assert chunk, f"the stream ended before {needle!r}: {self.buffer[-300:]!r}"
            self.buffer += chunk

    def hang_up(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.close()


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Serving]:
    with serving(tmp_path, 14, 2) as s:
        yield s


def test_phones_hanging_up_at_once_leave_the_page_live_and_the_stop_prompt(
        served: Serving, tmp_path: Path) -> None:
    agent = _join(served, tmp_path)
    phones: list[Phone] = []
    try:
        for _ in range(PHONES):
            phones.append(Phone(served.web_port))
        for phone in phones:
            phone.read_until(b'"total_deals":0')  # each reads the document
        _deal(agent)
        for phone in phones:
            phone.read_until(b"data: ", 20)  # the change reached every phone
            phone.read_until(b"\n\n", 20)
        eventually(lambda: _deals(served) == 1, 20, "the first deal on the page")
        for phone in phones:  # every phone hangs up at the same moment
            phone.hang_up()
        phones.clear()
        _deal(agent)
        eventually(lambda: _deals(served) == 2, 20, "the next deal in /state.json")

        def fresh_stream_sees_it() -> bool:
            try:
                phone = Phone(served.web_port)
            except OSError:
                return False
            try:
                phone.read_until(b"\r\n\r\n", 10)
                if b" 200 " not in phone.buffer.split(b"\r\n", 1)[0]:
                    return False  # 503 while the hung-up streams are still being counted
                phone.read_until(b'"total_deals":2', 10)
                return True
            finally:
                phone.hang_up()

        eventually(fresh_stream_sees_it, 20, "the next deal on a fresh stream")
        # and a phone still following when the director stops does not hold the stop
        phones.append(Phone(served.web_port))
        phones[0].read_until(b'"total_deals":2')
    finally:
        agent.stop()
    started = time.monotonic()
    served.proc.send_signal(signal.SIGTERM)
    try:
        _out, err = served.proc.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        pytest.fail("event serve did not stop within 5 s of SIGTERM")
    finally:
        for phone in phones:
            phone.hang_up()
    assert time.monotonic() - started < 5
    assert served.proc.returncode == 0, err
    assert "Traceback" not in err and "Lock is not acquired" not in err, err[-3000:]
