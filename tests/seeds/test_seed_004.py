"""Seed 004, UNO Mario Kart: each checkable clause as a test named after its heading
(Materials, Setup, The play, A player's turn, Action cards, Items, Challenging a Wild Draw
Four, End of the round, Scoring)."""

from __future__ import annotations

from companion.deck.cards import Colour, parse_card
from companion.deck.editions import get_edition
from companion.table.deal import FirstCardEffect, first_card, highest_card
from companion.table.items import Item, colour_to_follow, item_of, reveal
from companion.table.seed_rules import SEED_004
from companion.table.turns import Seating
from tests.seeds.conftest import Cli, rule

TABLE = Seating(("Ann", "Bob", "Cid", "Dan"))
PLAYERS = TABLE.players


def new(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "mario-kart", "--method", "winner", "--players",
           "Ann,Bob,Cid,Dan")


def test_materials_112_cards_4_wild_draw_four_8_item_boxes() -> None:
    deck = get_edition("mario-kart")
    wild = {c.code: n for c, n in deck.counts.items() if c.is_wild}
    assert deck.size == 112 and wild == {"wild+4": 4, "itembox": 8}


def test_materials_every_colour_carries_its_item() -> None:
    assert [item_of(c) for c in (Colour.RED, Colour.YELLOW, Colour.GREEN, Colour.BLUE, None)] \
        == [Item.MUSHROOM, Item.BANANA, Item.GREEN_SHELL, Item.LIGHTNING, Item.BOB_OMB]


def test_setup_the_highest_card_deals_action_cards_count_0() -> None:
    assert highest_card(PLAYERS, {"Ann": [0], "Bob": [3], "Cid": [0], "Dan": [1]}).dealer == "Bob"


def test_setup_a_wild_draw_four_first_goes_back_an_item_box_lets_the_dealer_choose() -> None:
    def effect(code: str) -> FirstCardEffect:
        from companion.deck.cards import parse_card
        return first_card("mario-kart", (), parse_card(code), "Ann", "Bob", PLAYERS).effect

    assert effect("wild+4") is FirstCardEffect.RESHUFFLE
    assert effect("itembox") is FirstCardEffect.DEALER_COLOUR


def test_the_play_reverse_draw_two_and_skip_first_act(cli: Cli) -> None:
    new(cli)
    assert "Ann" in cli.ok("game", "first-card", "rrev")
    assert "draws 2" in cli.ok("game", "first-card", "b+2").replace("two", "2")


def test_a_players_turn_they_may_choose_not_to_play_and_draw() -> None:
    assert "or chooses not to, draws one card" in rule("004", "Drawing instead of playing").text


def test_action_cards_draw_two_no_chance_to_play_a_card() -> None:
    assert "they get no chance to play a card" in rule("004", "Draw Two").text


def test_items_mushroom_another_turn() -> None:
    assert reveal(TABLE, "Cid", Colour.RED).plays_again


def test_items_banana_peel_whoever_played_directly_before() -> None:
    assert reveal(TABLE, "Cid", Colour.YELLOW).draws == (("Bob", 2),)
    # Ann laid a Skip, a Draw Two or a Wild Draw Four, Bob missed the turn, Cid played the
    # Item Box: seed 004's Action cards make the next player miss the turn for all three
    for code in ("rskip", "r+2", "wild+4"):
        assert reveal(TABLE, "Cid", Colour.YELLOW, after=parse_card(code)).draws == (
            ("Ann", 2),), code
        assert reveal(TABLE.reversed(), "Cid", Colour.YELLOW, after=parse_card(code)).draws \
            == (("Ann", 2),), code
    assert reveal(TABLE, "Cid", Colour.YELLOW, after=parse_card("rrev")).draws == (
        ("Bob", 2),)
    assert reveal(TABLE, "Cid", Colour.YELLOW, before="dan").draws == (("Dan", 2),)


def test_items_banana_peel_on_the_command_line_after_a_skip(cli: Cli) -> None:
    new(cli)
    guessed = cli.ok("game", "item", "Cid", "yellow")
    assert "Bob, who played just before Cid" in guessed
    assert "Bob is the seat before Cid" in guessed and "Wild Draw Four" in guessed
    assert "Ann, who played just before Cid" in cli.ok("game", "item", "Cid", "yellow",
                                                        "--after-skip")


def test_items_banana_peel_after_a_wild_draw_four(cli: Cli) -> None:
    """Seed 004, Action cards: after a Wild Draw Four the next player "draws four cards ...
    and passes their turn": Ann plays it, Bob draws, Cid's Item Box turns a yellow card."""
    new(cli)
    said = cli.ok("game", "item", "Cid", "yellow", "--after", "wild+4")
    assert "Ann, who played just before Cid" in said and "seat before" not in said
    assert "Dan, who played just before Cid" in cli.ok("game", "item", "Cid", "yellow",
                                                        "--before", "Dan")


def test_items_green_shell_lightning_bob_omb() -> None:
    assert reveal(TABLE, "Ann", Colour.GREEN).choose_from == ("Bob", "Cid", "Dan")
    lightning = reveal(TABLE, "Ann", Colour.BLUE)
    assert lightning.plays_again and len(lightning.draws) == 3
    bomb = reveal(TABLE, "Ann", None)
    assert bomb.draws == (("Ann", 2),) and bomb.chooses_colour


def test_items_the_colour_to_follow_after_each_item() -> None:
    assert colour_to_follow(
        reveal(TABLE, "Ann", None)) == "Ann chooses the colour to follow (seed 004, Items)."
    for colour in Colour:
        assert "our inference" in colour_to_follow(reveal(TABLE, "Ann", colour))
    assert rule("004", "The colour after an item").source.is_inference


def test_items_the_turned_cards_action_does_not_happen() -> None:
    assert "its action does not happen" in rule("004", "Wild Item Box").text


def test_challenging_a_wild_draw_four_the_wrong_challenger_draws_six() -> None:
    assert "the challenger draws six" in rule("004", "Challenging a Wild Draw Four").text


def test_end_of_the_round_a_last_plus_two_or_plus_four_still_draws_and_counts(cli: Cli) -> None:
    new(cli)
    out = cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: r5", "--hand", "Cid: r0",
                 "--hand", "Dan: g1", "--last-draw", "wild+4 y9")
    assert "Bob 64" in out  # 5, and the +4 and 9 drawn for Ann's last Draw Two
    err = cli.refused("game", "round", "--winner", "Bob", "--hand", "Ann: r1",
                      "--hand", "Cid: r2", "--hand", "Dan: g1", "--last-draw", "y9")
    assert "draw 2 cards" in err


def test_scoring_item_box_and_wild_draw_four_50(cli: Cli) -> None:
    assert cli.ok("points", "--edition", "mario-kart", "itembox", "wild+4", "rskip", "g3") \
        == "123\n"


def test_every_rule_says_whose_word_it_is() -> None:
    assert {r.source.seed for r in SEED_004 if not r.source.is_inference} == {"004"}
    assert [r.title for r in SEED_004 if r.source.is_inference] == ["The colour after an item"]
