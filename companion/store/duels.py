"""Showdown duels in the game: record each verdict the service announces, and sum up reactions.

The showdown service tells its listeners about every verdict (`VerdictGiven`), with the
player names the duel was loaded with (`players`: side -> name). `DuelRecorder` turns each
verdict into a stored duel of the current game. The verdict does not wait for the slower
press, so the service follows it with `ReactionsTimed` (both reaction times); the recorder
then completes the stored duel's times, and `VerdictContested` marks it contested. Aborted
duels are not recorded: nobody played them. The reaction statistics are in `duel_stats`.
"""

from __future__ import annotations

import threading
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from companion.store.errors import StoreBusyError, StoreError
from companion.store.games import Store
from companion.table.records import DuelRow
from showdown.contract.i18n import _
from showdown.contract.worker import DropPolicy, Unfinished, Worker

if TYPE_CHECKING:
    # The event types are imported when a duel is heard: `game show` and `game list` open
    # the recorder but hear none, and pay for no import.
    import logging

    from showdown.contract.events import Side, VerdictGiven


def _log() -> logging.Logger:
    """This module's logger, looked up when there is something to log: importing logging
    costs every command that opens the games file and logs nothing (a Pi pays per import)."""
    import logging

    return logging.getLogger(__name__)


def _wall_clock() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def log_key(duel_id: int, decided_at_us: int | None) -> str | None:
    """A duel's name in the duel log: its number there and the instant of its verdict.

    Stored with the duel, so taking duels back from the log never records one twice.
    """
    return None if decided_at_us is None else f"{duel_id}@{decided_at_us}"


#: How long a failed write waits before the next try: doubling from the first to the last.
RETRY_FIRST_S, RETRY_MAX_S = 0.5, 2.0
#: How long the recorder's own connection waits for another program's lock per try.
BUSY_TIMEOUT_S = 1.0
#: How many recorded duels the recorder remembers, for their late reaction times.
REMEMBERED = 64


@dataclass
class PendingDuel:
    """A verdict on its way to the games file, with what was learnt since."""

    service_duel_id: int
    game_id: int
    after_round: int
    challenger: str
    opponent: str
    sides: tuple[Side, Side]  # the challenger's and the opponent's side
    cards: int
    outcome: str
    winner: str | None
    loser: str | None
    reaction_us: list[int | None]  # challenger, opponent
    recorded_at: str
    log_key: str | None
    contested: bool = False

    def launch_failed(self) -> None:
        """The unit never confirmed the launch: nobody won, nobody takes the cards."""
        from showdown.contract.events import Outcome

        self.outcome = Outcome.LAUNCH_FAILED.value
        self.winner = self.loser = None

    def describe(self) -> str:
        return _("duel {number} ({challenger} vs {opponent})").format(
            number=self.service_duel_id, challenger=self.challenger, opponent=self.opponent)


@dataclass(frozen=True, slots=True)
class _Update:
    """What was learnt of a duel already stored: both reaction times (challenger's,
    opponent's), that a late press contests it, that its launch failed."""

    duel_id: int
    reactions: tuple[int | None, int | None] | None = None
    contested: bool = False
    launch_failed: bool = False


#: The most verdicts and updates waiting for the games file before new ones are dropped
#: (`DropPolicy.NEWEST`): weeks of duels at one table, far past any lock another program
#: holds; the duel log holds every duel all the same.
QUEUE_LIMIT = 10_000

_Job = PendingDuel | _Update


