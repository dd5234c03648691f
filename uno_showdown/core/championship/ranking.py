"""The standings kept in order from one reading to the next: pure, no I/O.

`ranked` (in `standings`) sorts every player, which costs what the players do; a reader that
reads the standings after every deal (the director, a screen) keeps a `Ranking` instead and
moves it by the few players whose sums changed (`moved`): each is taken out of the kept
order and put back at its new place (a bisection), and only the lines whose rank changed are
made again; the others are shared with the previous ranking (they are immutable). A change
of the players themselves (a withdrawal, the draw's lots, the tie-break) ranks everyone
again (`rank`): that is rare, and what is read then is the whole event anyway.

A line carries its rank, so a deal that moves a player past a hundred others makes a
hundred lines again: that is the part of a move that grows with the players (a tuple each).

`moved(rank(...), changes)` equals `rank(...)` of the changed sums, line for line: the
property tests in tests/championship/test_ranking.py and test_kept_sums.py hold it to that.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, TypeVar, cast

from uno_showdown.core.championship.settings import TieKey
from uno_showdown.core.championship.standings import Entrant, Line, order_key, result

#: A ranked player's place in the order: its sort key (ending with the player's number).
Key = tuple[object, ...]
V = TypeVar("V")
#: How many changed entries a `Layered` holds on top of its base before it is made whole.
LAYER = 64


class Layered(Mapping[int, V]):
    """A mapping by player number that rankings share: a base dict that is never changed
    once made, and the entries changed since on top (None marks one taken out). `updated`
    copies the top alone, and makes the base again only once the top holds `LAYER` entries:
    a move costs O(changed) amortised, where copying a dict of every player would cost
    O(players), and no ranking ever sees another's change."""

    __slots__ = ("_base", "_top")

    def __init__(self, base: dict[int, V], top: dict[int, V | None] | None = None) -> None:
        self._base = base
        self._top: dict[int, V | None] = top or {}

    def get(self, key: int, default: Any = None) -> Any:
        top = self._top
        if key in top:
            found = top[key]
            return default if found is None else found
        return self._base.get(key, default)

    def __getitem__(self, key: int) -> V:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return cast(V, found)

    def __contains__(self, key: object) -> bool:
        return isinstance(key, int) and self.get(key) is not None

    def __iter__(self) -> Iterator[int]:
        return iter(self._whole())

    def __len__(self) -> int:
        return len(self._whole())

    def _whole(self) -> dict[int, V]:
        whole = dict(self._base)
        for key, value in self._top.items():
            if value is None:
                whole.pop(key, None)
            else:
                whole[key] = value
        return whole

    def updated(self, changes: Mapping[int, V | None]) -> Layered[V]:
        """A new mapping with these entries changed (None: taken out); this one stays."""
        top = {**self._top, **changes}
        if len(top) < LAYER:
            return Layered(self._base, top)
        return Layered(Layered(self._base, top)._whole())


@dataclass(frozen=True, slots=True)
class Ranking:
    """Every entrant's line in the standings' order, with what moving it needs."""

    entrants: Mapping[int, Entrant]
    tie_break: tuple[TieKey, ...]
    sums: Layered[tuple[int, int]]  # (points, games) by player number
    #: The ranked players' keys, in order: a list made for this ranking and never changed
    #: after (a tuple would cost one more pass over every player per move).
    keys: list[Key]
    key_of: Layered[Key]  # a ranked player's key, by number
    #: Every line: the ranked players' first (rank 1 first), then the unranked (withdrawn,
    #: or no game yet) by number; one tuple, made in one pass.
    lines: tuple[Line, ...]
    #: The ranked players with the most points (the luckiest award's candidates), kept so
    #: that the award does not look at every player after each deal.
    most_points: frozenset[int] = frozenset()

    @property
    def ranked(self) -> tuple[Line, ...]:
        return self.lines[:len(self.keys)]

    @property
    def rest(self) -> tuple[Line, ...]:
        return self.lines[len(self.keys):]

    @property
    def leaders(self) -> tuple[Line, ...]:
        """The lines of the ranked players with the most points."""
        return tuple(self.lines[bisect_left(self.keys, self.key_of[n])]
                     for n in sorted(self.most_points))


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
    return Ranking(players, ties, Layered(dict(sums)), [k for k, _l in keyed],
                   Layered({line.number: k for k, line in keyed}), ranked + tuple(rest),
                   _most_points(ranked))


