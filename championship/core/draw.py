"""The seat draw: who plays in which flight, at which table, in which seat.

Seed 000: "every player gets a number at registration, then a draw seats the players at
tables", at most 7 to a table, and "with many players, qualifying is two flights ... so that
every participant plays". So:

* one flight when everyone fits at the bar's tables at once, else two; the first flight
  takes the larger half (23 players: 12 then 11); more than two flights are refused;
* a flight uses as few tables as seat its players (the seed plays "in teams of 7"), or with
  `spread` as many of the bar's tables as give everyone a partner, filled evenly: tables
  differ by at most one player, none above the table size, none below 2;
* the order is a shuffle of the player numbers by a seeded generator, so the same seed and
  the same players give the same draw; each player's place in that order is their lot (1 =
  drawn first), the last tie-break of the standings;
* seats are dealt round the tables in the drawn order, so seat 1 of each table (who deals
  the first deal) is the first player drawn to it.

Pure: no clock, no file; the seed is chosen by the caller.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType

from championship.core.errors import ChampionshipError
from championship.core.i18n import _

#: The most flights a qualifying can have (the seed's "two rounds of 45 minutes").
MAX_FLIGHTS = 2
#: The fewest players a table can play with.
MIN_AT_TABLE = 2


@dataclass(frozen=True, slots=True)
class Table:
    number: int  # 1-based within its flight: the bar's table
    players: tuple[int, ...]  # player numbers in seating order (seat 1 deals first)


@dataclass(frozen=True, slots=True)
class Flight:
    number: int  # 1 or 2
    tables: tuple[Table, ...]

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(p for t in self.tables for p in t.players)


@dataclass(frozen=True, slots=True)
class Draw:
    seed: int
    flights: tuple[Flight, ...]
    lots: Mapping[int, int]  # player number -> lot (1 = drawn first)


def flight_sizes(players: int, tables: int, table_size: int,
                 spread: bool = False) -> tuple[int, ...]:
    """How many play in each flight; ChampionshipError when they cannot be seated."""
    if players < MIN_AT_TABLE:
        raise ChampionshipError(
            _("a draw needs at least 2 players and {n} can play: register more players "
              "first").format(n=players))
    seats = tables * table_size
    if players <= seats:
        sizes: tuple[int, ...] = (players,)
    elif players <= MAX_FLIGHTS * seats:
        sizes = ((players + 1) // 2, players // 2)
    else:
        raise ChampionshipError(
            _("{n} players do not fit in two flights at {tables} tables of {size} ({seats} "
              "seats a flight): add tables with `event set --tables N`").format(
                n=players, tables=tables, size=table_size, seats=seats))
    for size in sizes:
        table_sizes(size, tables, table_size, spread)
    return sizes


def table_sizes(players: int, tables: int, table_size: int,
                spread: bool = False) -> tuple[int, ...]:
    """The players at each table of one flight, filled evenly: as few tables as seat them,
    or with `spread` as many as the bar has and the players fill two at a time."""
    count = -(-players // table_size)
    if spread:
        count = max(count, min(tables, players // MIN_AT_TABLE))
    if count > tables or players < MIN_AT_TABLE * count:
        raise ChampionshipError(
            _("{n} players cannot be seated at tables of at most {size} with at least 2 at "
              "each: change the table size with `event set --table-size N`").format(
                n=players, size=table_size))
    base, extra = divmod(players, count)
    return tuple(base + 1 if i < extra else base for i in range(count))


def make_draw(numbers: Sequence[int], tables: int, table_size: int, seed: int,
              spread: bool = False) -> Draw:
    """Draw `numbers` (the players who play) into flights and tables with `seed`."""
    order = sorted(set(numbers))
    sizes = flight_sizes(len(order), tables, table_size, spread)
    random.Random(seed).shuffle(order)
    lots = MappingProxyType({number: i + 1 for i, number in enumerate(order)})
    flights: list[Flight] = []
    start = 0
    for f, size in enumerate(sizes, 1):
        drawn = order[start:start + size]
        start += size
        per_table = table_sizes(size, tables, table_size, spread)
        seated: list[list[int]] = [[] for _ in per_table]
        t = 0
        for number in drawn:  # deal round the tables, skipping the full ones
            while len(seated[t]) >= per_table[t]:
                t = (t + 1) % len(seated)
            seated[t].append(number)
            t = (t + 1) % len(seated)
        flights.append(Flight(f, tuple(Table(i + 1, tuple(p)) for i, p in enumerate(seated))))
    return Draw(seed, tuple(flights), lots)
