"""Who duels whom: the players at the left and right paddles, chosen from the game's seating.

One place for the rules every way of choosing follows: the emulator's duel bar (F6/F7
seat the next player), the headless service told by `uno-showdown duel ANN BOB`, and
whatever later picks the pair from the seating and the direction of play. A pairing
names two different players of the game, or nobody: then the duel is for the seats
("left" and "right"), and its verdict is credited to no player.

Pure: names in, a `Pairing` or a one-sentence `PairingError` out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from showdown.events import Side


class PairingError(ValueError):
    """The names do not make a duel; the message says what to change, in one sentence."""


@dataclass(frozen=True, slots=True)
class Pairing:
    """The players at the left and right paddles; both None for a duel of the seats."""

    left: str | None = None
    right: str | None = None

    @property
    def named(self) -> bool:
        return self.left is not None and self.right is not None

    def name(self, side: Side) -> str:
        """Who sits at `side`, or "Left"/"Right" when nobody is named."""
        who = self.left if side is Side.LEFT else self.right
        return who if who is not None else side.value.title()

    def players(self) -> dict[Side, str]:
        """What `ShowdownService.load(players=...)` takes: empty for the seats."""
        if not self.named:
            return {}
        assert self.left is not None and self.right is not None
        return {Side.LEFT: self.left, Side.RIGHT: self.right}

    def describe(self) -> str:
        if not self.named:
            return "the seats (left and right paddle, nobody credited)"
        return f"{self.left} (left paddle) and {self.right} (right paddle)"


#: Nobody named: the duel is recorded for the paddles, not for players.
SEATS = Pairing()


def choose(seated: Sequence[str], left: str, right: str) -> Pairing:
    """The pairing of `left` and `right`, spelled in any case, if both play in the game."""
    if not seated:
        raise PairingError("there is no game to name players from: start one with "
                           "`uno-showdown game new`, or name nobody to duel for the seats")
    found = []
    for wanted in (left, right):
        match = next((name for name in seated if name.casefold() == wanted.casefold()), None)
        if match is None:
            raise PairingError(f"there is no player {wanted!r} in the game: the players are "
                               f"{', '.join(seated)}")
        found.append(match)
    if found[0] == found[1]:
        raise PairingError(f"{found[0]} cannot duel {found[1]}: name two different players")
    return Pairing(found[0], found[1])


def keep_seated(seated: Sequence[str], current: Pairing) -> Pairing:
    """`current` after the players changed (a new game, a late joiner): whoever still plays
    keeps their paddle, an empty paddle gets the first player not at the other one."""
    if len(seated) < 2:
        return SEATS
    taken = [name if name in seated else None for name in (current.left, current.right)]
    for i, name in enumerate(taken):
        if name is None:
            taken[i] = next(n for n in seated if n not in taken)
    return Pairing(taken[0], taken[1])


def seat_next(seated: Sequence[str], current: Pairing, side: Side) -> Pairing:
    """Seat the next player (in seating order) at `side`, skipping whoever sits at the
    other paddle; with two players that swaps them."""
    if len(seated) < 2:
        return SEATS
    current = keep_seated(seated, current)
    if len(seated) == 2:
        return Pairing(current.right, current.left)
    mine = current.left if side is Side.LEFT else current.right
    other = current.right if side is Side.LEFT else current.left
    index = (seated.index(mine) + 1) % len(seated) if mine in seated else 0
    if seated[index] == other:
        index = (index + 1) % len(seated)
    if side is Side.LEFT:
        return Pairing(seated[index], other)
    return Pairing(other, seated[index])
