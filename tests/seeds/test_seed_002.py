"""Seed 002, UNO Showdown: each checkable clause as a test named after its heading
(Contents, Setup, Gameplay, Action cards, Wild cards, Showdowns, End of the round,
Scoring, Winning)."""

from __future__ import annotations

import pytest

from companion.deck.editions import get_edition
from companion.table.seed_rules import SEED_002
from companion.table.turns import (
    Direction,
    Seating,
    TurnError,
    last_card_duel,
    showdown_card,
    wild_showdown,
)
from tests.seeds.conftest import Cli, rule

TABLE = Seating(("Ann", "Bob", "Cid", "Dan"))


def test_contents_112_cards_with_four_wild_showdowns() -> None:
    deck = get_edition("showdown")
    assert deck.size == 112
    assert sum(n for c, n in deck.counts.items() if c.is_wild) == 12


def test_setup_seven_cards_and_the_player_left_of_the_dealer_goes_first(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "showdown", "--method", "winner", "--players",
           "Ann,Bob,Cid")
    assert "Bob starts, and play goes to the left." in cli.ok("game", "first-card", "r5")


def test_setup_the_first_card_is_our_inference_and_says_so() -> None:
    first = rule("002", "The first card")
    assert first.source.is_inference
    assert "seed 002 only says to turn the top card over" in first.source.label()


def test_gameplay_a_player_may_draw_instead_of_playing() -> None:
    assert "they may draw instead" in rule("002", "Drawing instead of playing").text


def test_action_cards_draw_two_the_next_player_cannot_play_a_card(cli: Cli) -> None:
    text = rule("002", "Draw Two").text
    assert "misses the turn: they cannot play a card, not even another Draw Two" in text
    cli.ok("game", "new", "--edition", "showdown", "--method", "winner", "--players",
           "Ann,Bob,Cid")
    sheet = cli.ok("game", "rules")
    assert "a Draw Two of any colour" not in sheet  # the classic escape is not this seed's
    assert "[seed 002, Action cards]" in sheet


def test_wild_cards_wild_draw_four_the_player_chooses_the_colour() -> None:
    assert "chooses the colour to follow; the next player draws four" in rule(
        "002", "Wild Draw Four").text


def test_wild_cards_wild_showdown_chooses_opponent_and_one_to_three_cards() -> None:
    duel = wild_showdown(TABLE, "Ann", "Cid", 3)
    assert (duel.challenger, duel.opponent, duel.cards, duel.wild) == ("Ann", "Cid", 3, True)
    with pytest.raises(TurnError, match="1 to 3 cards"):
        wild_showdown(TABLE, "Ann", "Cid", 4)


def test_showdowns_a_showdown_card_faces_the_next_player_in_turn() -> None:
    assert showdown_card(TABLE, "Bob", 2).opponent == "Cid"
    assert showdown_card(Seating(TABLE.players, Direction.COUNTERCLOCKWISE), "Bob",
                         2).opponent == "Ann"


def test_showdowns_the_side_lines_and_the_early_press_are_on_the_sheet() -> None:
    text = rule("002", "The duel").text
    assert "presses before the countdown ends loses at once" in text
    assert "whoever has more cards on their side loses" in text


def test_end_of_the_round_a_last_showdown_card_must_win_its_duel(cli: Cli) -> None:
    assert not last_card_duel("Ann", [], 0, said=False).won
    cli.ok("game", "new", "--edition", "showdown", "--method", "winner", "--players",
           "Ann,Bob")
    status, out, _err = cli("game", "round", "--winner", "Ann", "--hand", "Bob: r5",
                            "--showdown", "lost")
    assert status == 1 and "No round recorded" in out


def test_end_of_the_round_uno_forgotten_costs_two_cards() -> None:
    assert "they draw two cards" in rule("002", "«UNO!»").text


def test_scoring_the_winner_collects_wild_showdown_40(cli: Cli) -> None:
    assert cli.ok("points", "--edition", "showdown", "showdown", "wild", "b+2", "r7") == "117\n"


def test_winning_the_first_to_500(cli: Cli) -> None:
    _s, _o, err = cli("game", "new", "--edition", "showdown", "--method", "winner",
                      "--players", "Ann,Bob")
    assert "to 500" in err


def test_every_rule_says_whose_word_it_is() -> None:
    seeds = {r.source.seed for r in SEED_002 if not (r.source.is_inference or r.source.official)}
    assert seeds == {"002"}
    # seed 002 says a showdown must take place on a last showdown card and gives no number
    # of cards: "must win it" and "1, 2 or 3" are the official sheet's
    assert [r.title for r in SEED_002 if r.source.official] == ["A showdown card last",
                                                               "Cards in a duel"]
    assert "(1, 2 or 3)" not in rule("002", "Wild Showdown").text
    assert [r.title for r in SEED_002 if r.source.is_inference] == ["The challenge",
                                                                   "The first card"]
