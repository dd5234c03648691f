"""The paddles' side of a duel: which player sits at the left paddle and which at the right.

Who faces whom is the rules' business, and the rules live in one place, the companion's
`companion.table.turns` (the seating, the direction of play, a showdown card's next player, a
Wild Showdown's or a by-hand choice, names found by `companion.table.names.name_key`): the Table
view, the emulator's duel bar (which takes the Table view's proposal) and the headless
`uno-showdown duel` command all ask it. This module only puts the chosen two at the paddles,
for the duel bar and the headless table: a `Pairing` names two players, or nobody, and then
the duel is for the seats ("left" and "right") and its verdict is credited to no player.
`seat_next` is the duel bar's F6/F7 (the next player in seating order at one paddle),
built on the rules' `Seating`, so a name is found the one way everywhere.

Pure: names in, a `Pairing` out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.table.turns import Seating, TurnError
from showdown.contract.events import Side
from showdown.contract.i18n import N_, _

#: What the paddles are called when nobody sits at them, translated when shown.
SIDE_NAMES = {Side.LEFT: N_("Left"), Side.RIGHT: N_("Right")}


def side_name(side: Side) -> str:
    """"Left" or "Right", in the table's language."""
    return _(SIDE_NAMES[side])


class PairingError(ValueError):
    """Players cannot be named at all (no game, no score kept); the message says what to do,
    in one sentence."""


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
        return who if who is not None else side_name(side)

    def players(self) -> dict[Side, str]:
        """What `ShowdownService.load(players=...)` takes: empty for the seats."""
        if not self.named:
            return {}
        assert self.left is not None and self.right is not None
        return {Side.LEFT: self.left, Side.RIGHT: self.right}

    def describe(self) -> str:
        if not self.named:
            return _("the seats (left and right paddle, nobody credited)")
        return _("{left} (left paddle) and {right} (right paddle)").format(
            left=self.left, right=self.right)


#: Nobody named: the duel is recorded for the paddles, not for players.
SEATS = Pairing()


def _found(seating: Seating, name: str | None) -> str | None:
    """`name` as seated (`Seating.find`: the one name rule), or None if not at the table."""
    if name is None:
        return None
    try:
        return seating.find(name)
    except TurnError:
        return None


def keep_seated(seated: Sequence[str], current: Pairing) -> Pairing:
    """`current` after the players changed (a new game, a late joiner, a rename): whoever
    still plays keeps their paddle, an empty paddle gets the first player not at the other
    one. Players are found by the companion's one name rule (`companion.table.turns.Seating`)."""
    if len(seated) < 2:
        return SEATS
    seating = Seating(tuple(seated))
    taken = [_found(seating, name) for name in (current.left, current.right)]
    if taken[0] is not None and taken[0] == taken[1]:
        taken[1] = None
    for i, name in enumerate(taken):
        if name is None:
            taken[i] = next(n for n in seated if n not in taken)
    return Pairing(taken[0], taken[1])


def seat_next(seated: Sequence[str], current: Pairing, side: Side) -> Pairing:
    """Seat the next player in seating order (`Seating.after`, clockwise: the duel bar's
    F6/F7 step round the table, whatever the direction of play) at `side`, skipping
    whoever sits at the other paddle; with two players that swaps them."""
    if len(seated) < 2:
        return SEATS
    current = keep_seated(seated, current)
    if len(seated) == 2:
        return Pairing(current.right, current.left)
    mine = current.left if side is Side.LEFT else current.right
    other = current.right if side is Side.LEFT else current.left
    assert mine is not None and other is not None  # keep_seated seats both
    seating = Seating(tuple(seated))
    chosen = seating.after(mine)
    if chosen == other:
        chosen = seating.after(chosen)
    if side is Side.LEFT:
        return Pairing(chosen, other)
    return Pairing(other, chosen)
