"""Showdown duels in the game: record each verdict the service announces, and sum up reactions.

The showdown service tells its listeners about every verdict (`VerdictGiven`), with the
player names the duel was loaded with (`players`: side -> name). `DuelRecorder` turns each
verdict into a stored duel of the current game. The verdict does not wait for the slower
press, so the service follows it with `ReactionsTimed` (both reaction times); the recorder
then completes the stored duel's times. Aborted duels are not recorded: nobody
played them. Reaction statistics are pure: best and median of the presses that came after
"go" (an early press has a negative reaction and no place in a speed record).
"""

from __future__ import annotations

import logging
import statistics
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime

from companion.store import DuelRow, Store, StoreError
from showdown.duel import Outcome
from showdown.service import ReactionsTimed, VerdictGiven

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ReactionStats:
    """One player's duels: how many, how many won, best and median reaction in milliseconds."""

    name: str
    duels: int
    wins: int
    best_ms: float | None
    median_ms: float | None


def reaction_stats(
    duels: Iterable[DuelRow], players: Iterable[str] = ()
) -> dict[str, ReactionStats]:
    """Best and median reaction per player over `duels` (players without duels are listed empty)."""
    counts: dict[str, int] = {p: 0 for p in players}
    wins: dict[str, int] = {p: 0 for p in counts}
    times: dict[str, list[int]] = {p: [] for p in counts}
    for duel in duels:
        for name in (duel.challenger, duel.opponent):
            counts[name] = counts.get(name, 0) + 1
            wins.setdefault(name, 0)
            times.setdefault(name, [])
            us = duel.reaction_us.get(name)
            if us is not None and us >= 0:
                times[name].append(us)
        if duel.winner is not None:
            wins[duel.winner] = wins.get(duel.winner, 0) + 1
    return {
        name: ReactionStats(
            name,
            counts[name],
            wins.get(name, 0),
            min(times[name]) / 1000 if times[name] else None,
            statistics.median(times[name]) / 1000 if times[name] else None,
        )
        for name in counts
    }


def _wall_clock() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class DuelRecorder:
    """A service listener that stores every verdict as a duel of game `game_id`.

    `after_round` says how many rounds the game has at the moment (the duel belongs to the
    round being played); `on_recorded` is told each stored duel, e.g. to refresh a screen.
    """

    def __init__(
        self,
        store: Store,
        game_id: int,
        *,
        after_round: Callable[[], int] = lambda: 0,
        on_recorded: Callable[[DuelRow], None] | None = None,
        clock: Callable[[], str] = _wall_clock,
    ) -> None:
        self.store = store
        self.game_id = game_id
        self.after_round = after_round
        self.on_recorded = on_recorded
        self.clock = clock
        # service duel id -> (stored duel id, challenger side, opponent side)
        self._stored: dict[int, tuple[int, object, object]] = {}
        self._early_times: dict[int, Mapping[object, int | None]] = {}

    def __call__(self, event: object) -> None:
        if isinstance(event, ReactionsTimed):
            self._reactions(event.duel_id, event.reaction_us)
            return
        if not isinstance(event, VerdictGiven):
            return
        result = event.result
        if result.outcome is Outcome.ABORTED:
            return
        names: Mapping[object, str] = event.players
        challenger = names.get(event.challenger)
        opponent = names.get(event.opponent)
        if not challenger or not opponent:  # a duel of the seats: nobody is credited
            log.info("duel %d named no players: not recorded with the game", event.duel_id)
            return
        try:
            duel_id = self.store.add_duel(
                self.game_id,
                self.after_round(),
                challenger,
                opponent,
                event.cards,
                result.outcome.value,
                names.get(result.winner) if result.winner is not None else None,
                names.get(result.loser) if result.loser is not None else None,
                result.reaction_us.get(event.challenger),
                result.reaction_us.get(event.opponent),
                self.clock(),
            )
        except StoreError as exc:  # a name not in the game, or the file cannot be written
            log.warning("duel %d not recorded with game %d: %s", event.duel_id, self.game_id, exc)
            return
        self._stored[event.duel_id] = (duel_id, event.challenger, event.opponent)
        early = self._early_times.pop(event.duel_id, None)
        if early is not None:
            self._reactions(event.duel_id, early)
        else:
            self._tell(duel_id)

    def _reactions(self, service_duel_id: int, reaction_us: Mapping[object, int | None]) -> None:
        stored = self._stored.get(service_duel_id)
        if stored is None:  # times before the verdict: keep them for it
            self._early_times[service_duel_id] = reaction_us
            return
        duel_id, challenger, opponent = stored
        try:
            self.store.set_duel_reactions(
                duel_id, reaction_us.get(challenger), reaction_us.get(opponent)
            )
        except StoreError as exc:  # the verdict is saved; only the slower time is lost
            log.warning("reaction times of duel %d not saved: %s", service_duel_id, exc)
            return
        self._tell(duel_id)

    def _tell(self, duel_id: int) -> None:
        if self.on_recorded is not None:
            row = next(d for d in self.store.duels(self.game_id) if d.id == duel_id)
            self.on_recorded(row)
