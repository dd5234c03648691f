"""Seed 001, the classic UNO rules: each checkable clause as a test named after its heading
(the deck and its values, the two ways of scoring, dealing, the action cards, the «UNO!»
rule, the special rules, and the scoring variants at the end)."""

from __future__ import annotations

import pytest

from companion.deck.editions import BLANK, BLANK_VALUE, get_edition
from companion.table.house_rules import HOUSE_RULES, offered, sheet
from companion.table.seed_rules import DECK_RULES, SEED_001
from tests.seeds.conftest import Cli, rule

SPECIAL_RULES = {"jump_in", "double_play", "seven_zero", "stacking", "silent_twos",
                 "silent_wilds", "swap_on_five", "uno_to_centre", "colour_rotation",
                 "blank_plus_ten", "reverse_bounce"}


def new(cli: Cli, method: str = "winner", *extra: str) -> None:
    cli.ok("game", "new", "--edition", "classic", "--method", method, "--players",
           "Ann,Bob,Cid", *extra)


def test_kinds_of_cards_108_in_the_deck() -> None:
    deck = get_edition("classic")
    assert deck.size == 108
    assert sum(n for c, n in deck.counts.items() if c.is_number) == 76
    assert sum(n for c, n in deck.counts.items() if c.is_action) == 24
    assert sum(n for c, n in deck.counts.items() if c.is_wild) == 8


def test_worth_of_the_cards(cli: Cli) -> None:
    assert cli.ok("points", "--edition", "classic", "r9", "gskip", "yrev", "b+2", "wild",
                  "wild+4") == "169\n"


def test_winner_or_loser_the_one_out_collects_everyone_elses_cards_to_500(cli: Cli) -> None:
    _s, _o, err = cli("game", "new", "--edition", "classic", "--method", "winner",
                      "--players", "Ann,Bob")
    assert "500" in err
    out = cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: r5 wild")
    assert "Ann 55" in out


def test_winner_or_loser_own_hand_whoever_reaches_200_loses(cli: Cli) -> None:
    _s, _o, err = cli("game", "new", "--edition", "classic", "--method", "own", "--players",
                      "Ann,Bob")
    assert "200" in err
    assert "Bob 55" in cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: r5 wild")


def test_dealing_the_first_card_can_only_be_a_number(cli: Cli) -> None:
    new(cli)
    assert "cannot start the deal" in cli.ok("game", "first-card", "wild")
    assert "Bob starts" in cli.ok("game", "first-card", "r5")


def test_dealing_a_player_draws_only_when_they_have_no_card_to_lay() -> None:
    text = rule("001", "Drawing a card").text
    assert text.startswith("Only a player with no card to lay draws one card")


def test_draw_two_escaped_by_a_draw_two_of_any_colour_and_no_adding_up() -> None:
    text = rule("001", "Draw Two").text
    assert "a Draw Two of any colour" in text and "do not add up" in text
    assert rule("001", "Draw Two").unless == "stacking"


def test_reverse_reverses_add_up() -> None:
    assert "two change nothing" in rule("001", "Reverse").text


def test_wild_draw_four_only_without_the_colour_escaped_by_a_draw_two_of_the_named_colour(
) -> None:
    text = rule("001", "Wild Draw Four").text
    assert "only without a card of the current colour" in text
    assert "a Draw Two of the named colour" in text


def test_check_for_honesty_the_guilty_takes_the_card_back_and_the_wrong_misses_the_turn(
) -> None:
    text = rule("001", "The challenge").text
    assert "takes the Wild Draw Four back, takes four cards and misses the turn" in text
    assert "two more for mistrust, and misses the turn" in text


def test_politeness_rule_ready() -> None:
    assert "«Ready»" in rule("001", "«Ready»").text


def test_uno_rule_two_cards_and_no_hiding_the_hand() -> None:
    text = rule("001", "«UNO!»").text
    assert "takes two cards" in text and "Nobody may hide how many cards they hold" in text


def test_uno_rule_a_mistake_penalty_may_be_brought_in() -> None:
    assert HOUSE_RULES["mistake_penalty"].source.clause == "The «UNO!» rule"


def test_special_rules_are_optional_and_offered() -> None:
    keys = {r.key for r in offered("classic", "winner")}
    assert keys >= SPECIAL_RULES
    assert all(HOUSE_RULES[k].source.seed == "001" for k in SPECIAL_RULES)
    drawn = sheet("classic", "winner", ["stacking"])
    assert all(r.title != "Draw Two" for r in drawn.deck)  # stacking replaces it


