"""Seed 003, UNO Teams: each checkable clause as a test named after its heading (Setup, How
to play, Drawing a card, Calling UNO, Playing your last card, Winning, Scoring)."""

from __future__ import annotations

from companion.scoring import get_method
from companion.table.game import seat_players
from companion.table.house_rules import HOUSE_RULES, offered
from companion.table.seed_rules import SEED_003
from tests.seeds.conftest import Cli, rule


def new(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "teams", "--method", "teams", "--players",
           "Ann+Cid,Bob+Dan")


def test_setup_teams_of_two_sit_opposite() -> None:
    seated = seat_players(get_method("teams"), ["Ann+Cid", "Bob+Dan"])
    assert [p.name for p in seated] == ["Ann", "Bob", "Cid", "Dan"]


def test_setup_each_player_passes_one_card_to_their_partner() -> None:
    assert "passes it face down to their partner" in rule("003", "The pass at the start").text


def test_setup_an_action_card_turned_first_is_ignored(cli: Cli) -> None:
    new(cli)
    assert "turn" in cli.ok("game", "first-card", "rskip").lower()
    assert "its effect is ignored" in rule("003", "The first card").text


def test_how_to_play_the_pass_symbol_and_no_hints() -> None:
    assert "pass each other one card" in rule("003", "The pass symbol").text
    assert "never tell or hint" in rule("003", "Partners").text


def test_drawing_a_card_a_player_may_choose_not_to_play() -> None:
    text = rule("003", "Drawing instead of playing").text
    assert "or choose not to play one, draw the top card" in text


def test_calling_uno_a_partner_may_call_it() -> None:
    assert "Your partner may call «UNO» for you" in rule("003", "«UNO» for a partner").text


def test_playing_your_last_card_the_partner_gives_half_keeping_the_odd_one() -> None:
    assert "half of their cards, keeping the odd one" in rule("003", "Going out").text


def test_playing_your_last_card_the_partner_who_draws_hands_half_over_again() -> None:
    assert "whenever their partner has to take cards for any reason" in rule(
        "003", "Half again").text


def test_winning_a_team_deck_only_with_the_teams_method(cli: Cli) -> None:
    err = cli.refused("game", "new", "--edition", "teams", "--method", "winner",
                      "--players", "Ann,Bob")
    assert "--method teams" in err
    err = cli.refused("game", "new", "--edition", "teams", "--method", "championship",
                      "--players", "Ann,Bob,Cid,Dan")
    assert "--method teams" in err


def test_scoring_the_worked_example_is_222(cli: Cli) -> None:
    new(cli)
    out = cli.ok("game", "round", "--winner", "Ann", "--hand", "Cid: -",
                 "--hand", "Bob: r2 g4 y6 rskip", "--hand", "Dan: grev b+2 wild team+4 teamplay")
    assert "222" in out


def test_scoring_a_last_draw_card_is_the_authors_assumption_on_by_default(cli: Cli) -> None:
    """«Поэтому я предполагаю, что это правило действует и в командной игре»: the author
    adopts it, so the sheet plays it unless the table leaves it out (`last_draw_off`)."""
    assumption = rule("003", "The last card that makes a player draw")
    assert assumption.source.seed == "003"
    assert "the author's assumption" in assumption.source.label()
    assert HOUSE_RULES["last_draw_off"] in offered("teams", "teams")
    new(cli)
    sheet = cli.ok("game", "rules")
    assert "The last card that makes a player draw" in sheet
    assert "seed 003, Scoring: the author's assumption" in sheet
    out = cli.ok("game", "round", "--winner", "Ann", "--hand", "Cid: -", "--hand", "Bob: r5",
                 "--hand", "Dan: r1", "--last-draw", "r2 r3")
    assert "Points this round: Ann & Cid 11." in out and "Bob 10" in out  # r5 + r2 r3
    cli.ok("game", "new", "--edition", "teams", "--method", "teams", "--players",
           "Ann+Cid,Bob+Dan", "--house-rule", "last_draw_off")
    assert "The last card that makes a player draw" not in cli.ok("game", "rules")
    assert "last_draw_off" in cli.refused(
        "game", "round", "--winner", "Ann", "--hand", "Cid: -", "--hand", "Bob: r5",
        "--hand", "Dan: r1", "--last-draw", "r2 r3")


def test_every_rule_is_seed_003s() -> None:
    assert all(r.source.seed == "003" for r in SEED_003)
