"""Reaction statistics of a game's duels: pure, best and median of the presses that came
after "go" (an early press has a negative reaction and no place in a speed record).

Apart from the duel recorder (`duels`), so `game show` sums up the duels without importing
the recorder and its worker thread's code.
"""

from __future__ import annotations

from collections.abc import Iterable

from companion.table.records import DuelRow
from showdown.contract.record import record


@record
class ReactionStats:
    """One player's duels: how many, how many won, best and median reaction in milliseconds."""

    name: str
    duels: int
    wins: int
    best_ms: float | None
    median_ms: float | None
    #: Of those duels, how many are contested (a press came too late to be counted).
    contested: int = 0


def reaction_stats(
    duels: Iterable[DuelRow], players: Iterable[str] = ()
) -> dict[str, ReactionStats]:
    """Best and median reaction per player over `duels` (players without duels are listed empty)."""
    counts: dict[str, int] = {p: 0 for p in players}
    wins: dict[str, int] = {p: 0 for p in counts}
    times: dict[str, list[int]] = {p: [] for p in counts}
    contested: dict[str, int] = {p: 0 for p in counts}
    for duel in duels:
        for name in (duel.challenger, duel.opponent):
            counts[name] = counts.get(name, 0) + 1
            contested[name] = contested.get(name, 0) + int(duel.contested)
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
            _median_ms(times[name]),
            contested.get(name, 0),
        )
        for name in counts
    }


def _median_ms(times_us: list[int]) -> float | None:
    """The median of `times_us` in milliseconds, None for none. statistics is imported here:
    a game with no timed duel (or a command that shows none) never pays for it."""
    if not times_us:
        return None
    from statistics import median

    return median(times_us) / 1000
