"""The table's helpers in a game: kept in the games file, exported, imported, and on the CLI.

House rules and the first dealer are chosen at the new game and travel with it (JSON and
CSV); the direction of play belongs to the deal in play and is shared through the file; a
round won on a showdown card is marked, and a lost last-card duel records nothing.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from companion.app import CompanionApp
from companion.store.games import Store
from companion.store.games_schema import MIGRATIONS, SCHEMA_VERSION
from companion.store.transfer import export_game, import_game
from companion.table.game import GameError
from companion.table.turns import Direction, TurnError
from showdown.contract.events import DuelResult, LaunchFailed, Outcome, Side, VerdictGiven
from uno_showdown.commands.cli import main


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "games.db"


@pytest.fixture
def showdown_app(db: Path):
    app = CompanionApp.open(db, lang="en")
    app.new_game("showdown", "winner", ["Ann", "Bob", "Cid", "Dan"],
                 house_rules=["stacking", "jump-in"], first_dealer="cid")
    yield app
    app.close()


def duel(app: CompanionApp, winner: str, loser: str, outcome: Outcome = Outcome.FASTER,
         duel_id: int = 1) -> None:
    """A verdict from the unit, as the service announces it."""
    players = {Side.LEFT: winner, Side.RIGHT: loser}
    result = DuelResult(outcome, Side.LEFT if outcome is Outcome.FASTER else None,
                        Side.RIGHT if outcome is Outcome.FASTER else None, None, (),
                        {Side.LEFT: 200_000, Side.RIGHT: 300_000})
    app.on_service_event(VerdictGiven(duel_id, result, Side.LEFT, Side.RIGHT, 2, players))


def test_house_rules_and_the_first_dealer_are_kept_with_the_game(showdown_app, db) -> None:
    game = showdown_app.game
    assert game.house_rules == {"stacking", "jump_in"}
    assert (game.first_dealer, game.dealer, game.starter) == ("Cid", "Cid", "Dan")
    with Store(db) as store:
        again = store.games.load(game.id)
    assert again.house_rules == game.house_rules and again.first_dealer == "Cid"
    showdown_app.rename_player("Cid", "Cyd")  # a rename keeps who dealt first
    assert showdown_app.game.first_dealer == "Cyd"
    showdown_app.reload()
    assert showdown_app.game.dealer == "Cyd"


def test_a_new_game_refuses_house_rules_that_do_not_fit(db) -> None:
    with CompanionApp.open(db, lang="en") as app:
        with pytest.raises(GameError, match="needs jump_in"):
            app.new_game("classic", "winner", ["Ann", "Bob"], house_rules=["double_play"])
        with pytest.raises(GameError, match="allows no other"):
            app.new_game("classic", "championship", ["Ann", "Bob"], house_rules=["stacking"])
        with pytest.raises(GameError, match="no player 'Eve'"):
            app.new_game("classic", "winner", ["Ann", "Bob"], first_dealer="Eve")
        assert app.games() == []  # nothing was written


def test_the_first_dealer_is_chosen_before_the_first_round_only(showdown_app) -> None:
    showdown_app.set_first_dealer("bob")
    assert showdown_app.game.dealer == "Bob"
    showdown_app.record_round("Ann", hands={"Bob": "r1", "Cid": "r2", "Dan": "r3"})
    assert showdown_app.game.dealers[0] == "Bob"
    with pytest.raises(GameError, match="first round has been played"):
        showdown_app.set_first_dealer("Dan")


def test_the_direction_lasts_for_the_deal_in_play_and_is_shared(showdown_app, db) -> None:
    assert showdown_app.game.direction is Direction.CLOCKWISE
    assert showdown_app.reverse() is Direction.COUNTERCLOCKWISE
    with CompanionApp.open(db, lang="en") as other:  # another screen, the CLI, the service
        assert other.game.direction is Direction.COUNTERCLOCKWISE
        assert other.propose_showdown("Ann", 2).opponent == "Dan"
    showdown_app.record_round("Ann", hands={"Bob": "r1", "Cid": "r2", "Dan": "r3"})
    assert showdown_app.game.direction is Direction.CLOCKWISE  # every deal starts clockwise
    showdown_app.reverse()
    showdown_app.reverse()  # two Reverses cancel out
    assert showdown_app.game.direction is Direction.CLOCKWISE


def test_proposals_follow_the_seating_and_the_direction(showdown_app) -> None:
    assert showdown_app.proposed_duel() is None
    first = showdown_app.propose_showdown("dan", 3)
    assert (first.challenger, first.opponent, first.cards) == ("Dan", "Ann", 3)
    assert showdown_app.proposed_duel() is first
    wild = showdown_app.propose_wild_showdown("Bob", "Dan", 1)
    assert (wild.opponent, wild.wild) == ("Dan", True)
    with pytest.raises(TurnError, match="1 to 3 cards"):
        showdown_app.propose_showdown("Ann", 5)
    assert showdown_app.proposed_duel() is wild  # a refused proposal changes nothing


def test_the_first_card_sets_who_starts_and_the_direction(db) -> None:
    with CompanionApp.open(db, lang="en") as app:
        app.new_game("mario-kart", "winner", ["Ann", "Bob", "Cid"])
        opening = app.opening("grev")
        assert (opening.starter, opening.direction) == ("Ann", Direction.COUNTERCLOCKWISE)
        assert app.game.direction is Direction.COUNTERCLOCKWISE
        assert app.opening("g5").starter == "Bob"  # turned again: a number, clockwise
        assert app.game.direction is Direction.CLOCKWISE


def test_a_round_won_on_a_showdown_card_stands_only_if_its_duel_was_won(showdown_app) -> None:
    hands = {"Bob": "r1", "Cid": "r2", "Dan": "r3"}
    duel(showdown_app, "Bob", "Ann")  # Ann went out on a showdown card and lost its duel
    with pytest.raises(GameError, match="Ann lost the duel on their last card"):
        showdown_app.record_round("Ann", hands=hands, showdown=True)
    assert showdown_app.game.rounds == ()
    duel(showdown_app, "Ann", "Bob", duel_id=2)  # play went on; her next one she won
    showdown_app.record_round("Ann", hands=hands, showdown=True)
    assert showdown_app.game.rounds[0].showdown_out
    assert showdown_app.game.history()[0].showdown_out


def test_without_a_recorded_duel_the_table_says_how_it_went(showdown_app) -> None:
    hands = {"Bob": "r1", "Cid": "r2", "Dan": "r3"}
    with pytest.raises(TurnError, match="no duel of Ann's was recorded"):
        showdown_app.record_round("Ann", hands=hands, showdown=True)
    with pytest.raises(GameError, match="lost the duel"):
        showdown_app.record_round("Ann", hands=hands, showdown=True, showdown_said=False)
    showdown_app.record_round("Ann", hands=hands, showdown=True, showdown_said=True)
    assert showdown_app.game.rounds[0].showdown_out


def test_only_the_showdown_deck_has_showdown_cards_to_go_out_on(db) -> None:
    with CompanionApp.open(db, lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        with pytest.raises(GameError, match="only the UNO Showdown deck"):
            app.record_round("Ann", hands={"Bob": "r1"}, showdown=True, showdown_said=True)


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_export_and_import_keep_the_helpers_choices(showdown_app, fmt) -> None:
    showdown_app.record_round("Ann", hands={"Bob": "r1", "Cid": "r2", "Dan": "r3"},
                              showdown=True, showdown_said=True)
    showdown_app.record_round("Bob", hands={"Ann": "g4", "Cid": "r2", "Dan": "r3"})
    original = showdown_app.game
    text = export_game(original, [], fmt)
    game, _duels = import_game(text, fmt)
    assert game.house_rules == original.house_rules
    assert game.first_dealer == "Cid"
    assert game.rounds == original.rounds and game.rounds[0].showdown_out
    assert game.dealers == original.dealers


def test_a_file_without_the_helpers_still_imports_and_exports_as_before(db) -> None:
    with CompanionApp.open(db, lang="en") as app:
        app.new_game("classic", "winner", ["Ann", "Bob"])
        app.record_round("Ann", hands={"Bob": "r1"})
        data = json.loads(app.export())
        assert data["version"] == 1 and "house_rules" not in data
        assert "house_rules" not in app.export("csv").splitlines()[0]


def test_an_import_with_a_house_rule_the_deck_does_not_take_is_refused(showdown_app) -> None:
    data = json.loads(showdown_app.export())
    data["house_rules"] = ["blank_plus_ten"]  # a classic deck's rule
    with pytest.raises(Exception, match="blank_plus_ten house rule is not for the showdown"):
        import_game(json.dumps(data))
    data["house_rules"] = ["jump_in"]
    data["rounds"] = [{"winner": "Ann", "hands": {"Bob": "r1", "Cid": "r2", "Dan": "r3"},
                       "showdown_out": "yes"}]
    with pytest.raises(Exception, match=r"rounds\[0\].showdown_out"):
        import_game(json.dumps(data))


def test_a_file_of_schema_6_opens_with_no_house_rules_and_the_first_seat_dealing(
        tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    conn = sqlite3.connect(path)
    conn.executescript("".join(MIGRATIONS[:6]) + "PRAGMA user_version = 6;")
    conn.execute("INSERT INTO games (edition, method, target, created_at) "
                 "VALUES ('showdown', 'winner', 500, 'then')")
    conn.execute("INSERT INTO players (game_id, name, seat) VALUES (1, 'Ann', 0), (1, 'Bob', 1)")
    conn.execute("INSERT INTO rounds (game_id, number, winner_id, played_at) "
                 "VALUES (1, 1, 2, 'then')")
    conn.execute("INSERT INTO hands (round_id, player_id, cards) VALUES (1, 1, 'r5'), "
                 "(1, 2, '-')")
    conn.commit()
    conn.close()
    with Store(path) as store:
        assert store.schema_version() == SCHEMA_VERSION == 7
        game = store.games.load(1)
    assert game.house_rules == frozenset() and game.first_dealer is None
    assert game.dealers[0] == "Ann" and not game.rounds[0].showdown_out
    assert game.direction is Direction.CLOCKWISE


def cli(capsys, *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def test_the_command_line_sets_and_shows_the_helpers(capsys, db) -> None:
    base = ("--db", str(db), "--lang", "en")
    status, out, err = cli(capsys, "game", "new", *base, "--edition", "mario-kart",
                           "--method", "winner", "--players", "Ann,Bob,Cid",
                           "--house-rule", "seven-zero", "--draw", "Ann: 9", "--draw",
                           "Bob: rskip", "--draw", "Cid: 9 g2", "--draw", "Ann: 9 y8")
    assert status == 0, err
    assert "Ann deals." in err and "House rules: Seven-zero." in err
    status, out, _ = cli(capsys, "game", "rules", *base)
    assert "UNO Mario Kart:\n* Wild Item Box:" in out
    assert "House rules in force:\n* Seven-zero: Whenever a 0 is laid" in out
    assert "Not in force: Jump-in," in out
    assert cli(capsys, "game", "direction", *base)[1] == (
        "Round 1: play goes clockwise (to the left).\n")
    assert cli(capsys, "game", "first-card", *base, "brev")[1] == (
        "Ann plays first, and play goes to the right. [seed 004, Setup; The play]\n")
    assert cli(capsys, "game", "direction", *base)[1].endswith(
        "counter-clockwise (to the right).\n")
    status, out, _ = cli(capsys, "game", "item", *base, "Ann", "yellow")
    assert out.splitlines()[0] == "Banana peel: Bob, who played just before Ann, draws 2 cards."
    status, out, _ = cli(capsys, "game", "direction", *base, "reverse")
    assert out == "Round 1: play goes clockwise (to the left).\n"
    assert cli(capsys, "game", "item", *base, "Ann", "yellow")[1].startswith(
        "Banana peel: Cid, who played just before Ann")


@pytest.mark.parametrize(("args", "message"), [
    (("game", "new", "--edition", "classic", "--method", "winner", "--players", "Ann,Bob",
      "--house-rule", "nope"), "unknown house rule 'nope'"),
    (("game", "new", "--edition", "classic", "--method", "winner", "--players", "Ann,Bob",
      "--draw", "Ann: 9", "--draw", "Bob: 9"), "Ann, Bob tied on 9, so they draw again"),
    (("game", "new", "--edition", "classic", "--method", "winner", "--players", "Ann,Bob",
      "--draw", "Ann: 9"), "give Bob with --draw"),
    (("game", "new", "--edition", "classic", "--method", "winner", "--players", "Ann,Bob",
      "--draw", "Ann 9"), "write a name, a colon and the cards drawn"),
    (("game", "new", "--edition", "classic", "--method", "winner", "--players", "Ann,Bob",
      "--first-dealer", "Zed"), "no player 'Zed'"),
    (("game", "house-rules", "--edition", "nope"), "unknown edition"),
])
def test_bad_helper_input_is_one_line_and_exit_2(capsys, db, args, message) -> None:
    status, out, err = cli(capsys, *args, "--db", str(db), "--lang", "en")
    assert status == 2 and out == "" and err.count("\n") == 1 and message in err, err
    assert not db.exists() or Store(db).games.infos() == []


def test_the_command_line_refuses_helpers_the_game_has_not(capsys, db) -> None:
    base = ("--db", str(db), "--lang", "en")
    cli(capsys, "game", "new", *base, "--edition", "classic", "--method", "winner",
        "--players", "Ann,Bob")
    status, _, err = cli(capsys, "game", "item", *base, "Ann", "red")
    assert status == 2 and "only UNO Mario Kart has the Wild Item Box" in err
    status, _, err = cli(capsys, "game", "direction", *base, "up")
    assert status == 2 and "'up' is not a direction of play" in err
    status, _, err = cli(capsys, "game", "first-card", *base, "itembox")
    assert status == 2 and "itembox is not a card of the classic edition" in err
    status, out, _ = cli(capsys, "game", "house-rules", "--method", "championship", *base)
    assert status == 0 and "no house rule can be chosen" in out


def test_game_round_applies_the_last_card_rule(capsys, db) -> None:
    base = ("--db", str(db), "--lang", "en")
    cli(capsys, "game", "new", *base, "--edition", "showdown", "--method", "winner",
        "--players", "Ann,Bob")
    with CompanionApp.open(db, lang="en") as app:
        duel(app, "Bob", "Ann")
    status, out, _ = cli(capsys, "game", "round", *base, "--winner", "Ann", "--hand",
                         "Bob: r5", "--showdown")
    assert status == 1
    assert out == ("No round recorded: Ann lost the duel on their last card: Ann takes the "
                   "cards and play goes on, with no round to record yet.\n")
    status, out, _ = cli(capsys, "game", "round", *base, "--winner", "Ann", "--hand",
                         "Bob: r5", "--showdown", "won")
    assert status == 0 and "Round 1 saved." in out
    status, out, _ = cli(capsys, "game", "show", *base, "--rounds")
    assert "Ann on a showdown card" in out
    status, out, _ = cli(capsys, "game", "edit", *base, "1", "--winner", "Ann", "--hand",
                         "Bob: r6")
    with CompanionApp.open(db, lang="en") as app:
        assert app.game.rounds[0].showdown_out  # a correction keeps the mark
    cli(capsys, "game", "edit", *base, "1", "--winner", "Ann", "--hand", "Bob: r6",
        "--showdown", "no")
    with CompanionApp.open(db, lang="en") as app:
        assert not app.game.rounds[0].showdown_out


def test_a_duel_whose_launch_failed_is_played_again_not_lost(capsys, db) -> None:
    base = ("--db", str(db), "--lang", "en")
    cli(capsys, "game", "new", *base, "--edition", "showdown", "--method", "winner",
        "--players", "Ann,Bob")
    with CompanionApp.open(db, lang="en") as app:
        duel(app, "Bob", "Ann")  # Bob was faster, but the cards never flew at Ann
        result = DuelResult(Outcome.FASTER, Side.LEFT, Side.RIGHT, None, (),
                            {Side.LEFT: 200_000, Side.RIGHT: 300_000})
        app.on_service_event(LaunchFailed(1, "no confirmation", result.with_launch_failed(
            "no confirmation", 1_000_000), Side.LEFT, Side.RIGHT, 2))
        app.flush_duels()
        verdict = app.last_card("Ann")
        assert verdict.replay and not verdict.won
    status, out, _ = cli(capsys, "game", "round", *base, "--winner", "Ann", "--hand",
                         "Bob: r5", "--showdown")
    assert status == 1
    assert out == ("No round recorded: the cards of the duel on Ann's last card never flew, "
                   "so nobody won it: load them again and play the duel again, then record "
                   "the round.\n")
    with CompanionApp.open(db, lang="en") as app:
        duel(app, "Ann", "Bob", duel_id=2)  # played again: Ann wins it
    status, out, _ = cli(capsys, "game", "round", *base, "--winner", "Ann", "--hand",
                         "Bob: r5", "--showdown")
    assert status == 0 and "Round 1 saved." in out


def test_a_tables_next_game_in_a_time_box_keeps_its_house_rules(showdown_app) -> None:
    from companion.app import play_on_game

    following = play_on_game(showdown_app.game)
    assert following.house_rules == {"stacking", "jump_in"}
    assert following.names == ["Cid", "Dan", "Ann", "Bob"]  # whoever deals next, first


def test_a_reverse_keeps_the_tally_so_a_long_game_is_not_read_again(showdown_app, db) -> None:
    showdown_app.record_round("Ann", hands={"Bob": "r1", "Cid": "r2", "Dan": "r3"})
    showdown_app.reverse()
    with Store(db) as store:
        game = store.games.load(showdown_app.game.id, lazy=True)
    assert "tally" in game.__dict__  # the stored tally is of the revision the Reverse made
    assert game.direction is Direction.COUNTERCLOCKWISE and game.dealer == "Dan"