def test_special_rules_blank_cards_as_plus_10_and_their_value_in_a_hand(cli: Cli) -> None:
    """The deck's 4 spare blank cards, played as +10: the seed gives no value for one left
    in a hand, so the product's is stated (50) and the blank is entered under the rule."""
    deck = get_edition("classic")
    assert deck.copies(BLANK) == 4 and deck.size == 108
    assert BLANK_VALUE == 50
    said = cli.ok("points", "--edition", "classic", "blank", "+10", "r5")
    assert said.startswith("105\n")
    # «+10» is how a blank is played, not a card of its own, and its worth in hand is ours
    assert "2 × blank (typed blank or +10): a blank card, played as +10" in said
    assert "counts 50, our choice" in said
    new(cli)
    err = cli.refused("game", "round", "--winner", "Ann", "--hand", "Bob: blank",
                      "--hand", "Cid: r1")
    assert "blank_plus_ten" in err
    new(cli, "winner", "--house-rule", "blank_plus_ten")
    assert "Ann 51" in cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: +10",
                              "--hand", "Cid: r1")
    assert "a blank card" not in " ".join(r.text for r in SEED_001)  # it is the house rule's


def test_special_rules_a_blanks_play_and_its_worth_in_hand_are_two_things(cli: Cli) -> None:
    """«можна присвоїти значення «+10 карт», відповідно, наступний гравець повинен взяти 10
    карт»: the seed words what a blank does in play, not what it is worth left in a hand.
    The sheet and the list of house rules say both, each with whose word it is, and the
    worth is the house rule's setting (blank_worth=N), 50 unless the table sets it."""
    listed = cli.ok("game", "house-rules", "--edition", "classic")
    assert "a blank left in a hand is worth 50, our choice" in listed
    assert "blank_worth=N" in listed
    new(cli, "winner", "--house-rule", "blank_plus_ten")
    sheet_text = cli.ok("game", "rules")
    assert "the next player must take 10 cards" in sheet_text
    assert "[seed 001, Special rules]" in sheet_text
    assert "A blank card left in a hand: It is worth 50 points" in sheet_text
    assert "[our inference: seed 001 gives a blank card no value in a hand" in sheet_text
    new(cli, "winner", "--house-rule", "blank_plus_ten", "--house-rule", "blank_worth=20")
    assert "It is worth 20 points" in cli.ok("game", "rules")
    assert "Ann 21" in cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: +10",
                              "--hand", "Cid: r1")
    assert "blank_plus_ten" in cli.refused(
        "game", "new", "--edition", "classic", "--method", "winner", "--players",
        "Ann,Bob,Cid", "--house-rule", "blank_worth=20")
    assert cli.ok("points", "--edition", "classic", "--blank-worth", "20", "+10",
                  "r5").startswith("25\n")


@pytest.mark.parametrize("form", ["json", "csv"])
def test_special_rules_blank_cards_travel_in_an_export_and_are_checked_on_import(
        cli: Cli, tmp_path, form: str) -> None:
    new(cli, "winner", "--house-rule", "blank_plus_ten")
    cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: blank blank", "--hand", "Cid: r1")
    exported = tmp_path / f"game.{form}"
    cli.ok("game", "export", "--format", form, "--output", str(exported))
    cli.ok("game", "import", str(exported))
    assert "Ann        101" in cli.ok("game", "show")
    new(cli, "winner", "--house-rule", "blank_plus_ten", "--house-rule", "blank_worth=10")
    cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: blank blank", "--hand", "Cid: r1")
    cli.ok("game", "export", "--format", form, "--output", str(exported))
    cli.ok("game", "import", str(exported))
    assert "Ann         21" in cli.ok("game", "show")  # the setting travels too
    text = exported.read_text(encoding="utf-8")
    without = text.replace("blank_plus_ten", "jump_in")  # the same game, another rule
    bad = tmp_path / f"bad.{form}"
    bad.write_text(without, encoding="utf-8")
    assert "blank" in cli.refused("game", "import", str(bad))


def test_lazy_count_the_loser_deals_and_the_winner_starts(cli: Cli) -> None:
    new(cli, "lazy")
    out = cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: r9", "--hand", "Cid: r1")
    assert "Next round: Bob deals, Ann starts." in out


def test_to_the_last_first_out_wins_last_loses(cli: Cli) -> None:
    new(cli, "last")
    assert "Cid won, Bob lost" in cli.ok("game", "round", "--order", "Cid,Ann")


def test_uno_in_7_rounds_the_next_hand_is_6_cards(cli: Cli) -> None:
    new(cli, "seven")
    assert "draws 6 cards" in cli.ok("game", "round", "--winner", "Bob")


@pytest.mark.parametrize(("option", "hand", "points"), [("lone_zero_50", "r0", "Ann 51")])
def test_drop_zero_a_lone_zero_is_worth_50(cli: Cli, option: str, hand: str,
                                          points: str) -> None:
    new(cli, "winner", "--option", option)
    assert points in cli.ok("game", "round", "--winner", "Ann",
                                                  "--hand", f"Bob: {hand}", "--hand", "Cid: y0 r1")


def test_h2o_going_out_on_plus_1_takes_20_off_on_wild_plus_2_40(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "h2o", "--method", "own", "--option", "h2o",
           "--players", "Ann,Bob")
    assert "Ann -20" in cli.ok("game", "round", "--winner", "Ann", "--out-on", "+1",
                               "--hand", "Bob: r1")
    assert DECK_RULES["h2o"] == SEED_001


def test_every_rule_of_the_classic_sheet_is_seed_001s() -> None:
    assert all(r.source.seed == "001" and not r.source.is_inference for r in SEED_001)
