"""How the service's events reach listeners without the loop that owns time ever waiting.

The loop only appends an event to a queue per listener (`showdown.contract.worker`'s `put`: a lock
held for an append, never for a listener's work). Each callback listener has a `Worker` of
its own, a bounded queue with a thread, so a listener that blocks (a games file locked by
another program), is slow or raises delays neither go, a verdict, a launch, nor any other
listener; an exception is logged and the listener goes on hearing later events.

A consumer with a loop of its own (the emulator window, which steps the service on its
main thread) takes a feed with `subscribe()` and drains it when it likes; no thread.

Memory stays bounded: a feed keeps at most `FEED_LIMIT` events. A listener that has not
taken an event for that long is stuck, and the oldest events are dropped
(`DropPolicy.OLDEST`) with one logged error (the duel log still holds every duel, and
`uno-showdown game duels --recover-from` takes missing duels back from it).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from showdown.contract.events import (
    LaunchFailed,
    Listener,
    ServiceEvent,
    VerdictContested,
    VerdictGiven,
)
from showdown.contract.worker import BoundedQueue, DropPolicy, Worker

#: The most events a feed holds for a consumer that does not keep up: weeks of duels.
FEED_LIMIT = 10_000


class EventFeed(BoundedQueue[ServiceEvent]):
    """A queue of service events for one consumer; `put` never blocks, and a full feed
    drops its oldest event (`showdown.contract.worker.DropPolicy.OLDEST`)."""

    def __init__(self, name: str, limit: int = FEED_LIMIT) -> None:
        super().__init__(name, limit, DropPolicy.OLDEST, noun=EVENT_NOUN)


#: One service event and many, as the worker's log lines say them.
EVENT_NOUN = ("an event", "events")


def _listener_worker(listener: Listener) -> Worker[ServiceEvent]:
    """A listener with its own feed and thread: an exception is logged, and it goes on."""
    return Worker(f"listener {_name(listener)}", listener, FEED_LIMIT, DropPolicy.OLDEST,
                  noun=EVENT_NOUN)


def _name(listener: Callable[..., object]) -> str:
    owner = getattr(listener, "__self__", None)
    name = getattr(listener, "__qualname__", None) or type(listener).__name__
    return f"{type(owner).__name__}.{listener.__name__}" if owner is not None else name


@dataclass(frozen=True, slots=True)
class _Entry:
    """A callback listener and the worker that calls it."""

    listener: Listener
    worker: Worker[ServiceEvent]


class Dispatcher:
    """The listeners of one service and the feeds of its subscribers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[_Entry] = []
        self._feeds: list[EventFeed] = []

    def add(self, listener: Listener) -> None:
        entry = _Entry(listener, _listener_worker(listener))
        with self._lock:
            self._listeners = [*self._listeners, entry]

    def remove(self, listener: Listener) -> None:
        with self._lock:
            gone = [e for e in self._listeners if e.listener == listener]
            if not gone:
                raise ValueError(f"{_name(listener)} is not a listener")
            self._listeners = [e for e in self._listeners if e is not gone[0]]
        gone[0].worker.close()

    def subscribe(self, name: str = "subscriber", limit: int = FEED_LIMIT) -> EventFeed:
        feed = EventFeed(name, limit)
        with self._lock:
            self._feeds = [*self._feeds, feed]
        return feed

    def unsubscribe(self, feed: EventFeed) -> None:
        with self._lock:
            self._feeds = [f for f in self._feeds if f is not feed]
        feed.close()

    def emit(self, event: ServiceEvent) -> None:
        """Queue `event` for everyone; returns at once (the lists are copied on change)."""
        for entry in self._listeners:
            entry.worker.put(event)
        for feed in self._feeds:
            feed.put(event)

    def flush(self, timeout_s: float) -> list[str]:
        """Wait up to `timeout_s` in all for the listeners to handle what was emitted.

        Returns a description of each listener still busy (empty when all are done).
        """
        deadline = time.monotonic() + timeout_s
        return [_describe_pending(entry) for entry in list(self._listeners)
                if not entry.worker.flush(deadline - time.monotonic())]

    def close(self, timeout_s: float) -> list[str]:
        """Flush (bounded by `timeout_s`), then stop every listener thread.

        Returns what could not be delivered, one description per listener.
        """
        busy = self.flush(timeout_s)
        with self._lock:
            entries, self._listeners = self._listeners, []
            feeds, self._feeds = self._feeds, []
        for entry in entries:
            entry.worker.close()
        for feed in feeds:
            feed.close()
        return busy


def _describe_pending(entry: _Entry) -> str:
    waiting = entry.worker.pending()
    what = f"{len(waiting)} event(s) waiting"
    named = []
    for kind, label in ((VerdictGiven, "the verdicts of duels"),
                        (LaunchFailed, "the failed launches of duels"),
                        (VerdictContested, "the contests of duels")):
        duels = sorted({e.duel_id for e in waiting if isinstance(e, kind)})
        if duels:
            named.append(f"{label} {number_ranges(duels)}")
    if named:
        what += " with " + ", ".join(named)
    return f"{_name(entry.listener)} ({what}, one still in hand)"


def number_ranges(numbers: list[int]) -> str:
    """`[1, 2, 3, 5, 7, 8]` -> `"1-3, 5, 7-8"`: many duels named in a short line."""
    runs: list[list[int]] = []
    for n in sorted(set(numbers)):
        if runs and n == runs[-1][1] + 1:
            runs[-1][1] = n
        else:
            runs.append([n, n])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)
