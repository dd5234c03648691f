"""UNO Mario Kart's Wild Item Box: each item hits exactly whom the rules say."""

from __future__ import annotations

import pytest

from companion.deck.cards import Colour
from companion.table.items import Item, describe, item_of, reveal
from companion.table.turns import Seating, TurnError
from showdown.contract.i18n import set_language

TABLE = Seating(("Ann", "Bob", "Cid", "Dan"))


def test_every_colour_carries_its_item() -> None:
    assert item_of(Colour.RED) is Item.MUSHROOM
    assert item_of(Colour.YELLOW) is Item.BANANA
    assert item_of(Colour.GREEN) is Item.GREEN_SHELL
    assert item_of(Colour.BLUE) is Item.LIGHTNING
    assert item_of(None) is Item.BOB_OMB


def test_mushroom_the_player_goes_again() -> None:
    effect = reveal(TABLE, "Cid", Colour.RED)
    assert effect.plays_again and not effect.draws and not effect.choose_from
    assert describe(effect) == ["Cid takes another turn at once (and draws as usual if they "
                                "have nothing to play)."]


def test_banana_hits_who_played_just_before_in_the_direction_of_play() -> None:
    assert reveal(TABLE, "Cid", Colour.YELLOW).draws == (("Bob", 2),)
    reversed_table = TABLE.reversed()
    effect = reveal(reversed_table, "Cid", Colour.YELLOW)
    assert effect.draws == (("Dan", 2),)
    assert describe(effect) == ["Dan, who played just before Cid, draws 2 cards."]


def test_green_shell_the_player_chooses_one_opponent() -> None:
    effect = reveal(TABLE, "Ann", Colour.GREEN)
    assert effect.choose_from == ("Bob", "Cid", "Dan") and effect.chosen_draws == 1
    assert not effect.draws and not effect.plays_again
    assert describe(effect) == ["Ann chooses one opponent to draw 1 card: Bob, Cid, Dan."]


def test_lightning_everybody_else_draws_one_and_the_player_goes_again() -> None:
    effect = reveal(TABLE.reversed(), "Bob", Colour.BLUE)
    assert effect.draws == (("Ann", 1), ("Dan", 1), ("Cid", 1))  # in the order of play
    assert effect.plays_again
    assert describe(effect) == ["Everybody else draws 1 card: Ann, Dan, Cid.",
                                "Then Bob takes another turn."]


def test_bob_omb_the_player_draws_two_and_names_the_colour() -> None:
    effect = reveal(TABLE, "Dan", None)
    assert effect.draws == (("Dan", 2),) and effect.chooses_colour and not effect.plays_again
    assert describe(effect) == ["Dan draws 2 cards and chooses the colour to be played next."]


def test_two_players_the_banana_hits_the_other_one() -> None:
    assert reveal(Seating(("Ann", "Bob")), "Ann", Colour.YELLOW).draws == (("Bob", 2),)


def test_a_player_not_at_the_table_is_refused() -> None:
    with pytest.raises(TurnError, match="no player 'Eve'"):
        reveal(TABLE, "Eve", Colour.RED)


def test_the_effects_speak_the_tables_language() -> None:
    try:
        set_language("ru")
        assert describe(reveal(TABLE, "Cid", Colour.YELLOW)) == [
            "Bob, ходивший прямо перед Cid, берёт 2 карты."]
        assert Item.BANANA.label == "Банановая кожура"
    finally:
        set_language("en")
