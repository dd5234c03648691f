"""Standings across tables: a pure function of the players (the seating) and the deals.

Seed 000: a player's result is the points scored divided by the games played at the table,
where a "game" is one deal (it ends when someone goes out), and lower is better. Points are
what the championship method gave each player for each deal (their own hand, 0 for whoever
went out), summed over every deal they took part in during the stage, however many games to
500 their table restarted in between.

Deals come as `Deal` records that are idempotent by id and revision: the same deal fed
twice counts once, a later revision of a deal (a correction) replaces the earlier one, and
a record without points (taken back) removes it. So the same function serves the local
games file and deals that arrive from tables elsewhere, in any order, more than once.

Ties on the result are broken by the event's `tie_break` (by default fewer points, then
more games, then the draw's lot). The lot is unique, so every ranked player has a rank of
their own. A player who withdrew, or has played no deal yet, is listed without a rank.

All arithmetic is exact (`fractions.Fraction`); nothing here reads a clock or a file.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, NamedTuple

from championship.core.settings import TieKey
from companion.scoring import points_per_game

if TYPE_CHECKING:
    from companion.table.game import Game

QUALIFYING = "qualifying"
FINAL = "final"


@dataclass(frozen=True, slots=True)
class Entrant:
    """A registered player, as the standings need them."""

    number: int
    name: str
    lot: int | None = None  # from the draw; None before it
    withdrawn: bool = False


@dataclass(frozen=True, slots=True)
class Deal:
    """One deal's points per player number; `points=None` marks a deal taken back."""

    deal_id: str
    revision: int
    stage: str  # QUALIFYING or FINAL
    points: Mapping[int, int] | None


class Line(NamedTuple):
    """A player's line in the standings. A named tuple, not a dataclass: a kept ranking
    (`ranking.moved`) makes again the line of every player whose rank moved after a deal,
    and a tuple is made several times faster."""

    rank: int | None  # None: withdrawn, or no deal played
    number: int
    name: str
    points: int
    games: int
    result: Fraction | None  # points / games; None without a game
    withdrawn: bool = False


def latest(deals: Iterable[Deal]) -> dict[str, Deal]:
    """Each deal's latest revision; the first one seen wins a tie, so feeding a deal twice
    changes nothing."""
    out: dict[str, Deal] = {}
    for deal in deals:
        known = out.get(deal.deal_id)
        if known is None or deal.revision > known.revision:
            out[deal.deal_id] = deal
    return out


def tally(deals: Iterable[Deal], stage: str) -> dict[int, tuple[int, int]]:
    """(points, games) per player number over the stage's live deals."""
    totals: dict[int, tuple[int, int]] = {}
    for deal in latest(deals).values():
        if deal.stage != stage or deal.points is None:
            continue
        for number, pts in deal.points.items():
            points, games = totals.get(number, (0, 0))
            totals[number] = (points + pts, games + 1)
    return totals


#: (points, games) per player number: what the standings are summed from.
Sums = dict[int, tuple[int, int]]


def game_deals(game: Game, number_of: Callable[[str], int | None], stage: str
               ) -> Iterable[Deal]:
    """A game's deals as records keyed by game and round, at the game's revision: each
    player with a hand in the round (the winner too, with 0) took part in the deal."""
    for row in game.history():
        points = {}
        for name in row.hands:
            number = number_of(name)
            if number is not None:
                points[number] = int(row.points.get(name, 0))
        yield Deal(f"{game.id}:{row.number}", game.revision, stage, points)


def last_deal_points(game: Game, number_of: Callable[[str], int | None]) -> dict[int, int]:
    """The newest round's points by player number, as `game_deals` counts them, read from
    the game's tally: O(players), however long the game (a lazily loaded game stays lazy)."""
    score = game.tally.last_score
    assert score is not None and game.rounds
    out = {}
    for name in game.rounds[-1].hands:
        number = number_of(name)
        if number is not None:
            out[number] = int(score.points.get(name, 0))
    return out


def sums_of(deals: Iterable[Mapping[int, int]]) -> Sums:
    """(points, games) per player over deals given as points by player number."""
    totals: Sums = {}
    for points in deals:
        for number, pts in points.items():
            p, g = totals.get(number, (0, 0))
            totals[number] = (p + pts, g + 1)
    return totals


def add_sums(into: Sums, other: Mapping[int, tuple[int, int]], sign: int = 1) -> None:
    """`into` += `other` (or -=, with `sign` -1), player by player."""
    for number, (pts, games) in other.items():
        p, g = into.get(number, (0, 0))
        into[number] = (p + sign * pts, g + sign * games)


def result(points: int, games: int) -> Fraction | None:
    """Points ÷ games, by the championship method's own rule (the table's standings and the
    event's order agree)."""
    return points_per_game(points, games)


def order_key(line: Line, entrant: Entrant, tie_break: Sequence[TieKey]) -> tuple[object, ...]:
    """A ranked line's place in the standings' order (lowest first); ends with the player's
    number, so no two players share one."""
    assert line.result is not None
    # The float first: Python rounds int / int correctly and rounding keeps the order, so
    # it orders as the exact result does, and the exact result decides only between equal
    # floats; a thousand players sort without a million Fraction comparisons. (points /
    # games is the float of the result: the same rational, rounded once.)
    key: list[object] = [line.points / line.games, line.result]
    for k in tie_break:
        if k is TieKey.POINTS:
            key.append(line.points)
        elif k is TieKey.GAMES:
            key.append(-line.games)
        else:
            key.append(entrant.lot if entrant.lot is not None else float("inf"))
    key.append(line.number)
    return tuple(key)


def standings(entrants: Iterable[Entrant], deals: Iterable[Deal], stage: str,
              tie_break: Sequence[TieKey]) -> list[Line]:
    """Every entrant's line for the stage: ranked ones first (lowest result first), then the
    unranked (withdrawn, or no deal yet) by number."""
    return ranked(entrants, tally(deals, stage), tie_break)


def ranked(entrants: Iterable[Entrant], totals: Mapping[int, tuple[int, int]],
           tie_break: Sequence[TieKey]) -> list[Line]:
    """The lines from each player's (points, games), however they were summed: worked out
    from every deal (`standings`) or kept up to date deal by deal in the games file."""
    players = {e.number: e for e in entrants}
    lines = []
    for number, e in players.items():
        points, games = totals.get(number, (0, 0))
        lines.append(Line(None, number, e.name, points, games, result(points, games),
                          e.withdrawn))
    ranked = sorted((ln for ln in lines if ln.result is not None and not ln.withdrawn),
                    key=lambda ln: order_key(ln, players[ln.number], tie_break))
    rest = sorted((ln for ln in lines if ln.result is None or ln.withdrawn),
                  key=lambda ln: ln.number)
    return [_ranked(ln, i) for i, ln in enumerate(ranked, 1)] + rest


def _ranked(line: Line, rank: int) -> Line:
    return Line(rank, line.number, line.name, line.points, line.games, line.result,
                line.withdrawn)


def finalists(lines: Sequence[Line], count: int) -> list[int]:
    """The numbers of the `count` best-ranked players: those above the cut line."""
    return [ln.number for ln in lines if ln.rank is not None][:count]
