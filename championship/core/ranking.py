"""The standings kept in order from one reading to the next: pure, no I/O.

`ranked` (in `standings`) sorts every player, which costs what the players do; a reader that
reads the standings after every deal (the director, a screen) keeps a `Ranking` instead and
moves it by the few players whose sums changed (`moved`): each is taken out of the kept
order and put back at its new place (a bisection), and only its line is made again; the
others are shared with the previous ranking (they are immutable). A change
of the players themselves (a withdrawal, the draw's lots, the tie-break) ranks everyone
again (`rank`): that is rare, and what is read then is the whole event anyway.

A line carries its rank, and a deal that moves a player past a hundred others shifts a
hundred ranks by one: the ranking does not make those lines again, it holds them as they
were and a reader's `Lines` puts a line's rank right when it is read (see `Lines`), so a
move costs the same however far a player went.

`moved(rank(...), changes)` equals `rank(...)` of the changed sums, line for line: the
property tests in tests/championship/test_ranking.py and test_kept_sums.py hold it to that.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from typing import Any, TypeVar, cast, overload

from championship.core.settings import TieKey
from championship.core.standings import Entrant, Line, order_key, result

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


class Lines(Sequence[Line]):
    """A ranking's lines as one sequence, each `Line` carrying its rank: the ranked
    players' first (rank 1 first), then the unranked by number.

    The ranked lines are held in order without keeping their rank up to date (`held`): a
    deal that moves a player past a hundred others shifts a hundred ranks by one, and
    making those hundred lines again would cost what the players do. A held line whose
    rank is not its place is made again when it is read (its rank is its place: every
    ranked player has a rank of its own), and put back, so it is made once. The places
    that may hold such a line are one span (`stale`): reading every line (`iter`, as the
    page does) makes again only those, then hands out the held lines as they are.
    It equals any sequence of the same lines (a tuple, a list, another `Lines`)."""

    __slots__ = ("_held", "_rest", "_stale")

    def __init__(self, held: list[Line], rest: tuple[Line, ...], stale: list[int]) -> None:
        self._held = held
        self._rest = rest
        self._stale = stale

    def __len__(self) -> int:
        return len(self._held) + len(self._rest)

    @overload
    def __getitem__(self, index: int) -> Line: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[Line, ...]: ...

    def __getitem__(self, index: int | slice) -> Line | tuple[Line, ...]:
        if isinstance(index, slice):
            return tuple(self[i] for i in range(*index.indices(len(self))))
        held = self._held
        ranked = len(held)
        if index < 0:
            index += ranked + len(self._rest)
        if index >= ranked:
            return self._rest[index - ranked]
        if index < 0:
            raise IndexError(index)
        line = held[index]
        if line[0] != index + 1:
            line = held[index] = _with_rank(line, index + 1)
        return line

    def __iter__(self) -> Iterator[Line]:
        self._settle()
        return chain(self._held, self._rest)

    def _settle(self) -> None:
        """Every held line in the stale span with its rank: after this the held lines are
        the lines as they are read."""
        lo, hi = self._stale
        if lo >= hi:
            return
        held = self._held
        for at in range(lo, min(hi, len(held))):
            line = held[at]
            if line[0] != at + 1:
                held[at] = _with_rank(line, at + 1)
        self._stale[:] = [0, 0]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (Lines, tuple, list)):
            return len(self) == len(other) and list(self) == list(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Lines({list(self)!r})"


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
    #: The ranked players' lines in the same order, their ranks possibly stale (`Lines`):
    #: a list made for this ranking, changed after only to put a line's rank right.
    held: list[Line]
    #: The unranked (withdrawn, or no game yet) by number.
    rest: tuple[Line, ...]
    #: The span [lo, hi) of `held` where a line's rank may not be its place.
    stale: list[int]
    #: The ranked players with the most points (the luckiest award's candidates), kept so
    #: that the award does not look at every player after each deal.
    most_points: frozenset[int] = frozenset()

    @property
    def lines(self) -> Lines:
        """Every line: the ranked players' first (rank 1 first), then the unranked by
        number."""
        return Lines(self.held, self.rest, self.stale)

    @property
    def ranked(self) -> tuple[Line, ...]:
        return self.lines[:len(self.keys)]

    @property
    def leaders(self) -> tuple[Line, ...]:
        """The lines of the ranked players with the most points."""
        lines = self.lines
        return tuple(lines[bisect_left(self.keys, self.key_of[n])]
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
    held = [_with_rank(line, i) for i, (_k, line) in enumerate(keyed, 1)]
    rest.sort(key=lambda ln: ln.number)
    return Ranking(players, ties, Layered(dict(sums)), [k for k, _l in keyed],
                   Layered({line.number: k for k, line in keyed}), held, tuple(rest),
                   [0, 0], _most_points(held))


def moved(prev: Ranking, changes: Mapping[int, tuple[int, int]]) -> Ranking:
    """`prev` with these players' sums changed ((points, games) now): each changed player
    leaves the order and comes back at its new place (a bisection), with its line made
    again; the players between keep their line objects, whose ranks are put right only
    when read (`Lines`). O(changed · log players) to place them, and one copy of the keys
    and of the lines by reference (a block of pointers each); nothing is made per line
    whose rank moved. The sums and keys by player are `Layered`, so they are not copied
    whole."""
    entrants, ties = prev.entrants, prev.tie_break
    changed = {n: s for n, s in changes.items()
               if n in entrants and s != prev.sums.get(n, (0, 0))}
    if not changed:
        return prev
    sums = prev.sums.updated(changed)
    # The stale span before the lines: a reader may put `prev`'s lines right meanwhile,
    # and a span read after their copy could say so of lines copied before.
    old_stale = (prev.stale[0], prev.stale[1])
    keys = list(prev.keys)
    held = list(prev.held)
    key_moves: dict[int, Key | None] = {}
    rest_moved: set[int] = set()
    touched: list[int] = []  # the places taken from or put in, each as it was then
    for number in changed:
        old = prev.key_of.get(number)
        if old is None:
            rest_moved.add(number)
            continue
        key_moves[number] = None
        at = bisect_left(keys, old)
        del keys[at]
        del held[at]
        touched.append(at)
    fresh: dict[int, Line] = {}
    for number in changed:
        line = fresh[number] = _plain(entrants[number], sums)
        key = _key(line, entrants[number], ties)
        if key is None:
            rest_moved.add(number)
            continue
        at = bisect_left(keys, key)
        keys.insert(at, key)
        held.insert(at, line)  # rank None: made with its rank when read
        key_moves[number] = key
        touched.append(at)
    key_of = prev.key_of.updated(key_moves)
    rest = prev.rest
    if rest_moved:
        rest = tuple(sorted([*(ln for ln in rest if ln.number not in rest_moved),
                             *(fresh[n] for n in rest_moved if n not in key_of)],
                            key=lambda ln: ln.number))
    return Ranking(entrants, ties, sums, keys, key_of, held, rest,
                   _stale(old_stale, len(prev.held), touched, len(held)),
                   _moved_most(prev, changed, sums, key_of, held))


def _stale(old: tuple[int, int], before: int, touched: Sequence[int], ranked: int
           ) -> list[int]:
    """The span of the new ranking's held lines whose rank may not be their place: from
    the first place taken from or put in (nothing before it moved), up to the last one
    and as many more as there were moves (what a line after it can have shifted), or to
    the end when the ranked players are not as many as before; and `prev`'s own stale
    span (`old`, over `before` ranked lines), widened by as much."""
    if not touched:
        lo, hi = ranked, ranked
    elif ranked != before:
        lo, hi = min(touched), ranked
    else:
        lo, hi = min(touched), max(touched) + len(touched) + 1
    old_lo, old_hi = old
    if old_lo < old_hi:
        lo, hi = min(lo, old_lo), max(hi, old_hi + len(touched))
    return [lo, min(hi, ranked)]


def _moved_most(prev: Ranking, changed: Mapping[int, tuple[int, int]],
                sums: Mapping[int, tuple[int, int]], key_of: Mapping[int, Key],
                held: Sequence[Line]) -> frozenset[int]:
    """The players with the most points after `changed`: looked for among everyone only
    when one who had the most lost it (rare); otherwise the changed players alone."""
    holders = prev.most_points
    most = prev.sums[next(iter(holders))][0] if holders else None
    if any(n in holders and (n not in key_of or sums[n][0] != most) for n in changed):
        return _most_points(held)  # the ranked players (a stale rank does not matter)
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
