"""The game model: dealer and starter, undo and redo, edits, renames and late joiners."""

from __future__ import annotations

import pytest

from companion.deck.cards import parse_cards
from companion.scoring import Rules
from companion.table.game import Game, GameError, Hand


def cards(text: str) -> Hand:
    return Hand(cards=parse_cards(text))


@pytest.fixture
def game() -> Game:
    g = Game.new("classic", Rules.make("winner"), ["Ann", "Bob", "Cid"])
    g = g.add_round("Ann", {"Bob": cards("r5"), "Cid": cards("wild")})
    return g.add_round("Bob", {"Ann": cards("y9"), "Cid": cards("g1")})


def test_the_deal_passes_left_and_play_starts_left_of_the_dealer(game):
    assert game.dealers == ("Ann", "Bob", "Cid")
    assert game.dealer == "Cid" and game.starter == "Ann"


def test_undo_and_redo_walk_back_and_forth(game):
    back = game.undo()
    assert back.totals == {"Ann": 55, "Bob": 0, "Cid": 0}
    twice = back.undo()
    assert twice.totals == {"Ann": 0, "Bob": 0, "Cid": 0}
    assert twice.redo().redo() == game
    with pytest.raises(GameError, match="undo"):
        twice.undo()
    with pytest.raises(GameError, match="redo"):
        game.redo()


def test_a_new_round_after_undo_drops_the_redo(game):
    g = game.undo().add_round("Cid", {"Ann": cards("r1"), "Bob": cards("r2")})
    assert g.undone == ()
    assert g.totals == {"Ann": 55, "Bob": 0, "Cid": 3}


def test_editing_a_past_round_recomputes_the_totals(game):
    fixed = game.edit_round(1, "Ann", {"Bob": cards("r5 r6"), "Cid": cards("wild")})
    assert fixed.totals["Ann"] == 61
    with pytest.raises(GameError, match="no round 7"):
        game.edit_round(7, "Ann", {})


def test_renaming_a_player_keeps_their_rounds(game):
    renamed = game.rename("bob", "Robert")
    assert renamed.totals == {"Ann": 55, "Robert": 10, "Cid": 0}
    assert renamed.rounds[1].winner == "Robert"
    with pytest.raises(GameError, match="already playing"):
        game.rename("Ann", "cid")


def test_a_late_joiner_plays_from_the_next_round_and_takes_the_deal_in_turn(game):
    g = game.add_player("Dan", seat=1)  # sits between Ann and Bob
    assert g.names == ["Ann", "Dan", "Bob", "Cid"]
    with pytest.raises(GameError, match="no cards or points given for Dan"):
        g.add_round("Ann", {"Bob": cards("r1"), "Cid": cards("r2")})
    g = g.add_round("Ann", {"Bob": cards("r1"), "Cid": cards("r2"), "Dan": cards("r3")})
    assert g.totals["Ann"] == 61 and g.totals["Dan"] == 0
    assert g.rounds_played["Dan"] == 1 and g.rounds_played["Ann"] == 3
    assert g.dealers[-2:] == ("Cid", "Ann")
    with pytest.raises(GameError, match="had not joined"):
        g.edit_round(1, "Ann", {"Bob": cards("r1"), "Cid": cards("r2"), "Dan": cards("r3")})


def test_players_are_checked_when_a_game_starts():
    rules = Rules.make("winner")
    with pytest.raises(GameError, match="2 to 10"):
        Game.new("classic", rules, ["Ann"])
    with pytest.raises(GameError, match="2 to 10"):
        Game.new("classic", rules, [f"P{i}" for i in range(11)])
    with pytest.raises(GameError, match="twice"):
        Game.new("classic", rules, ["Ann", "ann"])
    with pytest.raises(GameError, match="teams of two"):
        Game.new("teams", Rules.make("teams"), ["Ann", "Bob", "Cid"])


def test_counted_points_stand_in_for_cards(game):
    g = game.add_round("Cid", {"Ann": Hand(counted=30), "Bob": Hand(counted=12)})
    assert g.totals["Cid"] == 42
    with pytest.raises(GameError, match="negative"):
        game.add_round("Cid", {"Ann": Hand(counted=-3), "Bob": Hand(counted=12)})


def test_series_is_cumulative_per_player(game):
    assert game.series() == {"Ann": [55, 55], "Bob": [0, 10], "Cid": [0, 0]}
