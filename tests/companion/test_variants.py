"""The scoring variants of seed 001, each against worked examples taken from the seed's wording.

* H2O («Для гри UNO H2O: «+1» і «+2»»): "if a player lays their last card on a «+1», 20
  points are taken off their total; on a «Wild +2» («Зміна кольору і +2 карти»), 40".
* Playing to the last player («До останнього»): "after the 1st player has shed all their
  cards the game does not end but goes on to the last player. The 1st player wins, and the
  last player loses."
* Seven-round UNO («UNO в 7 раундів»): "after a player has got rid of their first 7 cards,
  play stops, they take 6 new cards from the deck and play on; the next time they run out
  they take 5, and so on, until they take just one card and get rid of it."
* The championship table (seed 000): at most 7 players.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.app import CompanionApp
from companion.deck.cards import parse_card, parse_cards
from companion.deck.editions import get_edition
from companion.scoring import Rules, RulesError, hand_value
from companion.scoring.seven import SCHEDULE
from companion.store.games import Store
from companion.store.games_schema import MIGRATIONS, SCHEMA_VERSION
from companion.store.transfer import TransferError, export_game, import_game
from companion.table.game import Game, GameError, Hand
from uno_showdown.commands.cli import main

PLUS_1, WILD_PLUS_2 = parse_card("wild+1"), parse_card("wild+2")


def cards(text: str) -> Hand:
    return Hand(cards=parse_cards(text))


def h2o_game() -> Game:
    return Game.new("h2o", Rules.make("own", modifiers=["h2o"]), ["Ann", "Bob", "Cid"])


# -- H2O ----------------------------------------------------------------------------------


def test_going_out_on_a_plus_1_takes_20_off_the_players_total():
    game = h2o_game()
    game = game.add_round("Ann", {"Bob": cards("r5 r7"), "Cid": cards("y9 b3")})
    assert game.totals == {"Ann": 0, "Bob": 12, "Cid": 12}
    game = game.add_round("Bob", {"Ann": cards("g4"), "Cid": cards("r1")}, out_on=PLUS_1)
    assert game.totals == {"Ann": 4, "Bob": 12 - 20, "Cid": 13}
    assert game.scores[1].points["Bob"] == -20


def test_going_out_on_a_wild_plus_2_takes_40_off():
    game = h2o_game()
    game = game.add_round("Ann", {"Bob": cards("wild"), "Cid": cards("y9 b3")})
    game = game.add_round("Cid", {"Ann": cards("r2"), "Bob": cards("g6")}, out_on=WILD_PLUS_2)
    assert game.totals == {"Ann": 2, "Bob": 56, "Cid": 12 - 40}
    # going out on any other card takes nothing off
    game = game.add_round("Ann", {"Bob": cards("b1"), "Cid": cards("b2")})
    assert game.totals == {"Ann": 2, "Bob": 57, "Cid": -26}
    assert [s.name for s in game.standings()] == ["Cid", "Ann", "Bob"]  # lowest is best


def test_the_h2o_cards_are_black_cards_worth_50_and_can_be_typed_as_plus_1():
    assert parse_card("+1") == PLUS_1 and parse_card("W+2") == WILD_PLUS_2
    assert hand_value(parse_cards("wild+1 wild+2"), Rules.make("own")) == 100
    assert get_edition("h2o").size == 116
    assert get_edition("h2o").holds(PLUS_1) and not get_edition("classic").holds(PLUS_1)


def test_h2o_needs_its_deck_a_lower_is_better_method_and_a_card_that_counts():
    with pytest.raises(GameError, match="h2o edition"):
        Game.new("classic", Rules.make("own", modifiers=["h2o"]), ["Ann", "Bob"])
    with pytest.raises(RulesError, match="lone_zero_50"):  # winner collects: higher is better
        Rules.make("winner", modifiers=["h2o"])
    game = h2o_game()
    hands = {"Bob": cards("r5"), "Cid": cards("r6")}
    with pytest.raises(GameError, match="takes nothing off"):
        game.add_round("Ann", hands, out_on=parse_card("r9"))
    plain = Game.new("h2o", Rules.make("own"), ["Ann", "Bob"])
    with pytest.raises(GameError, match="only under the h2o option"):
        plain.add_round("Ann", {"Bob": cards("r5")}, out_on=PLUS_1)


def test_the_card_gone_out_on_counts_against_the_deck():
    game = h2o_game()
    four = cards("wild+2 wild+2 wild+2 wild+2")
    with pytest.raises(GameError, match="5 × wild\\+2"):
        game.add_round("Ann", {"Bob": four, "Cid": cards("r1")}, out_on=WILD_PLUS_2)
    assert game.add_round("Ann", {"Bob": four, "Cid": cards("r1")}, out_on=PLUS_1)


def test_h2o_and_a_lone_zero_together():
    game = Game.new("h2o", Rules.make("own", modifiers=["h2o", "lone_zero_50"]), ["Ann", "Bob"])
    game = game.add_round("Ann", {"Bob": cards("y0")}, out_on=PLUS_1)
    assert game.totals == {"Ann": -20, "Bob": 50}


# -- playing to the last player --------------------------------------------------------


def last_game() -> Game:
    return Game.new("classic", Rules.make("last"), ["Ann", "Bob", "Cid", "Dan"])


def test_the_first_out_wins_and_the_last_player_loses():
    game = last_game().add_round(None, order=["Cid", "Ann", "Dan", "Bob"])
    rnd, score = game.rounds[0], game.scores[0]
    assert rnd.winner == "Cid" and rnd.order == ("Cid", "Ann", "Dan", "Bob")
    assert score.loser == "Bob" and score.points == {"Ann": 0, "Bob": 0, "Cid": 1, "Dan": 0}
    lines = {s.name: (s.wins, s.losses) for s in game.standings()}
    assert lines == {"Cid": (1, 0), "Ann": (0, 0), "Dan": (0, 0), "Bob": (0, 1)}
    assert game.dealer == "Bob" and game.starter == "Cid"  # as in lazy counting
    assert not game.verdict.over and game.rules.target is None


def test_the_last_player_is_placed_by_themselves():
    game = last_game().add_round("cid", order=["cid", "ann", "dan"])
    assert game.rounds[0].order == ("Cid", "Ann", "Dan", "Bob")
    two = Game.new("classic", Rules.make("last"), ["Ann", "Bob"]).add_round(None, order=["Bob"])
    assert two.scores[0].loser == "Ann"


@pytest.mark.parametrize(("order", "winner", "message"), [
    (["Cid", "Ann"], None, "leaves out Bob, Dan"),
    (["Cid", "Cid", "Ann", "Bob"], None, "twice"),
    (["Cid", "Ann", "Dan", "Bob"], "Ann", "Cid went out first"),
    (["Cid", "Ann", "Zed"], None, "no player 'Zed'"),
    ([], "Ann", "leaves out"),
])
def test_a_finishing_order_that_does_not_add_up_is_refused(order, winner, message):
    with pytest.raises(GameError, match=message):
        last_game().add_round(winner, order=order)


def test_a_finishing_order_takes_no_hands_and_other_methods_no_order():
    with pytest.raises(GameError, match="counts no hands"):
        last_game().add_round(None, {"Ann": cards("r1")}, order=["Cid", "Ann", "Dan"])
    winner = Game.new("classic", Rules.make("winner"), ["Ann", "Bob"])
    with pytest.raises(GameError, match="not a finishing order"):
        winner.add_round("Ann", {"Bob": cards("r1")}, order=["Ann", "Bob"])


def test_late_joiners_and_renames_keep_the_finishing_orders():
    game = last_game().add_round(None, order=["Cid", "Ann", "Dan"])
    game = game.add_player("Eve").rename("Bob", "Robert")
    assert game.rounds[0].order == ("Cid", "Ann", "Dan", "Robert")
    with pytest.raises(GameError, match="leaves out Robert, Eve"):  # Eve plays from now on
        game.add_round(None, order=["Cid", "Ann", "Dan"])
    game = game.add_round(None, order=["Eve", "Ann", "Dan", "Robert"])
    assert game.scores[1].loser == "Cid"
    assert game.edit_round(1, None, order=["Ann", "Cid", "Dan"]).scores[0].loser == "Robert"


# -- seven-round UNO ------------------------------------------------------------------------


def seven_game() -> Game:
    return Game.new("classic", Rules.make("seven"), ["Ann", "Bob", "Cid"])


def test_each_player_works_down_from_7_cards_to_1_on_their_own():
    assert SCHEDULE == (7, 6, 5, 4, 3, 2, 1)
    game = seven_game()
    assert game.rules.target == 7
    method = game.rules.method

    def shown(game: Game) -> dict[str, str]:
        return {s.name: f"{method.total_text(s)} {method.total_note(s)}"
                for s in game.standings()}

    assert shown(game) == dict.fromkeys(["Ann", "Bob", "Cid"], "0/7 hand of 7 cards")
    game = game.add_round("Ann")  # Ann got rid of her first 7 cards: she takes 6
    game = game.add_round("Bob")
    game = game.add_round("Ann")  # then 5
    assert shown(game) == {"Ann": "2/7 hand of 5 cards", "Bob": "1/7 hand of 6 cards",
                           "Cid": "0/7 hand of 7 cards"}
    line = game.rules.method.round_line(game, 2)
    assert line == "Ann emptied hand 2, draws 5 cards and plays on."


def test_whoever_takes_a_single_card_and_gets_rid_of_it_wins():
    game = seven_game()
    for _ in range(6):
        game = game.add_round("Bob")
    assert game.rules.method.round_line(game, 5) == "Bob emptied hand 6, draws 1 card and plays on."
    assert not game.verdict.over
    game = game.add_round("Cid").add_round("Bob")
    assert game.verdict.over and game.verdict.winners == ("Bob",)
    assert game.rules.method.round_line(game, 7) == "Bob has emptied all 7 hands."
    with pytest.raises(GameError, match="over"):
        game.add_round("Ann")


def test_seven_rounds_is_one_deal_with_no_hands_counted_and_a_fixed_target():
    game = seven_game().add_round("Cid").add_round("Ann")
    assert game.dealers == ("Ann", "Ann", "Ann")  # nobody deals again
    assert [s.is_dealer for s in game.standings()] == [False, False, False]
    with pytest.raises(GameError, match="counts no hands"):
        game.add_round("Bob", {"Ann": cards("r1")})
    with pytest.raises(RulesError, match="no target"):
        Rules.make("seven", target=5)
    assert Rules.make("seven", target=7).target == 7  # as stored


# -- the championship table (seed 000) ---------------------------------------------------


def test_a_championship_table_seats_2_to_7_players():
    rules = Rules.make("championship")
    names = [f"P{i}" for i in range(1, 11)]
    with pytest.raises(GameError, match="«Championship» takes 2 to 7 players, not 10"):
        Game.new("classic", rules, names)
    game = Game.new("classic", rules, names[:7])
    with pytest.raises(GameError, match="2 to 7 players, not 8"):
        game.add_player("P8")
    assert Game.new("classic", Rules.make("winner"), names).names == names


def test_the_cli_refuses_a_ten_player_championship_in_one_line(tmp_path, capsys):
    db = str(tmp_path / "g.db")
    status = main(["game", "new", "--db", db, "--lang", "en", "--edition", "classic",
                   "--method", "championship", "--players", ",".join("ABCDEFGHIJ")])
    err = capsys.readouterr().err
    assert status == 2 and len(err.strip().splitlines()) == 1 and "2 to 7 players" in err
    assert not Store(db).games.ids()


def test_an_imported_championship_with_too_many_players_is_refused():
    game = Game.new("classic", Rules.make("winner"), [f"P{i}" for i in range(8)])
    data = json.loads(export_game(game))
    data["method"] = "championship"
    with pytest.raises(TransferError, match="2 to 7 players"):
        import_game(json.dumps(data))


# -- kept, exported, imported ---------------------------------------------------------------


def variant_games() -> list[Game]:
    h2o = h2o_game().add_round("Ann", {"Bob": cards("r5"), "Cid": Hand(counted=12)},
                               out_on=WILD_PLUS_2)
    h2o = h2o.add_round("Bob", {"Ann": cards("y3"), "Cid": cards("b0")})
    last = last_game().add_round(None, order=["Cid", "Ann", "Dan"])
    last = last.add_round(None, order=["Dan", "Bob", "Ann", "Cid"]).undo()
    seven = seven_game().add_round("Bob").add_round("Bob").add_round("Cid")
    return [h2o, last, seven]


@pytest.mark.parametrize("index", range(3), ids=["h2o", "last", "seven"])
def test_a_variant_game_comes_back_from_the_store(tmp_path, index):
    game = variant_games()[index]
    with Store(tmp_path / "g.db") as store:
        game_id = store.games.create(game)
    with Store(tmp_path / "g.db") as store:
        back = store.games.load(game_id)
    assert back.rules == game.rules
    assert back.rounds == game.rounds and back.undone == game.undone
    assert back.totals == game.totals


@pytest.mark.parametrize("fmt", ["json", "csv"])
@pytest.mark.parametrize("index", range(3), ids=["h2o", "last", "seven"])
def test_a_variant_game_exports_and_imports_as_an_equal_game(index, fmt):
    game = variant_games()[index]
    back, _duels = import_game(export_game(game, fmt=fmt), fmt)
    assert back.rules == game.rules and back.rounds == game.rounds
    assert back.totals == game.totals and back.standings() == game.standings()
    if fmt == "json":
        assert back.undone == game.undone


def test_the_export_says_what_the_variants_add():
    h2o, last, _seven = variant_games()
    data = json.loads(export_game(h2o))
    assert data["version"] == 2 and data["rounds"][0]["out_on"] == "wild+2"
    assert "order" not in data["rounds"][0]
    header = export_game(last, fmt="csv").splitlines()[0]
    assert header.endswith(",points,place")
    plain = Game.new("classic", Rules.make("winner"), ["Ann", "Bob"])
    assert json.loads(export_game(plain))["version"] == 1  # an older reader still reads it
    assert export_game(plain, fmt="csv").splitlines()[0].endswith(",hand_value,points")


def test_a_file_from_before_the_variants_opens_and_takes_them(tmp_path: Path):
    path = tmp_path / "v3.db"
    conn = sqlite3.connect(path)
    conn.executescript(";".join(MIGRATIONS[:3]) + ";PRAGMA user_version = 3;")
    conn.execute("INSERT INTO games (edition, method, target, modifiers, created_at) "
                 "VALUES ('classic', 'own', 200, 'lone_zero_50', 'then')")
    conn.execute("INSERT INTO players (game_id, name, seat) VALUES (1, 'Ann', 0), (1, 'Bob', 1)")
    conn.execute("INSERT INTO rounds (game_id, number, winner_id, played_at) "
                 "VALUES (1, 1, 1, 'then')")
    conn.execute("INSERT INTO hands (round_id, player_id, cards) VALUES (1, 1, ''), (1, 2, 'r0')")
    conn.commit()
    conn.close()
    with CompanionApp.open(path, 1, lang="en") as app:
        assert app.store.schema_version() == SCHEMA_VERSION
        assert app.game is not None and app.game.totals == {"Ann": 0, "Bob": 50}
        assert app.game.rounds[0].order == () and app.game.rounds[0].out_on is None
        app.new_game("h2o", "own", ["Ann", "Bob"], options=["h2o"])
        app.record_round("Ann", hands={"Bob": ["r2"]}, out_on="wild+1")
        app.new_game("classic", "last", ["Ann", "Bob", "Cid"])
        app.record_round(None, order=["Bob", "Cid"])
    with Store(path) as store:
        assert store.games.load(2).rounds[0].out_on == PLUS_1
        assert store.games.load(3).rounds[0].order == ("Bob", "Cid", "Ann")


# -- the command line ----------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], db: Path, *argv: str) -> tuple[int, str, str]:
    status = main(["game", *argv[:1], "--db", str(db), "--lang", "en", *argv[1:]])
    out = capsys.readouterr()
    return status, out.out, out.err


def test_the_cli_records_each_variant(tmp_path, capsys):
    db = tmp_path / "g.db"
    assert run(capsys, db, "new", "--edition", "h2o", "--method", "own", "--option", "h2o",
               "--players", "Ann,Bob")[0] == 0
    status, out, _ = run(capsys, db, "round", "--winner", "Bob", "--out-on", "+1",
                         "--hand", "Ann: r9")
    assert status == 0 and "Points this round: Ann 9, Bob -20." in out
    assert run(capsys, db, "new", "--edition", "classic", "--method", "last",
               "--players", "Ann,Bob,Cid")[0] == 0
    status, out, _ = run(capsys, db, "round", "--order", "Cid,Ann")
    assert status == 0 and "Finishing order: Cid, Ann, Bob; Cid won, Bob lost." in out
    assert "Next round: Bob deals, Cid starts." in out
    status, _, err = run(capsys, db, "round", "--winner", "Ann")
    assert status == 2 and "--order" in err
    assert run(capsys, db, "new", "--edition", "classic", "--method", "seven",
               "--players", "Ann,Bob")[0] == 0
    status, out, err = run(capsys, db, "show")
    assert "Ann deals 7 cards each, Bob starts." in out
    status, out, _ = run(capsys, db, "round", "--winner", "Bob")
    assert "Bob emptied hand 1, draws 6 cards and plays on." in out
    assert "1/7" in out and "Play goes on" in out


def test_game_new_help_names_every_method_and_option(capsys):
    with pytest.raises(SystemExit):
        main(["game", "new", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    for text in ("last (to the last player: first out wins, last loses)",
                 "seven (seven-round UNO:", "h2o (H2O: going out on +1 takes 20 off",
                 "+2 takes 40; methods own)"):
        assert text in out