def moved(prev: Ranking, changes: Mapping[int, tuple[int, int]]) -> Ranking:
    """`prev` with these players' sums changed ((points, games) now): each changed player
    leaves the order and comes back at its new place (a bisection); the lines of the players
    between keep their objects where their rank did not move, and are made again (a tuple
    each) where it did. O(changed · log players) to place them, and O(lines whose rank
    changed) to make their lines; the sums and keys by player are `Layered`, so they are not
    copied whole."""
    entrants, ties = prev.entrants, prev.tie_break
    changed = {n: s for n, s in changes.items()
               if n in entrants and s != prev.sums.get(n, (0, 0))}
    if not changed:
        return prev
    sums = prev.sums.updated(changed)
    keys = list(prev.keys)
    key_moves: dict[int, Key | None] = {}
    left: list[int] = []  # where the changed players stood, in `prev.ranked`
    rest_moved: set[int] = set()
    for number in changed:
        old = prev.key_of.get(number)
        if old is None:
            rest_moved.add(number)
            continue
        key_moves[number] = None
        left.append(bisect_left(prev.keys, old))
        del keys[bisect_left(keys, old)]
    fresh: dict[int, Line] = {}
    for number in changed:
        line = fresh[number] = _plain(entrants[number], sums)
        key = _key(line, entrants[number], ties)
        if key is None:
            rest_moved.add(number)
            continue
        keys.insert(bisect_left(keys, key), key)
        key_moves[number] = key
    key_of = prev.key_of.updated(key_moves)
    came = sorted((bisect_left(keys, k), n) for n, k in key_moves.items() if k is not None)
    rest = prev.rest if rest_moved else None  # None: the same lines, taken whole
    if rest is not None:
        rest = tuple(sorted([*(ln for ln in rest if ln.number not in rest_moved),
                             *(fresh[n] for n in rest_moved if n not in key_of)],
                            key=lambda ln: ln.number))
    lines = _relined(prev.lines, len(prev.keys), sorted(left),
                     [(at, fresh[n]) for at, n in came], rest)
    return Ranking(entrants, ties, sums, keys, key_of, lines,
                   _moved_most(prev, changed, sums, key_of, lines))


def _relined(before: tuple[Line, ...], ranked: int, left: Sequence[int],
             came: Sequence[tuple[int, Line]], rest: tuple[Line, ...] | None
             ) -> tuple[Line, ...]:
    """The lines after the players at `left` (places among `before`'s first `ranked`, the
    ranked ones) left and those in `came` (their new place, their line) came back: the
    players who stayed keep their order and fill the other places; a run of them whose rank
    did not move is `before`'s own slice, any other is made again with its new ranks. The
    unranked follow: `rest`, or `before`'s own when None."""
    runs = []  # the stayers' runs in `before`: [start, end)
    start = 0
    for at in left:
        if at > start:
            runs.append([start, at])
        start = at + 1
    if start < ranked:
        runs.append([start, ranked])
    pieces: list[tuple[Line, ...]] = []
    place = 0
    run = 0
    for at, line in [*came, (ranked - len(left) + len(came), None)]:
        while place < at:
            begin, end = runs[run]
            take = min(end - begin, at - place)
            if begin == place:  # the same ranks as before
                pieces.append(before[begin:begin + take])
            else:  # the same lines, each rank moved by the same difference (a ranked
                shift = place - begin  # line has a rank)
                pieces.append(tuple([_new_tuple(Line, (ln[0] + shift,  # type: ignore[operator]
                                                       *ln[1:]))
                                     for ln in before[begin:begin + take]]))
            place += take
            if begin + take == end:
                run += 1
            else:
                runs[run][0] = begin + take
        if line is not None:
            pieces.append((_with_rank(line, at + 1),))
            place += 1
    pieces.append(before[ranked:] if rest is None else rest)
    if len(pieces) == 1:
        return pieces[0]
    return tuple(chain.from_iterable(pieces))


def _moved_most(prev: Ranking, changed: Mapping[int, tuple[int, int]],
                sums: Mapping[int, tuple[int, int]], key_of: Mapping[int, Key],
                lines: tuple[Line, ...]) -> frozenset[int]:
    """The players with the most points after `changed`: looked for among everyone only
    when one who had the most lost it (rare); otherwise the changed players alone."""
    holders = prev.most_points
    most = prev.sums[next(iter(holders))][0] if holders else None
    if any(n in holders and (n not in key_of or sums[n][0] != most) for n in changed):
        return _most_points(ln for ln in lines if ln.rank is not None)
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
    return _new_tuple(Line, (rank, *line[1:]))


_new_tuple = tuple.__new__
