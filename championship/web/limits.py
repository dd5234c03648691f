"""The live page's server within bounds: a client that sends its request slowly, or never,
cannot hold the page from the phones that want it.

uvicorn (0.54, h11) times out an idle keep-alive connection, but not a request that is
being sent: a client that sends half a request line and waits holds its connection, and
a thousand of them take every file descriptor of the process, the broker's too. So:

* a request's headers must arrive within `HEADER_TIMEOUT_S` of its first byte (and a
  new connection's first request within as long), else the connection is closed;
* the headers are at most `MAX_HEADER_BYTES`, however they arrive (h11 bounds only a head
  still incomplete: 100 KB sent at once were read): a longer head is answered 431 and the
  connection closed;
* at most `MAX_CONNECTIONS` connections at once; when a new one comes at the cap, the
  oldest connection still sending its headers is closed to make room (a slow client
  loses its place, a phone does not), and only when every one is a real request is the
  new one turned away;
* how many were closed for being slow or for the cap is counted (`LIMITS`), not logged
  one by one.

The page takes no body (there is no POST); the event streams have their own bounds in
`app`.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

#: Seconds for a request's headers, from its first byte (or from the connection).
HEADER_TIMEOUT_S = 10.0
#: The largest request head read.
MAX_HEADER_BYTES = 16 * 1024
#: The most connections held at once (the broker's own and the files stay well under the
#: usual 1,024 descriptors).
MAX_CONNECTIONS = 400


@dataclass
class Counts:
    """What the bounds did, for the log's summary and the tests."""

    slow_closed: int = 0
    evicted: int = 0
    turned_away: int = 0
    too_large: int = 0


LIMITS = Counts()


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with the bounds of the module docstring."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self.waiting_since: float | None = None  # sending a request's headers since then
        self._head_bytes = 0  # of the request head being sent now

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if len(self.connections) > MAX_CONNECTIONS and not self._evict_one():
            LIMITS.turned_away += 1
            transport.abort()
            return
        self._arm()

    def _evict_one(self) -> bool:
        """Close the connection that has been sending its headers longest, if any."""
        waiting = [p for p in self.connections
                   if isinstance(p, BoundedH11) and p is not self
                   and p.waiting_since is not None]
        if not waiting:
            return False
        oldest = min(waiting, key=lambda p: p.waiting_since or 0.0)
        LIMITS.evicted += 1
        oldest._close()
        return True

    def _arm(self) -> None:
        if self._deadline is None:
            self.waiting_since = self.loop.time()
            self._deadline = self.loop.call_later(HEADER_TIMEOUT_S, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None
        self.waiting_since = None
        self._head_bytes = 0

    def _too_slow(self) -> None:
        self._deadline = None
        LIMITS.slow_closed += 1
        self._close()

    def _close(self) -> None:
        self._disarm()
        self.connections.discard(self)  # room at once, before the transport says it is gone
        if not self.transport.is_closing():
            self.transport.abort()

    def data_received(self, data: bytes) -> None:
        if self.cycle is None or self.cycle.response_complete:
            self._arm()  # the first byte of a request: its headers have the timeout
            end = data.find(b"\r\n\r\n")
            self._head_bytes += len(data) if end < 0 else end + 4
            if self._head_bytes > MAX_HEADER_BYTES:
                self._too_large()
                return
            if end >= 0:
                self._head_bytes = 0
        super().data_received(data)

    def _too_large(self) -> None:
        """A request head over MAX_HEADER_BYTES: 431, and the connection closed."""
        LIMITS.too_large += 1
        if not self.transport.is_closing():
            self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
                                 b"content-length: 0\r\nconnection: close\r\n\r\n")
        self._disarm()
        self.connections.discard(self)
        if not self.transport.is_closing():
            self.transport.close()  # after the answer is written

    def handle_events(self) -> None:
        before = self.cycle
        super().handle_events()
        if self.cycle is not before and self.cycle is not None:
            self._disarm()  # a whole request head arrived

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)


def server_limits() -> dict[str, Any]:
    """uvicorn's `Config` arguments for the page: the protocol above and h11's bounds."""
    return {"http": BoundedH11, "h11_max_incomplete_event_size": MAX_HEADER_BYTES,
            "timeout_keep_alive": 5, "timeout_graceful_shutdown": 2}
