"""Seed 000, the bar championship's regulation: each checkable clause as a test named after
it, against what the product does (the command line, the sheet, the sums).

Clauses: the regulation's opening (stages, the qualifying's formula, flights, the final,
the awards), then the rules 1, 2.1-2.4.8 and 3.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from championship.core.errors import ChampionshipError
from championship.core.results import awards
from championship.core.settings import LuckyBy, make
from championship.core.standings import Deal, Entrant, standings
from championship.core.text import settings_lines
from companion.table.house_rules import offered, sheet
from companion.table.seed_rules import SEED_000
from tests.seeds.conftest import Cli, rule

PLAYERS = "Ann,Bob,Cid"


def test_regulation_qualifying_one_hour_final_one_hour_seven_finalists() -> None:
    s = make(tables=2)
    assert (s.qualifying_minutes, s.break_minutes, s.final_minutes, s.finalists) == (
        60, 10, 60, 7)


def test_regulation_many_players_two_flights_of_45_minutes_with_15_between() -> None:
    s = make(tables=2)
    assert (s.flight_minutes, s.flight_break_minutes) == (45, 15)


def test_regulation_result_is_points_divided_by_games_lower_is_better() -> None:
    people = [Entrant(1, "Ann", lot=1), Entrant(2, "Bob", lot=2)]
    deals = [Deal("a", 1, "qualifying", {1: 0, 2: 30}), Deal("b", 1, "qualifying", {1: 20, 2: 0})]
    lines = standings(people, deals, "qualifying", make(tables=1).tie_break)
    assert [(ln.number, ln.result) for ln in lines] == [(1, Fraction(10)), (2, Fraction(15))]


def test_regulation_awards_the_luckiest_the_most_qualifying_points() -> None:
    """"the participant who collected the most points in the qualifying round": Ann 40
    points in 4 games (10 a game), Bob 30 in 1 (30 a game): Ann, by the seed's words."""
    people = [Entrant(1, "Ann", lot=1), Entrant(2, "Bob", lot=2), Entrant(3, "Cid", lot=3)]
    deals = [Deal(f"d{i}", 1, "qualifying", {1: 10, 3: 0} | ({2: 30} if i == 0 else {}))
             for i in range(4)]
    q = standings(people, deals, "qualifying", make(tables=1).tie_break)
    lucky = awards(q, [], final_over=False)
    assert lucky.luckiest is not None and lucky.luckiest.name == "Ann"
    per_game = awards(q, [], final_over=False, luckiest_by=LuckyBy.RESULT)
    assert per_game.luckiest is not None and per_game.luckiest.name == "Bob"
    assert "The luckiest: most qualifying points (seed 000)." in settings_lines(make(tables=1))


def test_rule_1_at_most_seven_players_at_a_table(cli: Cli) -> None:
    err = cli.refused("game", "new", "--edition", "classic", "--method", "championship",
                      "--players", "A,B,C,D,E,F,G,H")
    assert "7" in err
    with pytest.raises(ChampionshipError):
        make(tables=1, table_size=8)


def test_rule_2_1_a_game_runs_to_500(cli: Cli) -> None:
    _status, _out, err = cli("game", "new", "--edition", "classic", "--method", "championship",
                             "--players", PLAYERS)
    assert "500" in err
    assert make(tables=1).target == 500


def test_rule_2_1_reaching_500_ends_the_game_and_nobody_wins_it(cli: Cli) -> None:
    """The regulation ranks points per game over a stage and awards places only after the
    final: a table's game that reaches 500 (rule 2.1) is over, but it has no winner."""
    cli.ok("game", "new", "--edition", "classic", "--method", "championship", "--players",
           PLAYERS)
    cli.ok("game", "round", "--winner", "Bob", "--points", "Ann: 300", "--points", "Cid: 250")
    out = cli.ok("game", "round", "--winner", "Cid", "--points", "Ann: 250", "--points",
                 "Bob: 10")
    assert "won" not in out and "WINNER" not in out
    assert "Ann reached 500: this game is over (rule 2.1) with no winner of its own" in out


def test_rule_2_2_each_player_is_charged_their_own_hand_the_one_out_scores_0(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "classic", "--method", "championship", "--players",
           PLAYERS)
    out = cli.ok("game", "round", "--winner", "Ann", "--hand", "Bob: r9 gskip",
                 "--hand", "Cid: wild+4 b0")
    assert "Bob 29" in out and "Cid 50" in out  # 9 + 20; 50 + 0


def test_rule_2_3_the_first_card_is_a_number_and_whoever_went_out_deals(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "classic", "--method", "championship", "--players",
           PLAYERS)
    assert "cannot start the deal" in cli.ok("game", "first-card", "yskip")
    out = cli.ok("game", "round", "--winner", "Cid", "--hand", "Ann: r1", "--hand", "Bob: r2")
    assert "Next round: Cid deals, Ann starts." in out


