"""A long game costs no more per round than a short one, and says exactly the same.

The game's tally (totals, wins, losses, dealer) is carried from round to round and kept by
the store beside the game, so `uno-showdown game round` reads no past round. These tests
check that the carried tally is always the count over the rounds, that a game opened
without its rounds answers as the whole game does, and that a tally the file cannot vouch
for is never used.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app import CompanionApp
from companion.scoring import MAX_TARGET, METHODS, Entry, Rules
from companion.store import game_watchers, tally_rows
from companion.store.errors import StoreError
from companion.store.games import Store
from companion.table.game import Game, Hand, LazyRounds
from showdown.contract.record import replace
from uno_showdown.commands.cli import main


def what_it_says(game: Game) -> tuple[object, ...]:
    return (game.standings(), game.dealer, game.starter, game.verdict, game.totals)


def fresh(game: Game) -> Game:
    """The same game with nothing carried over: everything counted from the rounds."""
    return Game(game.edition_key, game.rules, game.players, tuple(game.rounds), game.undone,
                id=game.id, created_at=game.created_at, revision=game.revision)


@st.composite
def games(draw: st.DrawFn) -> Game:
    """A game of any method, played a few rounds in (until it is over, if it ends)."""
    method = METHODS[draw(st.sampled_from(sorted(METHODS)))]
    players = ["Ann", "Bob", "Cid", "Dan"]
    target = MAX_TARGET if method.takes_target else None
    game = Game.new("classic", Rules.make(method.key, target), players)
    for _ in range(draw(st.integers(0, 25))):
        if game.verdict.over:
            break
        winner = draw(st.sampled_from(players))
        if method.entry is Entry.ORDER:
            rest = draw(st.permutations([p for p in players if p != winner]))
            game = game.add_round(winner, order=(winner, *rest))
        elif method.entry is Entry.WINNER:
            game = game.add_round(winner)
        else:
            side = game.entrant_of(winner).members
            points = {p: (0 if p in side else draw(st.integers(1, 60))) for p in players}
            game = game.add_round(winner, {p: Hand(counted=v) for p, v in points.items()})
    return game


@given(games())
@settings(max_examples=150)
def test_the_carried_tally_is_the_count_over_the_rounds(game: Game) -> None:
    again = fresh(game)
    assert game.tally == again.tally
    assert what_it_says(game) == what_it_says(again)


def long_game(path, rounds: int, method: str = "winner") -> int:
    players = ["Ann", "Bob", "Cid"]
    game = Game.new("classic", Rules.make(method, None if method == "lazy" else MAX_TARGET),
                    players)
    for n in range(rounds):
        winner = players[n % 3]
        game = game.add_round(winner, {p: Hand(counted=0 if p == winner else n % 7 + 1)
                                       for p in players})
    with Store(path) as store:
        return store.games.create(game)


def test_a_game_opened_lazily_answers_as_the_whole_game(tmp_path) -> None:
    db = tmp_path / "g.db"
    game_id = long_game(db, 300, "lazy")
    with Store(db) as store:
        lazy, whole = store.games.load(game_id, lazy=True), store.games.load(game_id)
        assert isinstance(lazy.rounds, LazyRounds) and not isinstance(whole.rounds, LazyRounds)
        assert what_it_says(lazy) == what_it_says(whole)
        assert lazy.rounds._cache == []  # nothing read to say all that
        assert lazy.history() == whole.history()  # and everything is there when asked for


def test_rounds_added_to_a_lazily_opened_game_are_what_the_whole_game_gets(tmp_path) -> None:
    db_lazy, db_whole = tmp_path / "lazy.db", tmp_path / "whole.db"
    ids = long_game(db_lazy, 200), long_game(db_whole, 200)
    for db, game_id, lazy in ((db_lazy, ids[0], True), (db_whole, ids[1], False)):
        with CompanionApp.open(db, game_id, lang="en", lazy=lazy) as app:
            app.record_round("Bob", points={"Ann": 12, "Cid": 3})
            app.record_round("Cid", points={"Ann": 1, "Bob": 30})
            if lazy:
                assert app.game is not None and app.game.rounds._cache == []
    with Store(db_lazy) as a, Store(db_whole) as b:
        one, two = a.games.load(ids[0]), b.games.load(ids[1])
        assert what_it_says(one) == what_it_says(two)
        # the same rounds, whenever each file was written (played_at is the wall clock's)
        assert [replace(r, played_at="") for r in one.rounds] == \
            [replace(r, played_at="") for r in two.rounds] and len(one.rounds) == 202
        assert a.games.load(ids[0], lazy=True).tally == one.tally


def test_undo_and_edit_after_a_lazy_open_read_the_rounds_they_need(tmp_path) -> None:
    db = tmp_path / "g.db"
    game_id = long_game(db, 50)
    with CompanionApp.open(db, game_id, lang="en", lazy=True) as app:
        assert app.undo()
        app.edit_round(3, "Ann", points={"Bob": 5, "Cid": 6})
    with Store(db) as store:
        game = store.games.load(game_id)
        assert len(game.rounds) == 49 and len(game.undone) == 1
        assert store.games.load(game_id, lazy=True).tally == fresh(game).tally


def test_a_tally_the_file_cannot_vouch_for_is_not_used(tmp_path) -> None:
    """An older uno-showdown changed the game without keeping the tally: read it whole."""
    db = tmp_path / "g.db"
    game_id = long_game(db, 40)
    with Store(db) as store:
        store.conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
        store.conn.execute("UPDATE tally_sums SET rounds = 1")
        game = store.games.load(game_id, lazy=True)
        assert not isinstance(game.rounds, LazyRounds)
        assert game.tally == fresh(store.games.load(game_id)).tally


@given(games())
@settings(max_examples=40, deadline=None)
def test_the_kept_tally_is_the_tally_of_every_method(game: Game) -> None:
    """What the file keeps of a game's sums (`companion.store.tally_rows`) reads back as the
    tally itself, mappings in their order, for every method and entry."""
    with tempfile.TemporaryDirectory() as tmp, Store(os.path.join(tmp, "g.db")) as store:
        game_id = store.games.create(game)
        kept = store.games.load(game_id, lazy=True)
        assert isinstance(kept.rounds, LazyRounds) or not game.rounds
        assert kept.tally == game.tally
        assert [list(m) for m in (kept.tally.totals, kept.tally.wins, kept.tally.losses)] == [
            list(m) for m in (game.tally.totals, game.tally.wins, game.tally.losses)]


@pytest.mark.parametrize("damage", [
    "UPDATE tally_entries SET value = 'seven' WHERE sums = 'totals' AND seq = 0",
    "UPDATE tally_entries SET sums = 'bonus' WHERE seq = 0 AND sums = 'wins'",
    "UPDATE tally_entries SET entrant = 12 WHERE seq = 1 AND sums = 'totals'",
    "UPDATE tally_sums SET scored = 0",
    "UPDATE tally_sums SET dealer = 4",
    "UPDATE tally_sums SET rounds = 'many'",
    "UPDATE tally_sums SET loser = 'Zed', scored = 1",
    "UPDATE tally_entries SET entrant = 'Zed' WHERE sums = 'points' AND seq = 0",
    "UPDATE tally_entries SET value = 1.5 WHERE sums = 'points' AND seq = 0",
    "UPDATE tally_entries SET sums = 'bonus' WHERE sums = 'points' AND seq = 0",
    "DROP TABLE tally_entries",
    "DELETE FROM tally_entries WHERE sums = 'losses' AND seq = 2",
])
def test_damaged_tally_rows_are_not_used(tmp_path, damage: str) -> None:
    """Rows edited by hand, or damaged, at the game's own revision: read the rounds instead."""
    db = tmp_path / "g.db"
    game_id = long_game(db, 30)
    with Store(db) as store:
        store.conn.execute(damage)
        game = store.games.load(game_id, lazy=True)
        assert not isinstance(game.rounds, LazyRounds)
        assert game.tally == fresh(store.games.load(game_id)).tally


