"""What the games file holds of a championship, as values: the event, its players, its tables
and its clock, read at one moment. The store (`championship.store.event_store`) reads and writes
them; the pure cores and the screens only read them."""

from __future__ import annotations

from dataclasses import dataclass, field

from championship.core.clock import ClockChange
from championship.core.settings import Settings


@dataclass(frozen=True, slots=True)
class ChampionshipRow:
    id: int
    name: str
    created_at: str
    settings: Settings
    seed: int | None  # the draw's, once drawn
    stale: str | None  # why the draw must be made again; None while it stands


@dataclass(frozen=True, slots=True)
class PlayerRow:
    number: int
    name: str
    registered_at: str
    lot: int | None
    withdrawn_at: str | None

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


@dataclass(frozen=True, slots=True)
class TableRow:
    stage: str
    table: int
    box_id: int
    seats: tuple[int, ...]  # player numbers as seated by the draw (or the final)


@dataclass(frozen=True, slots=True)
class ChampionshipData:
    """Everything stored about one event, read at one moment."""

    event: ChampionshipRow
    players: tuple[PlayerRow, ...]
    tables: tuple[TableRow, ...]
    clock: tuple[ClockChange, ...]
    _by_number: dict[int, PlayerRow] = field(init=False, repr=False, compare=False)
    _by_name: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_number", {p.number: p for p in self.players})
        object.__setattr__(self, "_by_name", {p.name.casefold(): p.number for p in self.players})

    def player(self, number: int) -> PlayerRow | None:
        return self._by_number.get(number)

    def number_of(self, name: str) -> int | None:
        """The number of the player registered under `name` (names are unique, any case)."""
        return self._by_name.get(name.casefold())


@dataclass(frozen=True, slots=True)
class HeldDeal:
    """A reported deal held for the director: why, and what it said."""

    deal_id: str
    stage: str
    table: int
    points: dict[str, int] | None
    reason: str
    at_us: int | None


@dataclass(frozen=True, slots=True)
class AuditRow:
    """One word of the director on a deal: void or restore, who, when (µs), why."""

    seq: int
    deal_id: str
    table: int
    stage: str
    action: str  # "void" or "restore"
    who: str
    at_us: int
    why: str
