"""What the games file holds of a table, as values: a line of the games list, a stored duel,
a time box with its games, what a change did besides itself. The store (`companion.store`)
reads and writes them; the screens and the commands only read them."""

from __future__ import annotations

from collections.abc import Mapping

from showdown.contract.record import record

#: typing.TYPE_CHECKING without importing typing; the time box's module is imported only
#: by who reads boxes (`game list` of a file without any does not).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from companion.table.timebox import TimeBox


@record
class GameInfo:
    """A line of the games list."""

    id: int
    edition: str
    method: str
    players: tuple[str, ...]
    rounds: int
    created_at: str
    last_played: str
    #: Over by its time box or by its scoring method (`companion.store.game_list`); None
    #: when the file does not say (last written by an older uno-showdown: read the game).
    over: bool | None = None


@record
class Recorded:
    """What a box-aware change did besides the change itself."""

    late: bool = False  # the round was the deal in progress when the time was up
    continued_in: int | None = None  # the game ended; the table plays on in this new game


@record
class BoxedGame:
    """A game's time box, and the game the table plays now (the last one in the box)."""

    box: TimeBox
    current_game_id: int
    game_ids: tuple[int, ...]


@record
class DuelRow:
    """A duel as stored: player names, outcome and reaction times in microseconds."""

    id: int
    after_round: int
    challenger: str
    opponent: str
    cards: int
    outcome: str
    winner: str | None
    loser: str | None
    reaction_us: Mapping[str, int | None]
    recorded_at: str
    #: A press reached the table after the verdict with a stamp that would have changed it.
    contested: bool = False
    #: Where the duel is in the duel log ("<duel number>@<verdict instant>"), if known.
    log_key: str | None = None
    #: The game's duel-write counter when this row was last written (see `Duels.changes`).
    changed: int = 0
    game_id: int | None = None