class DuelRecorder:
    """A service listener that stores every verdict as a duel of the current game.

    It never makes the service's dispatcher wait on the games file: an event only queues
    work for, or updates work queued for, a worker of its own (`showdown.contract.worker.Worker`),
    which writes it through its own connection, so a games file locked by another program
    holds up nothing else (not the screen, which reads through the app's connection). A
    write that fails because the file cannot be written just now is tried again, with
    growing pauses, until it succeeds: a duel is not dropped for a locked file (only past
    `QUEUE_LIMIT` waiting, and then said). `close()` waits a bounded time for what is
    pending, then names what is still not recorded in one line; the duel log holds every
    duel, and `uno-showdown game duels --recover-from LOG` takes them back.

    `current_game` says, at each verdict, which game it belongs to and how many rounds
    that game has (the duel belongs to the round being played); None: no game open.
    `on_recorded` is told each stored duel (from the recorder's thread).
    """

    def __init__(
        self,
        store_path: str | Path,
        current_game: Callable[[], tuple[int, int] | None],
        *,
        on_recorded: Callable[[DuelRow], None] | None = None,
        clock: Callable[[], str] = _wall_clock,
        busy_timeout_s: float = BUSY_TIMEOUT_S,
        limit: int = QUEUE_LIMIT,
    ) -> None:
        self.store_path = Path(store_path)
        self.current_game = current_game
        self.on_recorded = on_recorded
        self.clock = clock
        self.busy_timeout_s = busy_timeout_s
        #: Guards what a queued verdict learns before it is written, and `_stored`.
        self._lock = threading.Lock()
        self._work: Worker[_Job] = Worker("duel recorder", self._write, limit,
                                          DropPolicy.NEWEST, noun=("a duel", "duels"))
        #: service duel id -> its verdict, while it waits for the file (a service numbers
        #: its duels from 1 again when it restarts: the newest is the one updated)
        self._pending_of: dict[int, PendingDuel] = {}
        #: service duel id -> (stored duel id, challenger side, opponent side), newest last.
        self._stored: OrderedDict[int, tuple[int, Side, Side]] = OrderedDict()
        #: Verdicts dropped past the queue's limit, described (the latest few).
        self._dropped: deque[str] = deque(maxlen=REMEMBERED)
        self._store: Store | None = None
        self.failures = 0  # writes that failed and were tried again

    # -- events (the dispatcher's thread) --

    def __call__(self, event: object) -> None:
        from showdown.contract.events import (
            LaunchFailed,
            ReactionsTimed,
            VerdictContested,
            VerdictGiven,
        )

        if isinstance(event, VerdictGiven):
            self._verdict(event)
        elif isinstance(event, ReactionsTimed):
            self._update(event.duel_id, reactions=event.reaction_us)
        elif isinstance(event, VerdictContested):
            self._update(event.duel_id, contested=True)
        elif isinstance(event, LaunchFailed):
            self._update(event.duel_id, launch_failed=True)

    def _verdict(self, event: VerdictGiven) -> None:
        from showdown.contract.events import Outcome

        result = event.result
        if result.outcome is Outcome.ABORTED:
            return  # nobody played it
        names: Mapping[Side, str] = event.players
        challenger = names.get(event.challenger)
        opponent = names.get(event.opponent)
        game = self.current_game()
        if not challenger or not opponent:  # a duel of the seats: nobody is credited
            _log().info("duel %d named no players: not recorded with a game", event.duel_id)
            return
        if game is None:
            _log().warning("duel %d not recorded with a game: no game is open", event.duel_id)
            return
        pending = PendingDuel(
            event.duel_id, game[0], game[1], challenger, opponent,
            (event.challenger, event.opponent), event.cards, result.outcome.value,
            names.get(result.winner) if result.winner is not None else None,
            names.get(result.loser) if result.loser is not None else None,
            [result.reaction_us.get(event.challenger), result.reaction_us.get(event.opponent)],
            self.clock(), log_key(event.duel_id, result.decided_at_us),
        )
        with self._lock:
            self._pending_of[event.duel_id] = pending
        self._queue(pending)

    def _queue(self, job: _Job) -> None:
        lost = self._work.put(job)
        if isinstance(lost, PendingDuel):
            with self._lock:
                self._dropped.append(lost.describe())
                if self._pending_of.get(lost.service_duel_id) is lost:
                    del self._pending_of[lost.service_duel_id]

    def _update(self, service_duel_id: int, *, reactions: Mapping[Side, int | None] | None
                = None, contested: bool = False, launch_failed: bool = False) -> None:
        with self._lock:
            pending = self._pending_of.get(service_duel_id)
            if pending is not None:  # not written yet: write it complete
                if reactions is not None:
                    for i, side in enumerate(pending.sides):
                        if reactions.get(side) is not None:
                            pending.reaction_us[i] = reactions.get(side)
                pending.contested = pending.contested or contested
                if launch_failed:
                    pending.launch_failed()
                return
            stored = self._stored.get(service_duel_id)
            if stored is None:
                return  # a duel that was not recorded (aborted, no players)
            duel_id, challenger, opponent = stored
            times = None
            if reactions is not None:
                times = (reactions.get(challenger), reactions.get(opponent))
        self._queue(_Update(duel_id, times, contested, launch_failed))

    # -- the writer (the worker's thread) --

    def _write(self, job: _Job) -> None:
        """Write one job, trying again with growing pauses while the file is busy."""
        pause = RETRY_FIRST_S
        while True:
            try:
                store = self._connection()
                if isinstance(job, PendingDuel):
                    self._write_duel(store, job)
                else:
                    self._write_update(store, job)
                return
            except StoreBusyError as exc:
                self.failures += 1
                # Once is news; the tries that follow only while it lasts.
                import logging

                _log().log(logging.WARNING if pause == RETRY_FIRST_S else logging.INFO,
                           "cannot record duels just now (%s); trying again in %.1f s",
                           exc, pause)
                if self._work.wait_closing(pause):
                    raise Unfinished from exc
                pause = min(RETRY_MAX_S, pause * 2)

    def _connection(self) -> Store:
        if self._store is None:
            try:
                self._store = Store(self.store_path, busy_timeout_s=self.busy_timeout_s)
            except StoreError as exc:  # locked while it migrates, or gone: try again later
                raise StoreBusyError(str(exc)) from exc
        return self._store

    def _write_update(self, store: Store, job: _Update) -> None:
        if job.reactions is not None:
            store.duels.set_reactions(job.duel_id, *job.reactions)
        if job.contested:
            store.duels.set_contested(job.duel_id)
        if job.launch_failed:
            store.duels.set_launch_failed(job.duel_id)
        self._tell(store, job.duel_id)

    def _write_duel(self, store: Store, p: PendingDuel) -> None:
        with self._lock:  # a snapshot: times may still arrive while it is written
            times = list(p.reaction_us)
            contested = p.contested
            outcome, winner, loser = p.outcome, p.winner, p.loser
        try:
            duel_id = store.duels.add(
                p.game_id, p.after_round, p.challenger, p.opponent, p.cards, outcome,
                winner, loser, times[0], times[1], p.recorded_at, contested=contested,
                log_key=p.log_key,
            )
        except StoreBusyError:
            raise
        except StoreError as exc:  # the data refuses it (a player renamed, a game deleted)
            _log().warning("%s not recorded with game %d: %s", p.describe(), p.game_id, exc)
            with self._lock:
                self._forget(p)
            return
        later: _Update | None = None
        with self._lock:
            self._forget(p)
            self._stored[p.service_duel_id] = (duel_id, p.sides[0], p.sides[1])
            while len(self._stored) > REMEMBERED:
                self._stored.popitem(last=False)
            failed_since = p.outcome != outcome  # learnt while writing
            if p.reaction_us != times or p.contested != contested or failed_since:
                later = _Update(duel_id, (p.reaction_us[0], p.reaction_us[1]),
                                p.contested and not contested, failed_since)
        if later is not None:
            self._queue(later)  # before this job counts done: a flush waits for it too
        self._tell(store, duel_id)

    def _forget(self, p: PendingDuel) -> None:
        if self._pending_of.get(p.service_duel_id) is p:
            del self._pending_of[p.service_duel_id]

    def _tell(self, store: Store, duel_id: int) -> None:
        if self.on_recorded is None:
            return
        row = store.duels.get(duel_id)  # one row: O(1) in the duels stored
        if row is not None:
            self.on_recorded(row)

    # -- waiting and closing (any thread) --

    def pending(self) -> list[str]:
        """The duels not yet in the games file, described for a person."""
        in_hand = self._work.in_hand()
        jobs = ([in_hand] if in_hand is not None else []) + self._work.pending()
        return [job.describe() for job in jobs if isinstance(job, PendingDuel)]

    def flush(self, timeout_s: float) -> bool:
        """Wait until everything pending is written; False if that took over `timeout_s`."""
        return self._work.flush(timeout_s)

    def close(self, timeout_s: float = 3.0) -> list[str]:
        """Write what is pending (waiting at most `timeout_s`), then stop.

        Returns the duels still not recorded, described for a person (empty: all written):
        those dropped past the queue's limit, and those still waiting at the end.
        """
        left = self._work.close(timeout_s, grace_s=self.busy_timeout_s + 1.0)
        jobs = ([left.in_hand] if left.in_hand is not None else []) + left.items
        with self._lock:
            named = list(self._dropped)
        named += [job.describe() for job in jobs if isinstance(job, PendingDuel)]
        if self._store is not None and not left.stuck:
            self._store.close()
            self._store = None
        return named
