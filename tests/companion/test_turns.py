"""Who plays next and who duels whom (UNO Showdown), against the rules' own examples."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.table.turns import (
    Direction,
    Seating,
    TurnError,
    by_hand,
    last_card_duel,
    parse_direction,
    round_duels,
    showdown_card,
    wild_showdown,
)

TABLE = Seating(("Ann", "Bob", "Cid", "Dan"))


def test_play_goes_left_in_seating_order_and_a_reverse_turns_it() -> None:
    assert TABLE.after("Ann") == "Bob" and TABLE.after("Dan") == "Ann"
    assert TABLE.before("Ann") == "Dan"
    turned = TABLE.reversed()
    assert turned.direction is Direction.COUNTERCLOCKWISE
    assert turned.after("Ann") == "Dan" and turned.before("Ann") == "Bob"
    assert turned.reversed() == TABLE  # two Reverses cancel out
    assert turned.left_of("Ann") == "Bob"  # who sits left does not change
    assert TABLE.others("Cid") == ("Dan", "Ann", "Bob")
    assert turned.others("Cid") == ("Bob", "Ann", "Dan")


def test_names_are_found_in_any_case_and_a_stranger_is_named_in_the_error() -> None:
    assert TABLE.after(" bob ") == "Cid"
    with pytest.raises(TurnError, match=r"no player 'Eve'.*Ann, Bob, Cid, Dan"):
        TABLE.after("Eve")
    with pytest.raises(TurnError, match="two players"):
        Seating(("Ann",)).after("Ann")


def test_a_showdown_card_pairs_its_player_with_the_next_player_in_turn() -> None:
    duel = showdown_card(TABLE, "Bob", 2)
    assert (duel.challenger, duel.opponent, duel.cards, duel.wild) == ("Bob", "Cid", 2, False)
    after_reverse = showdown_card(TABLE.reversed(), "Bob", 3)
    assert (after_reverse.challenger, after_reverse.opponent) == ("Bob", "Ann")
    two = Seating(("Ann", "Bob"))
    assert showdown_card(two, "Bob", 1).opponent == "Ann"


@pytest.mark.parametrize("cards", [0, 4, -1, True])
def test_a_showdown_loads_one_to_three_cards(cards: int) -> None:
    with pytest.raises(TurnError, match="1 to 3 cards"):
        showdown_card(TABLE, "Ann", cards)
    with pytest.raises(TurnError, match="1 to 3 cards"):
        wild_showdown(TABLE, "Ann", "Cid", cards)


def test_a_wild_showdown_picks_any_opponent_but_not_its_own_player() -> None:
    duel = wild_showdown(TABLE, "Ann", "cid", 3)
    assert (duel.challenger, duel.opponent, duel.cards, duel.wild) == ("Ann", "Cid", 3, True)
    with pytest.raises(TurnError, match="cannot duel themselves"):
        wild_showdown(TABLE, "Ann", "ANN", 1)


def test_a_duel_by_hand_is_any_two_players_found_by_the_one_name_rule() -> None:
    """`uno-showdown duel ANN BOB`: names found as `companion.table.names.name_key` finds them
    (case, runs of spaces, an accent written either way), as seated."""
    table = Seating(("Åsa Berg", "Bob", "Cid"))
    assert by_hand(table, "a\u030asa   berg", "CID") == ("Åsa Berg", "Cid")
    assert by_hand(table.reversed(), "Cid", "Bob") == ("Cid", "Bob")  # any two, any way
    with pytest.raises(TurnError, match="Bob cannot duel themselves: name two different"):
        by_hand(table, "Bob", " bob")
    with pytest.raises(TurnError, match="no player 'Zed'"):
        by_hand(table, "Zed", "Bob")


@given(st.integers(2, 10), st.integers(0, 9), st.booleans(), st.integers(1, 3))
def test_the_opponent_is_always_the_neighbour_play_goes_to(n: int, at: int, turned: bool,
                                                           cards: int) -> None:
    players = tuple(f"P{i}" for i in range(n))
    seating = Seating(players, Direction.COUNTERCLOCKWISE if turned else Direction.CLOCKWISE)
    me = players[at % n]
    duel = showdown_card(seating, me, cards)
    step = -1 if turned else 1
    assert duel.opponent == players[(at % n + step) % n] != me
    assert seating.after(seating.before(me)) == me
    assert sorted(seating.others(me)) == sorted(p for p in players if p != me)


@pytest.mark.parametrize(("text", "direction"), [
    ("clockwise", Direction.CLOCKWISE), ("Left", Direction.CLOCKWISE),
    ("counter-clockwise", Direction.COUNTERCLOCKWISE), ("CCW", Direction.COUNTERCLOCKWISE),
    ("right", Direction.COUNTERCLOCKWISE),
])
def test_directions_as_people_type_them(text: str, direction: Direction) -> None:
    assert parse_direction(text) is direction
    with pytest.raises(TurnError, match="not a direction"):
        parse_direction("up")


@dataclass(frozen=True)
class Duel:
    after_round: int
    challenger: str
    opponent: str
    outcome: str
    winner: str | None
    loser: str | None


def test_going_out_on_a_showdown_card_stands_only_if_its_duel_was_won() -> None:
    duels = [
        Duel(0, "Ann", "Bob", "faster", "Bob", "Ann"),  # a round earlier: not this one
        Duel(1, "Cid", "Ann", "faster", "Ann", "Cid"),
        Duel(1, "Bob", "Cid", "faster", "Cid", "Bob"),  # not Ann's
        Duel(1, "Ann", "Bob", "aborted", None, None),  # nobody played it
    ]
    won = last_card_duel("Ann", duels, 1)
    assert won.won and won.duel is duels[1]
    assert round_duels(duels, 1, "Ann") == [duels[1]]
    lost = last_card_duel("Ann", [*duels, Duel(1, "Ann", "Bob", "faster", "Bob", "Ann")], 1)
    assert not lost.won
    assert lost.message() == ("Ann lost the duel on their last card: Ann takes the cards and "
                              "play goes on, with no round to record yet")
    early = last_card_duel("Bob", [Duel(1, "Ann", "Bob", "early_press", "Ann", "Bob")], 1)
    assert not early.won
    tie = last_card_duel("Bob", [Duel(1, "Ann", "Bob", "tie", None, None)], 1)
    assert not tie.won and "was a tie" in tie.message()
    # whichever tie rule the unit ran: a replayed tie moved no cards, a split one did
    assert "play the duel again" in tie.message() and "their share" in tie.message()
    nobody = last_card_duel("Bob", [Duel(1, "Ann", "Bob", "timeout", None, None)], 1)
    assert not nobody.won and "nobody pressed" in nobody.message()


def test_without_a_recorded_duel_the_table_says_how_it_went() -> None:
    with pytest.raises(TurnError, match="no duel of Dan's was recorded in this round"):
        last_card_duel("Dan", [Duel(0, "Dan", "Ann", "faster", "Dan", "Ann")], 1)
    assert last_card_duel("Dan", [], 1, said=True).won
    assert not last_card_duel("Dan", [], 1, said=False).won
    # what the table says wins over the unit's record (a duel replayed by hand)
    assert last_card_duel("Dan", [Duel(1, "Dan", "Ann", "faster", "Ann", "Dan")], 1,
                          said=True).won
