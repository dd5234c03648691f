"""One bounded queue, and one worker thread on it, for everything the loop hands off.

The loop that owns time must never wait on a listener, a file or a lock, yet what it says
must reach them: the service's events reach each listener (`showdown.service.dispatch`), the duel
log reaches its file (`showdown.service.duel_log`), verdicts reach the games file
(`companion.store.duels`). Each of those is the same shape, so it is written once here:

* `BoundedQueue`: `put` takes a lock only for an append and never waits. It holds at most
  `limit` items; past that the queue's `DropPolicy` says which item goes, every drop is
  counted in `dropped`, a run of drops is logged once as an error when it starts and once
  as a warning when the consumer has caught up again, and `put` hands back the item it
  dropped, so its owner can name what was lost.
* `Worker`: a `BoundedQueue` with a thread of its own (started at the first item) that
  hands each item to `handle`. A handler that raises is logged and the worker goes on
  with the next item. `flush(timeout_s)` waits, at most that long, until everything put
  is handled; `close(timeout_s)` takes nothing more, lets the thread work until the
  deadline, then gives back what it could not handle (never waiting on a thread stuck in
  a file: it is left to the process's exit).

Only the standard library: the contract layer is imported by the service and by the
adapters alike.
"""

from __future__ import annotations

import enum
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Generic, TypeVar

__all__ = ["BoundedQueue", "DropPolicy", "Leftover", "Unfinished", "Worker"]


if TYPE_CHECKING:
    import logging


def _log() -> logging.Logger:
    """This module's logger, looked up when there is something to log: importing logging
    costs every command that opens the games file and logs nothing (a Pi pays per import)."""
    import logging

    return logging.getLogger(__name__)

T = TypeVar("T")


class DropPolicy(enum.Enum):
    """Which item a full queue loses; the only two ways this program drops anything."""

    #: Make room by dropping the oldest item: a live consumer (a window, a listener) wants
    #: the latest news, and one that is stuck only loses the stalest.
    OLDEST = "oldest"
    #: Refuse the new item, and every one after it, until the consumer has worked the
    #: queue down to half its limit (and the owner's `resumes` accepts the item: the duel
    #: log starts again at a duel's first line): what is kept is whole runs, with one gap.
    NEWEST = "newest"


class Unfinished(Exception):
    """Raised by a handler that gives up on its item because the worker is closing (it
    was waiting to try again): the item is given back by `close`, not counted handled."""


class BoundedQueue(Generic[T]):
    """Items for one consumer; `put` never waits. See the module docstring."""

    def __init__(self, name: str, limit: int, policy: DropPolicy = DropPolicy.OLDEST, *,
                 resumes: Callable[[T], bool] | None = None,
                 noun: tuple[str, str] = ("an item", "items")) -> None:
        """`name` names the consumer in what is logged; `noun` is one item and many, as
        said there ("a line", "lines"); `resumes` (NEWEST only) says whether an item may
        end a run of drops once the queue has room again (default: any)."""
        if limit < 1:
            raise ValueError("a queue holds at least one item")
        self.name = name
        self.limit = limit
        self.policy = policy
        self._resumes = resumes
        self._noun = noun
        self._items: deque[T] = deque()
        self._cond = threading.Condition(threading.Lock())
        self._waiters = 0  # threads in `_wait_for`: a put with nobody waiting notifies nobody
        self._put = 0  # items ever taken in
        self._done = 0  # of those, items handled, dropped or given back
        self._dropping = False
        #: Items dropped to keep the bound, ever.
        self.dropped = 0
        self.closed = False

    def __len__(self) -> int:
        return len(self._items)

    def _wait_for(self, predicate: Callable[[], object], timeout_s: float | None = None) -> bool:
        """`Condition.wait_for`, counted (caller holds the lock)."""
        self._waiters += 1
        try:
            return bool(self._cond.wait_for(predicate, timeout_s))
        finally:
            self._waiters -= 1

    def _notify(self) -> None:
        """Wake whoever waits (caller holds the lock); the loop's puts mostly find nobody."""
        if self._waiters:
            self._cond.notify_all()

    def put(self, item: T) -> T | None:
        """Queue `item` at once; returns the item dropped to keep the bound, if any.

        Raises nothing and waits for nothing but the append: a closed queue ignores it.
        """
        with self._cond:
            if self.closed and not self._follows_up():
                return None
            lost = None
            if self._dropping or len(self._items) >= self.limit:
                lost = self._make_room(item)
            if lost is not item:
                self._items.append(item)
                self._put += 1
            self._notify()
            return lost

    def _follows_up(self) -> bool:
        """Whether the caller is the consumer itself queueing what its item left to do (a
        `Worker`'s handler): that is part of the item, so closing must not refuse it."""
        return False

    def _make_room(self, item: T) -> T | None:
        """The drop policy, said once (caller holds the lock)."""
        if self._dropping and len(self._items) <= self.limit // 2 and (
                self.policy is DropPolicy.OLDEST or self._resumes is None
                or self._resumes(item)):
            self._dropping = False
            _log().warning("%s takes %s again; %d %s dropped so far", self.name,
                        self._noun[1], self.dropped, self._noun[1])
        if len(self._items) < self.limit and not (
                self._dropping and self.policy is DropPolicy.NEWEST):
            return None
        if not self._dropping:
            self._dropping = True
            _log().error("%s has not taken %s for %d %s: dropping the %s until it does",
                      self.name, self._noun[0], self.limit, self._noun[1],
                      "oldest" if self.policy is DropPolicy.OLDEST else "new ones")
        self.dropped += 1
        if self.policy is DropPolicy.NEWEST:
            return item
        self._done += 1  # the oldest is gone: whoever waits for it waits no more
        return self._items.popleft()

    def get(self, timeout_s: float | None = None) -> T | None:
        """The next item, waiting up to `timeout_s`; None on timeout or when closed and
        empty. The item is taken, not counted handled: `wait_idle` goes on waiting for it,
        so a consumer that must be waited for takes with `drain` (or is a `Worker`)."""
        with self._cond:
            if not self._wait_for(lambda: self._items or self.closed, timeout_s):
                return None
            return self._items.popleft() if self._items else None

    def drain(self) -> list[T]:
        """Every item waiting, oldest first, taken and counted handled, without waiting."""
        with self._cond:
            return self._take_all()

    def _take_all(self) -> list[T]:
        """`drain`, for a caller that holds the lock."""
        if not self._items:
            return []
        out = list(self._items)
        self._items.clear()
        self._done += len(out)
        self._notify()
        return out

    def wait_idle(self, timeout_s: float) -> bool:
        """Wait until every item put, even while waiting, is handled; False on timeout."""
        with self._cond:
            return self._wait_for(lambda: self._done >= self._put, max(0.0, timeout_s))

    def pending(self) -> list[T]:
        """The items not yet taken (to name what would be lost)."""
        with self._cond:
            return list(self._items)

    def close(self) -> list[T]:
        """Take nothing more; give back what was waiting (counted handled)."""
        with self._cond:
            self.closed = True
            left = list(self._items)
            self._items.clear()
            self._done += len(left)
            self._notify()
            return left


