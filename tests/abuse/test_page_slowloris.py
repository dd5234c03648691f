"""Issue 26, finding 2: half-sent requests to the live page were never timed out; with
1,100 held, `/state.json` stopped answering and the log grew by 65 MB of tracebacks.

The page's own server (uvicorn with `limits.server_limits()`) on loopback: many
connections each send half a request and wait; the page keeps answering a phone in between,
the slow ones lose their place (oldest first) or time out, and the log stays quiet."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import threading
import time
import urllib.request
from collections.abc import Iterator

import pytest
import uvicorn

from championship.web import limits
from championship.web.app import Hub, create_app
from tests.championship.tables.conftest import eventually, free_port, wait_port

SLOW = 600  # more than the cap: the cap must evict, not refuse the phone
CAP = 200


@pytest.fixture
def page(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    monkeypatch.setattr(limits, "MAX_CONNECTIONS", CAP)
    monkeypatch.setattr(limits, "HEADER_TIMEOUT_S", 3.0)
    monkeypatch.setattr(limits, "LIMITS", limits.Counts())
    hub = Hub()
    hub.publish({"event": "Cup", "deals": {}})
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(hub), host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on",
                                           **limits.server_limits()))
    thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
    thread.start()
    wait_port(port)
    try:
        yield port
    finally:
        server.should_exit = True
        thread.join(20)


def _get(port: int, path: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as r:
        r.read()
        return int(r.status)


def test_slow_requests_do_not_starve_the_page(page: int,
                                              caplog: pytest.LogCaptureFixture) -> None:
    held: list[socket.socket] = []
    served = 0
    try:
        with caplog.at_level(logging.INFO):
            for i in range(SLOW):
                sock = socket.create_connection(("127.0.0.1", page), 5)
                sock.sendall(b"GET /state.json HTTP/1.1\r\nHost: x\r\n")  # and never the end
                held.append(sock)
                if i % 50 == 49:  # a phone, in the middle of it
                    started = time.monotonic()
                    assert _get(page, "/state.json") == 200
                    assert time.monotonic() - started < 3.0
                    served += 1
            assert _get(page, "/") == 200
            served += 1
            counts = limits.LIMITS
            assert counts.evicted >= SLOW - CAP  # the oldest slow ones made room
            assert counts.turned_away == 0  # nobody real was refused
            eventually(lambda: limits.LIMITS.slow_closed > 0, 15, "the slow ones time out")
        noisy = [r for r in caplog.records if r.levelno >= logging.WARNING]
        assert len(noisy) <= 3, [r.getMessage() for r in noisy]
    finally:
        for sock in held:
            with contextlib.suppress(OSError):
                sock.close()
    assert served == SLOW // 50 + 1


def test_event_streams_are_bounded(page: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past the most streams, a new one is told to come back later (503), and the page's
    plain answers go on."""
    from championship.web import app as web_app

    monkeypatch.setattr(web_app, "MAX_STREAMS", 40)
    assert web_app.MAX_STREAMS < CAP
    streams = []
    try:
        for _ in range(web_app.MAX_STREAMS):
            r = urllib.request.urlopen(f"http://127.0.0.1:{page}/events", timeout=5)
            assert r.status == 200
            assert r.readline().startswith(b"retry:")
            streams.append(r)
        with pytest.raises(urllib.error.HTTPError) as busy:
            urllib.request.urlopen(f"http://127.0.0.1:{page}/events", timeout=5)
        assert busy.value.code == 503
        assert _get(page, "/state.json") == 200
    finally:
        for r in streams:
            r.close()
