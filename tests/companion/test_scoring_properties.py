"""Every scoring method over random games: what a round gives adds up as the method says, the
standings are ranked by the method's own key, and a game comes back equal from JSON and CSV."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.deck.cards import parse_card
from companion.scoring import H2O_DEDUCTIONS, METHODS, Entry, Rules
from companion.store.transfer import export_game, import_game
from companion.table.game import Game, Hand

NAMES = ["Ann", "Bob", "Cid", "Dan", "Eve", "Fay"]


@st.composite
def games(draw: st.DrawFn) -> Game:
    key = draw(st.sampled_from(list(METHODS)))
    method = METHODS[key]
    options = [o for o in method.options if draw(st.booleans())]
    edition = "h2o" if "h2o" in options else ("teams" if key == "teams" else "classic")
    low = max(2, method.min_players)
    count = draw(st.integers(low, min(6, method.max_players)).filter(
        lambda n: n % method.players_step == 0))
    game = Game.new(edition, Rules.make(key, None, options), NAMES[:count])
    for _ in range(draw(st.integers(0, 8))):
        if game.verdict.over:
            break
        seated = game.seated_in(len(game.rounds))
        winner = draw(st.sampled_from(seated))
        if method.entry is Entry.ORDER:
            order = draw(st.permutations(seated))
            game = game.add_round(None, order=order[: len(order) - draw(st.integers(0, 1))])
        elif method.entry is Entry.WINNER:
            game = game.add_round(winner)
        else:
            out = game.entrant_of(winner).members
            hands = {p: Hand(counted=draw(st.integers(1, 120))) for p in seated if p not in out}
            out_on = None
            if game.rules.h2o:
                out_on = draw(st.sampled_from([None, *H2O_DEDUCTIONS]))
            game = game.add_round(winner, hands, out_on=out_on)
    return game


@settings(max_examples=120)
@given(games())
def test_rounds_add_up_as_the_method_says(game: Game):
    method = game.rules.method
    for rnd, score in zip(game.rounds, game.scores, strict=True):
        given_points = sum(score.points.values())
        hands = sum(score.hand_values.values())
        deduction = H2O_DEDUCTIONS.get(rnd.out_on, 0) if rnd.out_on is not None else 0
        if method.key in ("own", "championship"):
            assert given_points == hands - deduction
        elif method.key in ("winner", "teams"):
            assert given_points == hands and score.points[game.entrant_of(rnd.winner).name] == hands
        else:  # one win a round: lazy, last, seven
            assert given_points == 1
        if method.entry is Entry.ORDER:
            assert rnd.order[0] == rnd.winner and score.loser == rnd.order[-1]
            assert sorted(rnd.order) == sorted(game.seated_in(game.rounds.index(rnd)))
    assert sum(game.totals.values()) == sum(sum(s.points.values()) for s in game.scores)


@settings(max_examples=120)
@given(games())
def test_the_standings_follow_the_methods_own_order(game: Game):
    method = game.rules.method
    lines = game.standings()
    keys = [method.rank_key(s) for s in lines]
    assert keys == sorted(keys)
    assert lines[0].rank == 1
    for before, after, k0, k1 in zip(lines, lines[1:], keys, keys[1:], strict=False):
        assert (after.rank == before.rank) == (k0 == k1)
    if game.verdict.over:
        assert {s.name for s in lines if s.status == "winner"} == set(game.verdict.winners)


@settings(max_examples=60)
@given(games())
def test_every_game_comes_back_equal_from_json_and_csv(game: Game):
    for fmt in ("json", "csv"):
        back, _duels = import_game(export_game(game, fmt=fmt), fmt)
        assert back.rules == game.rules and back.rounds == game.rounds
        assert back.standings() == game.standings()


def test_the_h2o_cards_are_the_two_the_seed_names():
    assert dict(H2O_DEDUCTIONS) == {parse_card("wild+1"): 20, parse_card("wild+2"): 40}