@dataclass
class Leftover(Generic[T]):
    """What a `Worker.close` could not handle in its time."""

    #: Items never handled: queued when the time was up, or given up (`Unfinished`).
    items: list[T] = field(default_factory=list)
    #: The item the thread was still handling at the end (a write stuck in a file).
    in_hand: T | None = None

    @property
    def stuck(self) -> bool:
        return self.in_hand is not None

    def __bool__(self) -> bool:
        return bool(self.items) or self.stuck


class Worker(BoundedQueue[T]):
    """A bounded queue with a thread of its own that hands each item to `handle`."""

    def __init__(self, name: str, handle: Callable[[T], None], limit: int,
                 policy: DropPolicy = DropPolicy.OLDEST, *,
                 resumes: Callable[[T], bool] | None = None,
                 noun: tuple[str, str] = ("an item", "items")) -> None:
        super().__init__(name, limit, policy, resumes=resumes, noun=noun)
        self._handle = handle
        self._thread: threading.Thread | None = None
        self._in_hand: T | None = None
        self._unfinished: list[T] = []
        #: Set by `close`: a handler waiting to try again waits on it (`wait_closing`).
        self._closing = threading.Event()
        #: Items whose handler raised (each logged).
        self.failed = 0

    def put(self, item: T) -> T | None:
        lost = super().put(item)
        if self._thread is None and not self.closed:
            self._start()
        return lost

    def _follows_up(self) -> bool:
        # While closing, the thread still works until the deadline: an item its handler
        # queues (the rest of the item in hand) is taken, and `close` waits for it too.
        return self._thread is not None and threading.current_thread() is self._thread

    def _start(self) -> None:
        with self._cond:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name=self.name, daemon=True)
        self._thread.start()  # outside the lock: a caller never waits on a thread's start

    def _run(self) -> None:
        while True:
            with self._cond:
                self._wait_for(lambda: self._items or self.closed)
                if not self._items:
                    return
                item = self._in_hand = self._items.popleft()
            try:
                self._handle(item)
            except Unfinished:
                with self._cond:
                    self._unfinished.append(item)
            except Exception:  # a broken handler must not stop the items after it
                self.failed += 1
                _log().exception("%s failed on %r", self.name, item)
            finally:
                with self._cond:
                    self._in_hand = None
                    self._done += 1
                    self._notify()

    def in_hand(self) -> T | None:
        """The item the thread is handling now, if any."""
        with self._cond:
            return self._in_hand

    def wait_closing(self, timeout_s: float) -> bool:
        """For a handler: wait up to `timeout_s` before trying again; True if closing."""
        return self._closing.wait(timeout_s)

    def flush(self, timeout_s: float) -> bool:
        """Wait (at most `timeout_s`) until every item put is handled; False if some are
        still waiting. For owners and tests, never for the loop that owns time."""
        return self.wait_idle(timeout_s)

    def close(self, timeout_s: float = 0.0, *,  # type: ignore[override]
              grace_s: float = 0.0) -> Leftover[T]:
        """Take nothing more, let the thread work until `timeout_s` is up, then stop it.

        Returns what was not handled: the items still queued then, those a handler gave up
        on, and the one in hand if the thread had not let go of it after `grace_s` more
        (a write stuck in a file: the thread is left to the process's exit).
        """
        deadline = time.monotonic() + max(0.0, timeout_s)
        with self._cond:
            self.closed = True
            self._notify()
        self.wait_idle(deadline - time.monotonic())
        self._closing.set()
        left = Leftover(items=super().close())
        thread = self._thread
        if thread is not None:
            thread.join(max(0.0, deadline - time.monotonic()) + grace_s)
        with self._cond:
            left.items = self._unfinished + left.items
            self._unfinished = []
            if thread is not None and thread.is_alive():
                left.in_hand = self._in_hand
        return left
