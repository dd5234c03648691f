"""How the service's events reach listeners without the loop that owns time ever waiting.

The loop only appends an event to a queue per listener (`EventFeed.put`: a lock held for
an append, never for a listener's work). Each callback listener drains its own feed on a
thread of its own, so a listener that blocks (a games file locked by another program), is
slow or raises delays neither go, a verdict, a launch, nor any other listener; an
exception is logged and the listener goes on hearing later events.

A consumer with a loop of its own (the emulator window, which steps the service on its
main thread) takes a feed with `subscribe()` and drains it when it likes; no thread.

Memory stays bounded: a feed keeps at most `FEED_LIMIT` events. A listener that has not
taken an event for that long is stuck, and the oldest events are dropped with one logged
error (the duel log still holds every duel, and `uno-showdown game duels --recover-from`
takes missing duels back from it).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Callable

from uno_showdown.contract.events import (
    LaunchFailed,
    Listener,
    ServiceEvent,
    VerdictContested,
    VerdictGiven,
)

log = logging.getLogger(__name__)

#: The most events a feed holds for a consumer that does not keep up: weeks of duels.
FEED_LIMIT = 10_000


class EventFeed:
    """A queue of service events for one consumer; `put` never blocks."""

    def __init__(self, name: str, limit: int = FEED_LIMIT) -> None:
        self.name = name
        self.limit = limit
        self._events: deque[ServiceEvent] = deque()
        self._cond = threading.Condition()
        self._put = 0
        self._done = 0  # events a callback listener has finished with
        self.dropped = 0
        self.closed = False

    def __len__(self) -> int:
        return len(self._events)

    def put(self, event: ServiceEvent) -> None:
        with self._cond:
            if self.closed:
                return
            if len(self._events) >= self.limit:
                self._events.popleft()
                self.dropped += 1
                self._done += 1
                if self.dropped == 1:
                    log.error("%s has not taken an event for %d events: dropping the oldest",
                              self.name, self.limit)
            self._events.append(event)
            self._put += 1
            self._cond.notify_all()

    def get(self, timeout_s: float | None = None) -> ServiceEvent | None:
        """The next event, waiting up to `timeout_s`; None on timeout or when closed."""
        with self._cond:
            if not self._cond.wait_for(lambda: self._events or self.closed, timeout_s):
                return None
            if not self._events:
                return None
            return self._events.popleft()

    def drain(self) -> list[ServiceEvent]:
        """Every event waiting, oldest first, without waiting for more."""
        with self._cond:
            out = list(self._events)
            self._events.clear()
            self._done += len(out)
            self._cond.notify_all()
            return out

    def mark_done(self) -> None:
        """The consumer has finished with the event it took last."""
        with self._cond:
            self._done += 1
            self._cond.notify_all()

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until every event put so far has been handled; False on timeout."""
        with self._cond:
            return self._cond.wait_for(lambda: self._done >= self._put, timeout_s)

    def pending(self) -> list[ServiceEvent]:
        """The events not yet taken (for naming what is lost at shutdown)."""
        with self._cond:
            return list(self._events)

    def close(self) -> None:
        with self._cond:
            self.closed = True
            self._cond.notify_all()


class _CallbackListener:
    """A listener with its own feed and thread."""

    def __init__(self, listener: Listener) -> None:
        self.listener = listener
        self.feed = EventFeed(f"listener {_name(listener)}")
        self.thread = threading.Thread(
            target=self._run, name=f"listener {_name(listener)}", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        feed = self.feed
        while True:
            event = feed.get()
            if event is None:
                return
            try:
                self.listener(event)
            except Exception:  # a broken listener must not stop the others, nor itself
                log.exception("listener %s failed on %r", _name(self.listener), event)
            finally:
                feed.mark_done()


def _name(listener: Callable[..., object]) -> str:
    owner = getattr(listener, "__self__", None)
    name = getattr(listener, "__qualname__", None) or type(listener).__name__
    return f"{type(owner).__name__}.{listener.__name__}" if owner is not None else name


class Dispatcher:
    """The listeners of one service and the feeds of its subscribers."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: list[_CallbackListener] = []
        self._feeds: list[EventFeed] = []

    def add(self, listener: Listener) -> None:
        entry = _CallbackListener(listener)
        with self._lock:
            self._listeners = [*self._listeners, entry]

    def remove(self, listener: Listener) -> None:
        with self._lock:
            gone = [e for e in self._listeners if e.listener == listener]
            if not gone:
                raise ValueError(f"{_name(listener)} is not a listener")
            self._listeners = [e for e in self._listeners if e is not gone[0]]
        gone[0].feed.close()

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
            entry.feed.put(event)
        for feed in self._feeds:
            feed.put(event)

    def flush(self, timeout_s: float) -> list[str]:
        """Wait up to `timeout_s` in all for the listeners to handle what was emitted.

        Returns a description of each listener still busy (empty when all are done).
        """
        deadline = time.monotonic() + timeout_s
        busy = []
        for entry in list(self._listeners):
            left = max(0.0, deadline - time.monotonic())
            if not entry.feed.wait_idle(left):
                busy.append(_describe_pending(entry))
        return busy

    def close(self, timeout_s: float) -> list[str]:
        """Flush (bounded by `timeout_s`), then stop every listener thread.

        Returns what could not be delivered, one description per listener.
        """
        busy = self.flush(timeout_s)
        with self._lock:
            entries, self._listeners = self._listeners, []
            feeds, self._feeds = self._feeds, []
        for entry in entries:
            entry.feed.close()
        for feed in feeds:
            feed.close()
        return busy


def _describe_pending(entry: _CallbackListener) -> str:
    waiting = entry.feed.pending()
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
