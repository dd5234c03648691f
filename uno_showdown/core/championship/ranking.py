"""The standings kept in order from one reading to the next: pure, no I/O.

`ranked` (in `standings`) sorts every player, which costs what the players do; a reader that
reads the standings after every deal (the director, a screen) keeps a `Ranking` instead and
moves it by the few players whose sums changed (`moved`): each is taken out of the kept
order and put back at its new place (a bisection), and only the lines whose rank changed are
made again; the others are shared with the previous ranking (they are immutable). A change
of the players themselves (a withdrawal, the draw's lots, the tie-break) ranks everyone
again (`rank`): that is rare, and what is read then is the whole event anyway.

`moved(rank(...), changes)` equals `rank(...)` of the changed sums, line for line: the
property test in tests/championship/test_kept_sums.py holds it to that.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from uno_showdown.core.championship.settings import TieKey
from uno_showdown.core.championship.standings import Entrant, Line, order_key, result

#: A ranked player's place in the order: its sort key (ending with the player's number).
Key = tuple[object, ...]


@dataclass(frozen=True, slots=True)
class Ranking:
    """Every entrant's line in the standings' order, with what moving it needs."""

    entrants: Mapping[int, Entrant]
    tie_break: tuple[TieKey, ...]
    sums: Mapping[int, tuple[int, int]]  # (points, games) by player number
    keys: tuple[Key, ...]  # the ranked players' keys, in order
    key_of: Mapping[int, Key]  # a ranked player's key, by number
    line_of: Mapping[int, Line]  # every entrant's line, by number
    ranked: tuple[Line, ...]  # the ranked players' lines, rank 1 first
    rest: tuple[Line, ...]  # the unranked (withdrawn, or no game yet), by number
    #: The ranked players with the most points (the luckiest award's candidates), kept so
    #: that the award does not look at every player after each deal.
    most_points: frozenset[int] = frozenset()

    @property
    def lines(self) -> tuple[Line, ...]:
        return self.ranked + self.rest

    @property
    def leaders(self) -> tuple[Line, ...]:
        """The lines of the ranked players with the most points."""
        return tuple(self.line_of[n] for n in sorted(self.most_points))


def _most_points(lines: Iterable[Line]) -> frozenset[int]:
    most: int | None = None
    holders: list[int] = []
    for line in lines:
        if most is None or line.points > most:
            most, holders = line.points, [line.number]
        elif line.points == most:
            holders.append(line.number)
    return frozenset(holders)


def _plain(entrant: Entrant, sums: Mapping[int, tuple[int, int]]) -> Line:
    points, games = sums.get(entrant.number, (0, 0))
    return Line(None, entrant.number, entrant.name, points, games, result(points, games),
                entrant.withdrawn)


def _key(line: Line, entrant: Entrant, tie_break: Sequence[TieKey]) -> Key | None:
    """The player's key in the order, or None when unranked."""
    if line.result is None or line.withdrawn:
        return None
    return order_key(line, entrant, tie_break)


def rank(entrants: Iterable[Entrant], sums: Mapping[int, tuple[int, int]],
         tie_break: Sequence[TieKey]) -> Ranking:
    """Everyone ranked from their sums: what `standings.ranked` returns, kept for `moved`."""
    players = {e.number: e for e in entrants}
    ties = tuple(tie_break)
    keyed: list[tuple[Key, Line]] = []
    rest: list[Line] = []
    for e in players.values():
        line = _plain(e, sums)
        key = _key(line, e, ties)
        if key is None:
            rest.append(line)
        else:
            keyed.append((key, line))
    keyed.sort(key=lambda kl: kl[0])
    ranked = tuple(_with_rank(line, i) for i, (_k, line) in enumerate(keyed, 1))
    rest.sort(key=lambda ln: ln.number)
    line_of = {ln.number: ln for ln in (*ranked, *rest)}
    return Ranking(players, ties, dict(sums), tuple(k for k, _l in keyed),
                   {line.number: k for k, line in keyed}, line_of, ranked, tuple(rest),
                   _most_points(ranked))


def moved(prev: Ranking, changes: Mapping[int, tuple[int, int]]) -> Ranking:
    """`prev` with these players' sums changed ((points, games) now): each changed player
    leaves the order and comes back at its new place; only the lines from the first to the
    last place that holds another player than before are made again (their rank moved), the
    rest are shared with `prev`. O(changed · log players) to place them, and O(lines whose
    rank changed) to make their lines."""
    entrants, ties = prev.entrants, prev.tie_break
    changed = {n: s for n, s in changes.items()
               if n in entrants and s != prev.sums.get(n, (0, 0))}
    if not changed:
        return prev
    sums = dict(prev.sums)
    sums.update(changed)
    keys = list(prev.keys)
    key_of = dict(prev.key_of)
    line_of = dict(prev.line_of)
    first = len(keys)  # the lines before this place are the same as before
    kept_tail = len(keys)  # and so are this many at the end
    rest_moved: set[int] = set()
    for number in changed:
        old = key_of.pop(number, None)
        if old is not None:
            at = bisect_left(keys, old)
            del keys[at]
            first, kept_tail = min(first, at), min(kept_tail, len(keys) - at)
        else:
            rest_moved.add(number)
        line = line_of[number] = _plain(entrants[number], sums)
        key = _key(line, entrants[number], ties)
        if key is None:
            rest_moved.add(number)
            continue
        at = bisect_left(keys, key)
        keys.insert(at, key)
        key_of[number] = key
        first, kept_tail = min(first, at), min(kept_tail, len(keys) - at - 1)
    if len(keys) != len(prev.keys):
        kept_tail = 0  # every rank after the first change moved by the difference
    kept_tail = min(kept_tail, len(keys) - first)  # no ranked line moved: all kept
    made = []
    for i in range(first, len(keys) - kept_tail):
        line = line_of[keys[i][-1]]  # type: ignore[index]  # a key ends with the number
        if line.rank != i + 1:
            line = line_of[line.number] = _with_rank(line, i + 1)
        made.append(line)
    ranked = prev.ranked[:first] + tuple(made)
    if kept_tail:
        ranked += prev.ranked[len(prev.ranked) - kept_tail:]
    rest = prev.rest
    if rest_moved:
        rest = tuple(sorted([*(ln for ln in rest if ln.number not in rest_moved),
                             *(line_of[n] for n in rest_moved if n not in key_of)],
                            key=lambda ln: ln.number))
    return Ranking(entrants, ties, sums, tuple(keys), key_of, line_of, ranked, rest,
                   _moved_most(prev, changed, sums, key_of, ranked))


def _moved_most(prev: Ranking, changed: Mapping[int, tuple[int, int]],
                sums: Mapping[int, tuple[int, int]], key_of: Mapping[int, Key],
                ranked: tuple[Line, ...]) -> frozenset[int]:
    """The players with the most points after `changed`: looked for among everyone only
    when one who had the most lost it (rare); otherwise the changed players alone."""
    holders = prev.most_points
    most = prev.sums[next(iter(holders))][0] if holders else None
    if any(n in holders and (n not in key_of or sums[n][0] != most) for n in changed):
        return _most_points(ranked)
    out = set(holders)
    for n in changed:
        if n not in key_of:
            continue
        points = sums[n][0]
        if most is None or points > most:
            most, out = points, {n}
        elif points == most:
            out.add(n)
    return frozenset(out)


def _with_rank(line: Line, rank: int) -> Line:
    return Line(rank, line.number, line.name, line.points, line.games, line.result,
                line.withdrawn)
