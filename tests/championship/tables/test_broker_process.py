"""The embedded broker runs in a process of its own: it listens once `start()` returns, a port
already taken is said in one line (what `event serve` prints), and `close()` leaves neither
the process nor the port behind."""

from __future__ import annotations

import errno
import os
import socket
from pathlib import Path

import pytest

from championship.broker.embedded import EmbeddedBroker
from championship.core.access import Credentials
from tests.championship.tables.conftest import free_port


def _broker(port: int) -> EmbeddedBroker:
    users = [Credentials(1, None, "e1-director", "s" * 32)]
    return EmbeddedBroker("127.0.0.1", port, 1, users, [1])


def test_the_broker_listens_in_its_own_process_and_close_ends_it(tmp_path: Path) -> None:
    port = free_port()
    broker = _broker(port)
    broker.start()
    pid = broker.pid
    try:
        assert pid is not None and pid != os.getpid()
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass  # it listens
    finally:
        broker.close()
    assert broker.pid is None
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # the process is gone (reaped by close)
    with socket.socket() as s:  # and the port is free again
        s.bind(("127.0.0.1", port))


def test_a_port_taken_is_said_in_one_line(capfd: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        broker = _broker(taken.getsockname()[1])
        with pytest.raises(OSError) as caught:
            broker.start()
        broker.close()
    assert caught.value.errno == errno.EADDRINUSE
    reason = caught.value.strerror
    assert reason and "address already in use" in reason and "\n" not in reason
    assert "Traceback" not in capfd.readouterr().err  # the broker's process printed none
