"""Each scoring method against worked examples, and the card notation and decks behind them."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.deck.cards import (
    Card,
    CardError,
    Colour,
    format_cards,
    parse_card,
    parse_cards,
)
from companion.deck.editions import EDITIONS, get_edition
from companion.scoring import Rules, RulesError, hand_value
from companion.table.game import Game, GameError, Hand


def cards(text: str) -> Hand:
    return Hand(cards=parse_cards(text))


def test_the_notation_reads_any_case_and_every_face():
    assert parse_card("R5") == Card("5", Colour.RED)
    assert parse_card("gSkip") == Card("skip", Colour.GREEN)
    assert parse_card("y+2") == Card("+2", Colour.YELLOW)
    assert parse_card("brev") == Card("rev", Colour.BLUE)
    for wild in ("wild", "wild+4", "showdown", "itembox", "team+4", "teamplay"):
        assert parse_card(wild.upper()) == Card(wild)
    assert format_cards(parse_cards("r5, gskip  WILD")) == "r5 gskip wild"


@given(st.lists(st.sampled_from(["r5", "gskip", "wild", "-", "", " ", ",", ";", "\t", "\n",
                                 "\u00a0", "\u2003", ",;", " - "]), max_size=12))
def test_a_hand_splits_on_spaces_commas_and_semicolons(pieces):
    """What `parse_cards` splits on is what its documented pattern, `[\\s,;]+`, matches
    (any Unicode space too); a lone `-` is no card."""
    text = "".join(pieces)
    words = [w for w in re.split(r"[\s,;]+", text.strip()) if w and w != "-"]
    try:
        expected = tuple(parse_card(w) for w in words)
    except CardError as exc:  # pieces run together ("r5r5"): the same word is refused
        with pytest.raises(CardError, match=re.escape(str(exc))):
            parse_cards(text)
    else:
        assert parse_cards(text) == expected


@pytest.mark.parametrize("bad", ["x5", "r10", "wild+3", "skip", "r"])
def test_an_unreadable_card_is_named_in_the_error(bad):
    with pytest.raises(CardError, match=re.escape(repr(bad))):
        parse_card(bad)


@pytest.mark.parametrize(("edition", "size"),
                         [("classic", 108), ("showdown", 112), ("mario kart", 112), ("teams", 112)])
def test_decks_have_the_printed_number_of_cards(edition, size):
    assert get_edition(edition).size == size


def test_a_decks_copies_of_a_card_are_what_its_cards_list():
    """`copies` and `holds` answer without building the deck's cards: they agree with the
    deck built, for every card of any deck and for a face no deck holds."""
    every = {c for e in EDITIONS.values() for c in e.cards()} | {Card("skip"), Card("zzz")}
    for edition in EDITIONS.values():
        for card in every:
            built = edition.counts.get(card, 0) or edition.spares.get(card, 0)
            assert edition.copies(card) == built, (edition.key, card)
            assert edition.holds(card) == (card in edition.cards()), (edition.key, card)


def test_a_card_missing_from_the_edition_is_an_error_that_names_it():
    with pytest.raises(CardError, match=r"itembox.*showdown"):
        get_edition("showdown").parse_hand("r5 itembox")
    with pytest.raises(CardError, match="wild "):
        get_edition("mario-kart").parse_hand("wild")
    with pytest.raises(CardError, match=r"showdown .*classic"):
        get_edition("classic").parse_hand("showdown")


def test_more_copies_than_the_deck_holds_is_an_error():
    with pytest.raises(CardError, match="2 × r0"):
        get_edition("classic").parse_hand("r0 r0")
    assert len(get_edition("classic").parse_hand("r1 r1")) == 2


def test_card_values_and_a_wild_showdown_counted_as_40():
    rules = Rules.make("winner")
    assert hand_value(parse_cards("showdown"), rules) == 40
    assert hand_value(parse_cards("r9 b0 gskip yrev r+2"), rules) == 69
    assert hand_value(parse_cards("wild wild+4 itembox team+4 teamplay"), rules) == 250


def test_a_lone_zero_is_worth_50_only_with_the_option():
    assert hand_value(parse_cards("r0"), Rules.make("own")) == 0
    assert hand_value(parse_cards("r0"), Rules.make("own", modifiers=["lone_zero_50"])) == 50
    assert hand_value(parse_cards("r0 b0"), Rules.make("own", modifiers=["lone_zero_50"])) == 0


def test_winner_collects_everyone_elses_hands_and_reaches_500():
    game = Game.new("showdown", Rules.make("winner"), ["Ann", "Bob", "Cid"])
    game = game.add_round("Ann", {"Bob": cards("r5 gskip"), "Cid": cards("showdown")})
    assert game.totals == {"Ann": 65, "Bob": 0, "Cid": 0}
    for _ in range(4):
        game = game.add_round("Bob", {"Ann": cards("wild"), "Cid": cards("wild+4")})
    assert game.totals["Bob"] == 400 and not game.verdict.over
    game = game.add_round("Bob", {"Ann": cards("wild"), "Cid": cards("wild+4")})
    assert game.totals["Bob"] == 500 and game.verdict.over
    assert game.verdict.winners == ("Bob",)
    with pytest.raises(GameError, match="over"):
        game.add_round("Ann", {"Bob": cards("r1"), "Cid": cards("r2")})


def test_own_hand_charges_each_player_and_the_one_at_200_loses():
    game = Game.new("classic", Rules.make("own"), ["Ann", "Bob", "Cid"])
    game = game.add_round("Ann", {"Bob": cards("wild wild+4 r5"), "Cid": cards("y3")})
    assert game.totals == {"Ann": 0, "Bob": 105, "Cid": 3}
    game = game.add_round("Cid", {"Ann": cards("r1"), "Bob": cards("wild wild")})
    assert game.verdict.over
    assert game.verdict.losers == ("Bob",) and set(game.verdict.winners) == {"Ann", "Cid"}
    assert [s.name for s in game.standings()] == ["Ann", "Cid", "Bob"]


def test_championship_result_is_points_per_round_lower_is_better_and_winner_deals():
    game = Game.new("classic", Rules.make("championship"), ["Ann", "Bob", "Cid"])
    game = game.add_round("Ann", {"Bob": cards("r5 r9"), "Cid": cards("wild")})
    assert game.dealer == "Ann"  # the winner of the last round deals
    game = game.add_round("Bob", {"Ann": cards("b2"), "Cid": cards("gskip")})
    assert game.dealer == "Bob"
    assert game.results == {"Ann": 1.0, "Bob": 7.0, "Cid": 35.0}
    assert [s.name for s in game.standings()] == ["Ann", "Bob", "Cid"]
    assert Rules.make("championship").target == 500


def test_lazy_method_keeps_a_winner_and_a_loser_per_round_and_no_totals():
    game = Game.new("classic", Rules.make("lazy"), ["Ann", "Bob", "Cid"])
    game = game.add_round("Ann", {"Bob": cards("r5"), "Cid": cards("wild")})
    assert game.scores[0].loser == "Cid"
    assert game.dealer == "Cid" and game.starter == "Ann"  # loser deals, winner starts
    standing = {s.name: s for s in game.standings()}
    assert standing["Ann"].wins == 1 and standing["Cid"].losses == 1
    assert not game.verdict.over
    with pytest.raises(RulesError):
        Rules.make("lazy", target=100)


def test_teams_example_from_the_rules_scores_222():
    game = Game.new("teams", Rules.make("teams"), ["Ann+Cid", "Bob+Dan"])
    assert game.names == ["Ann", "Bob", "Cid", "Dan"]  # partners sit opposite
    # Nine cards left with the other team: 2, 4, 6, three 20-point and three 50-point cards.
    game = game.add_round("Cid", {"Bob": cards("r2 y4 bskip wild"),
                                  "Dan": cards("g6 rrev y+2 team+4 teamplay")})
    assert game.totals == {"Ann & Cid": 222, "Bob & Dan": 0}


def test_a_team_wins_only_when_both_partners_are_out():
    game = Game.new("teams", Rules.make("teams"), ["Ann", "Bob", "Cid", "Dan"])
    with pytest.raises(GameError, match="Cid still has cards"):
        game.add_round("Ann", {"Cid": cards("r1"), "Bob": cards("r2"), "Dan": cards("r3")})
    with pytest.raises(GameError, match="only one team"):
        game.add_round("Ann", {"Bob": cards("-"), "Dan": cards("-")})


def test_two_winners_and_a_winner_with_cards_are_refused():
    game = Game.new("classic", Rules.make("winner"), ["Ann", "Bob", "Cid"])
    with pytest.raises(GameError, match="Ann went out but still has cards"):
        game.add_round("Ann", {"Ann": cards("r1"), "Bob": cards("r2"), "Cid": cards("r3")})
    with pytest.raises(GameError, match="cannot both have gone out"):
        game.add_round("Ann", {"Bob": cards("-"), "Cid": cards("r3")})
    with pytest.raises(GameError, match="no cards or points given for Cid"):
        game.add_round("Ann", {"Bob": cards("r2")})
    with pytest.raises(GameError, match="r0"):
        game.add_round("Ann", {"Bob": cards("r0"), "Cid": cards("r0")})


def test_unknown_method_edition_and_option_say_what_to_choose():
    with pytest.raises(RulesError, match="choose one of"):
        Rules.make("golf")
    with pytest.raises(CardError, match="choose one of"):
        get_edition("uno flip")
    with pytest.raises(RulesError, match="lone_zero_50"):
        Rules.make("winner", modifiers=["h2o"])


@given(st.lists(st.sampled_from(list(EDITIONS["showdown"].cards())), max_size=20))
def test_hand_value_is_the_sum_of_card_values(hand):
    rules = Rules.make("winner")
    assert hand_value(hand, rules) == sum(EDITIONS["showdown"].value(c) for c in hand)
    assert parse_cards(format_cards(hand)) == tuple(hand)