def test_rule_2_3_holds_whatever_deck_the_director_chose(cli: Cli) -> None:
    """«Первой картой может быть только цифровая карта»: at a championship table playing a
    Mario Kart deck, a Reverse turned up first is put back, as the sheet's 2.3 says, not
    played as seed 004 plays it; the helper names the rule it follows."""
    cli.ok("game", "new", "--edition", "mario-kart", "--method", "championship", "--players",
           PLAYERS)
    for card in ("rrev", "b+2", "gskip", "itembox", "wild+4"):
        said = cli.ok("game", "first-card", card)
        assert "cannot start the deal" in said and "[seed 000, 2.3]" in said, (card, said)
    assert "Bob starts" in cli.ok("game", "first-card", "r5")  # Ann deals
    cli.ok("game", "new", "--edition", "mario-kart", "--method", "winner", "--players",
           PLAYERS)
    assert "[seed 004, Setup; The play]" in cli.ok("game", "first-card", "rrev")


def test_rule_2_4_2_wild_draw_four_escape_challenge_and_ready_on_the_sheet() -> None:
    text = rule("000", "2.4.2 Wild Draw Four").text
    assert "escapes with a Draw Two of the named colour" in text
    assert "takes four and misses the turn" in text
    assert "challenger takes four and two more for mistrust and misses the turn" in text
    assert "«Ready»" in rule("000", "2.4.2 «Ready»").text


def test_rule_2_4_6_and_2_4_7_on_the_sheet() -> None:
    assert "may not move until the player it is aimed at has taken the second card" in rule(
        "000", "2.4.6 Draw Two").text
    assert "taken every finger off it" in rule("000", "2.4.7 A card laid").text
    # «В этот момент она не может быть заменена на другую»
    assert "from that moment it cannot be swapped" in rule("000", "2.4.7 A card laid").text


def test_rule_2_4_8_no_other_rule_the_classic_deck_and_no_house_rule(cli: Cli) -> None:
    assert offered("classic", "championship") == ()
    err = cli.refused("game", "new", "--edition", "classic", "--method", "championship",
                      "--players", PLAYERS, "--house-rule", "jump_in")
    assert "2.4.8" in err
    assert make(tables=1).edition == "classic" and not make(tables=1).deck_chosen
    assert "Rule 2.4.8: no other rules apply, so the tables play the classic deck with no " \
        "house rules." in settings_lines(make(tables=1))
    chosen = make(tables=1, edition="showdown")
    assert chosen.deck_chosen
    assert "Deck: showdown, chosen by the director; rule 2.4.8 alone would play the classic " \
        "deck with no house rules." in settings_lines(chosen)
    err = cli.refused("event", "new", "Cup", "--tables", "1", "--deck", "teams")
    assert "teams" in err


def test_rule_2_4_8_another_deck_says_it_is_the_directors_choice(cli: Cli) -> None:
    cli.ok("game", "new", "--edition", "classic", "--method", "championship", "--players",
           PLAYERS)
    assert "director's choice" not in cli.ok("game", "rules")
    cli.ok("game", "new", "--edition", "showdown", "--method", "championship", "--players",
           PLAYERS)
    assert "Rule 2.4.8 plays the classic deck: the UNO Showdown deck and its own rules above " \
        "are the director's choice." in cli.ok("game", "rules")


def test_rule_2_4_8_the_sheet_under_the_regulation_is_the_regulation() -> None:
    drawn = sheet("classic", "championship", [])
    assert drawn.regulation == SEED_000 and drawn.deck == () and drawn.chosen == ()


def test_rule_3_disputes_are_settled_by_the_staff() -> None:
    assert "settled by the staff" in rule("000", "3 Disputes").text


def test_every_rule_of_the_regulation_names_its_clause() -> None:
    assert [r.source.clause for r in SEED_000] == [
        "2.3", "2.4", "2.4.1", "2.4.2", "2.4.2", "2.4.3", "2.4.4", "2.4.5", "2.4.6", "2.4.7",
        "2.4.8", "3"]
    assert all(r.source.seed == "000" for r in SEED_000)


def test_where_the_regulation_is_silent_each_choice_of_the_program_says_so() -> None:
    """The results sheet's Rules block, `event new` and `event show` print these lines: the
    seed's numbers as they are, and each choice of ours marked, with what changes it."""
    lines = settings_lines(make(tables=1))
    for start, setting in (("Tables:", "--seating"), ("When the time is up", "--time-up"),
                           ("Equal results", "--tie-break"), ("A result is points", None),
                           ("Late arrivals", None)):
        line = next(x for x in lines if x.startswith(start))
        assert "Our choice: the regulation is silent;" in line, line
        assert (setting or "no setting") in line, line
    for start in ("Qualifying", "Final", "Rule 2.4.8", "The luckiest"):
        assert "Our choice" not in next(x for x in lines if x.startswith(start))