def test_the_tally_tables_are_made_by_the_first_tally_written(tmp_path, monkeypatch) -> None:
    """Opening and reading a file adds nothing to it; the first game written makes the
    tally's tables, in its own transaction: a write that fails leaves no table behind."""
    db = tmp_path / "g.db"

    def tables() -> set[str]:
        conn = sqlite3.connect(db)
        try:
            return {n for (n,) in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()

    new = ["game", "new", "--db", str(db), "--edition", "classic", "--method", "winner",
           "--players", "Ann,Bob", "--lang", "en"]
    assert main(["game", "list", "--db", str(db)]) == 0
    made = tables()
    assert "games" in made and "tally_sums" not in made

    def fails(*_args: object) -> None:  # a watcher, called after the tally is written
        raise sqlite3.OperationalError("disk I/O error")

    with monkeypatch.context() as patch:  # the game's rows go, and the tables with them
        patch.setattr(game_watchers, "watchers", lambda: [("games", fails)])
        game = Game.new("classic", Rules.make("winner", MAX_TARGET), ["Ann", "Bob"])
        with Store(db) as store, pytest.raises(StoreError):
            store.games.create(game.add_round("Ann", {"Bob": Hand(counted=4)}))
    assert tables() == made
    assert main(new) == 0
    assert {"tally_sums", "tally_entries"} <= tables()


def test_a_tally_kept_for_another_revision_is_not_used(tmp_path) -> None:
    """An older program corrected a round (same rounds, same players) and moved the game's
    revision on without the rows: they are of the game before, so the game is read whole."""
    db = tmp_path / "g.db"
    game_id = long_game(db, 30)
    with Store(db) as store:
        store.conn.execute("UPDATE hands SET counted = counted + 5 WHERE round_id = "
                           "(SELECT id FROM rounds WHERE number = 3) AND counted > 0")
        store.conn.execute("UPDATE games SET revision = revision + 1 WHERE id = ?", (game_id,))
        game = store.games.load(game_id, lazy=True)
        assert not isinstance(game.rounds, LazyRounds)
        assert game.tally == fresh(store.games.load(game_id)).tally
        kept = tally_rows.read(store.conn, game_id, game.revision - 1,
                               list(game.tally.totals), game.names)
        assert kept is not None and kept.totals != game.tally.totals  # the sums before


def test_the_cli_says_the_same_of_a_long_game_as_of_a_short_one(tmp_path, capsys) -> None:
    db = tmp_path / "g.db"
    game_id = long_game(db, 500)
    argv = ["game", "round", "--db", str(db), "--game", str(game_id), "--winner", "Ann",
            "--points", "Bob: 7", "--points", "Cid: 9", "--lang", "en"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "Round 501 saved." in out
    assert main(["game", "show", "--db", str(db), "--game", str(game_id), "--lang", "en"]) == 0
    shown = capsys.readouterr().out
    standings = out[out.index("#"):]
    assert standings in shown  # the standings after the round are what `show` counts
