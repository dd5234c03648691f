"""A last card that makes the next player draw: UNO Mario Kart's end of the round.

Seed 004, "End of the round": "as soon as a player has played their last card the round
ends. If the last card was a Draw Two or a Wild Draw Four, the next player must still draw
those cards" — and they are in that player's hand when the hands are counted. UNO Teams
plays it the same way by default, as its author assumes (seed 003, "Scoring": «Поэтому я
предполагаю, что это правило действует и в командной игре»); a table that does not share
the assumption chooses the `last_draw_off` house rule.

So a round entry asks for the cards drawn and adds them to the next player's hand: the
player after the one who went out in the direction of play, as many cards as the last card
gave (2 for a Draw Two, 4 for a Wild Draw Four).

Pure: a game and cards in, the player and their cards out, or a one-sentence `GameError`.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.deck.cards import Card
from companion.table.game import Game, GameError
from showdown.contract.i18n import _

#: How many cards a last card can make the next player draw.
DRAWN_BY_LAST_CARD = (2, 4)


def last_draw_applies(game: Game) -> bool:
    """Whether a last +2 or +4 still makes the next player draw in this game."""
    return game.edition_key == "mario-kart" or (
        game.edition_key == "teams" and "last_draw_off" not in game.house_rules)


def next_player(game: Game, winner: str) -> str:
    """Who draws for `winner`'s last card: the next player in the direction of play."""
    return game.seating.after(game.player(winner).name)


def last_draw(game: Game, winner: str, drawn: Sequence[Card]) -> tuple[str, tuple[Card, ...]]:
    """The player who drew for the winner's last +2 or +4, and the cards they drew (to count
    in their hand); GameError when the game has no such rule or the count is not 2 or 4."""
    if not last_draw_applies(game):
        raise GameError(
            _("only UNO Mario Kart and UNO Teams (unless last_draw_off) make the next "
              "player draw for a last card: leave --last-draw out"))
    if len(drawn) not in DRAWN_BY_LAST_CARD:
        raise GameError(
            _("a last Draw Two makes the next player draw 2 cards and a Wild Draw Four 4, "
              "not {n}: give the cards they drew").format(n=len(drawn)))
    return next_player(game, winner), tuple(drawn)
