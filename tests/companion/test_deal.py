"""Starting a deal: the highest-card draw for the first dealer, and the first card's action."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.deck.cards import parse_card
from companion.table.deal import (
    FirstCardEffect,
    describe_opening,
    draw_rank,
    first_card,
    highest_card,
    parse_draw,
)
from companion.table.turns import Direction, TurnError

PLAYERS = ("Ann", "Bob", "Cid", "Dan")


def test_action_cards_and_wilds_rank_zero_in_the_draw() -> None:
    assert [draw_rank(parse_card(c)) for c in ("r9", "g0", "yskip", "b+2", "wild+4",
                                               "itembox")] == [9, 0, 0, 0, 0, 0]
    assert [parse_draw(t) for t in ("7", "r7", "grev", "itembox")] == [7, 7, 0, 0]
    with pytest.raises(TurnError, match="not a drawn card"):
        parse_draw("12")


def test_the_highest_card_deals() -> None:
    result = highest_card(PLAYERS, {"Ann": [4], "Bob": [9], "Cid": [0], "Dan": [7]})
    assert result.dealer == "Bob" and result.waiting == ()


def test_until_everyone_has_drawn_the_draw_waits_for_them() -> None:
    result = highest_card(PLAYERS, {"Ann": [4], "cid": [9]})
    assert result.dealer is None and result.waiting == ("Bob", "Dan")
    assert result.contenders == PLAYERS and result.tied_on is None


def test_a_tie_is_drawn_again_by_the_tied_players_only() -> None:
    first = highest_card(PLAYERS, {"Ann": [9], "Bob": [3], "Cid": [9], "Dan": [5]})
    assert first.dealer is None
    assert first.contenders == ("Ann", "Cid") and first.waiting == ("Ann", "Cid")
    assert first.tied_on == 9 and first.turn == 1
    again = highest_card(PLAYERS, {"Ann": [9, 2], "Bob": [3], "Cid": [9, 2], "Dan": [5]})
    assert again.dealer is None and again.waiting == ("Ann", "Cid") and again.turn == 2
    done = highest_card(PLAYERS, {"Ann": [9, 2, 0], "Bob": [3], "Cid": [9, 2, 6], "Dan": [5]})
    assert done.dealer == "Cid"


def test_a_card_drawn_by_someone_out_of_the_tie_is_a_slip_not_ignored() -> None:
    with pytest.raises(TurnError, match="Bob was not tied for the highest card, so drew no "
                                        "card number 2"):
        highest_card(PLAYERS, {"Ann": [9, 1], "Bob": [3, 4], "Cid": [9, 2], "Dan": [5]})
    with pytest.raises(TurnError, match="Ann was not tied"):
        highest_card(PLAYERS, {"Ann": [9, 1], "Bob": [3], "Cid": [4], "Dan": [5]})
    with pytest.raises(TurnError, match="no player 'Eve'"):
        highest_card(PLAYERS, {"Eve": [9]})
    with pytest.raises(TurnError, match="ranks 0 to 9"):
        highest_card(PLAYERS, {"Ann": [10]})


@given(st.lists(st.integers(0, 9), min_size=8, max_size=8), st.integers(2, 4))
def test_the_dealer_is_always_one_of_the_highest(ranks: list[int], n: int) -> None:
    players = PLAYERS[:n]
    draws: dict[str, list[int]] = {p: [ranks[i]] for i, p in enumerate(players)}
    result = highest_card(players, draws)
    best = max(r[0] for r in draws.values())
    tied = [p for p in players if draws[p][0] == best]
    if len(tied) == 1:
        assert result.dealer == tied[0]
    else:
        assert result.dealer is None and result.contenders == tuple(tied)
        for j, p in enumerate(tied):  # the redraw: distinct ranks settle it
            draws[p].append(j)
        assert highest_card(players, draws).dealer == tied[-1]


def opening(card: str, edition: str = "mario-kart", rules: tuple[str, ...] = ()):
    return first_card(edition, rules, parse_card(card), "Ann", "Bob", PLAYERS)


def test_mario_kart_first_card_actions_as_the_rules_say() -> None:
    number = opening("g7")
    assert (number.effect, number.starter, number.direction) == (
        FirstCardEffect.NONE, "Bob", Direction.CLOCKWISE)
    reverse = opening("yrev")
    assert (reverse.effect, reverse.starter, reverse.direction) == (
        FirstCardEffect.DEALER_STARTS, "Ann", Direction.COUNTERCLOCKWISE)
    assert describe_opening(reverse) == ["Ann plays first, and play goes to the right."]
    draw_two = opening("b+2")
    assert (draw_two.effect, draw_two.hit, draw_two.starter) == (
        FirstCardEffect.DRAW_TWO, "Bob", "Cid")
    assert describe_opening(draw_two) == ["Bob draws 2 cards and misses the turn.",
                                          "Cid starts, and play goes to the left."]
    skip = opening("rskip")
    assert (skip.effect, skip.hit, skip.starter) == (FirstCardEffect.SKIP, "Bob", "Cid")
    item_box = opening("itembox")
    assert (item_box.effect, item_box.starter) == (FirstCardEffect.DEALER_COLOUR, "Bob")
    assert describe_opening(item_box)[0] == "Ann (the dealer) chooses the colour Bob must match."
    four = opening("wild+4")
    assert (four.effect, four.starter) == (FirstCardEffect.RESHUFFLE, None)


def test_classic_decks_start_only_on_a_number_unless_the_house_rule_says_otherwise() -> None:
    for edition in ("classic", "showdown", "h2o"):
        assert opening("rrev", edition).effect is FirstCardEffect.TURN_ANOTHER
        assert opening("wild", edition).effect is FirstCardEffect.TURN_ANOTHER
        assert opening("r3", edition).starter == "Bob"
        ruled = opening("rrev", edition, ("first_card_action",))
        assert ruled.effect is FirstCardEffect.DEALER_STARTS and ruled.starter == "Ann"
        assert opening("wild", edition, ("first_card_action",)).effect is \
            FirstCardEffect.DEALER_COLOUR


def test_teams_ignore_an_action_card_and_turn_another() -> None:
    assert opening("gskip", "teams").effect is FirstCardEffect.TURN_ANOTHER
    assert opening("gskip", "teams", ("first_card_action",)).effect is \
        FirstCardEffect.TURN_ANOTHER


def test_the_first_card_acts_on_whoever_would_start() -> None:
    """Under the lazy count the last winner starts: a Skip skips them, a Reverse lets the
    player to their right begin."""
    skip = first_card("mario-kart", (), parse_card("rskip"), "Ann", "Cid", PLAYERS)
    assert (skip.hit, skip.starter) == ("Cid", "Dan")
    reverse = first_card("mario-kart", (), parse_card("rrev"), "Ann", "Cid", PLAYERS)
    assert reverse.starter == "Bob"
