"""The pure cores on their own: the clock from its events and a `now`, standings that are
idempotent by deal id and revision, exact results, the tie-break, the awards."""

from __future__ import annotations

from fractions import Fraction
from types import SimpleNamespace
from typing import Any, cast

import pytest
from hypothesis import given
from hypothesis import strategies as st

from championship.core.clock import (
    ClockChange,
    Kind,
    Status,
    clock_view,
    replay,
    stage_plan,
)
from championship.core.errors import ChampionshipError
from championship.core.results import awards
from championship.core.settings import (
    LuckyBy,
    Seating,
    TieKey,
    TimeUp,
    make,
    parse_tie_break,
)
from championship.core.standings import Deal, Entrant, standings
from championship.core.text import decimal_text, fraction_text

M = 60_000_000
T0 = 1_000_000_000_000


def test_the_seeds_stages_and_breaks() -> None:
    one = stage_plan(make(tables=3), 1)
    assert [(p.key, p.duration_us // M, p.break_us // M) for p in one] == [
        ("flight-1", 60, 10), ("final", 60, 0)]
    two = stage_plan(make(tables=3), 2)
    assert [(p.key, p.duration_us // M, p.break_us // M) for p in two] == [
        ("flight-1", 45, 15), ("flight-2", 45, 10), ("final", 60, 0)]


def test_the_clock_runs_pauses_and_calls_time() -> None:
    plan = stage_plan(make(tables=3), 2)
    events = [ClockChange(Kind.START, "flight-1", T0)]
    view = clock_view(events, plan, T0 + 10 * M)
    assert (view.stage, view.status, view.left_us) == ("flight-1", Status.RUNNING, 35 * M)
    assert view.time_up_at_us == T0 + 45 * M and view.next_stage == "flight-2"
    events.append(ClockChange(Kind.PAUSE, "flight-1", T0 + 10 * M))
    view = clock_view(events, plan, T0 + 20 * M)
    assert (view.status, view.left_us, view.time_up_at_us) == (Status.PAUSED, 35 * M, None)
    events.append(ClockChange(Kind.RESUME, "flight-1", T0 + 25 * M))
    assert clock_view(events, plan, T0 + 25 * M).time_up_at_us == T0 + 60 * M
    up = clock_view(events, plan, T0 + 61 * M)
    assert (up.status, up.left_us, up.break_left_us) == (Status.TIME_UP, 0, 14 * M)
    assert clock_view(events, plan, T0 + 90 * M).break_left_us == 0
    events.append(ClockChange(Kind.START, "flight-2", T0 + 80 * M))
    events.append(ClockChange(Kind.END, "flight-2", T0 + 100 * M))  # time called early
    view = clock_view(events, plan, T0 + 101 * M)
    assert (view.stage, view.status, view.time_up_at_us) == ("flight-2", Status.TIME_UP,
                                                             T0 + 100 * M)
    assert view.break_left_us == 9 * M and view.next_stage == "final"
    # calling time after the time ran out changes nothing
    late = [*events[:3], ClockChange(Kind.END, "flight-1", T0 + 70 * M)]
    assert replay(late, plan)["flight-1"].time_up_at() == T0 + 60 * M


def test_before_the_start_and_after_the_final() -> None:
    plan = stage_plan(make(tables=3), 1)
    view = clock_view([], plan, T0)
    assert (view.stage, view.status, view.next_stage) == (None, Status.NOT_STARTED, "flight-1")
    events = [ClockChange(Kind.START, "flight-1", T0), ClockChange(Kind.START, "final", T0 + M)]
    view = clock_view(events, plan, T0 + 61 * M)
    assert (view.stage, view.status, view.next_stage, view.break_left_us) == (
        "final", Status.TIME_UP, None, None)


@given(st.lists(st.tuples(st.sampled_from(list(Kind)), st.integers(0, 200)), max_size=12))
def test_time_is_never_up_before_the_minutes_have_run(steps: list[tuple[Kind, int]]) -> None:
    """However the organiser starts, pauses, resumes and calls time, a running stage has
    played exactly its minutes (pauses not counted) when its time is up, unless called."""
    plan = stage_plan(make(tables=3, qualifying_minutes=30), 1)
    events, at = [ClockChange(Kind.START, "flight-1", T0)], T0
    for kind, minutes in steps:
        at += minutes * M // 10
        events.append(ClockChange(kind, "flight-1", at))
    c = replay(events, plan)["flight-1"]
    up = c.time_up_at()
    if up is None:
        assert c.paused
        return
    paused = c.paused_us
    if c.paused_at_us is not None:  # time was called during a pause
        paused += up - c.paused_at_us
    if c.ended_at_us is None:
        assert up - T0 - paused == 30 * M
    else:
        assert up - T0 - paused <= 30 * M


def E(number: int, lot: int, withdrawn: bool = False) -> Entrant:
    return Entrant(number, f"P{number}", lot, withdrawn)


def test_results_are_exact_and_deals_count_once_by_id_and_revision() -> None:
    players = [E(1, 3), E(2, 1), E(3, 2)]
    deals = [
        Deal("g1:1", 1, "qualifying", {1: 0, 2: 10, 3: 7}),
        Deal("g1:2", 2, "qualifying", {1: 5, 2: 0, 3: 9}),
        Deal("g1:2", 2, "qualifying", {1: 5, 2: 0, 3: 9}),  # the same deal again
        Deal("g1:3", 3, "qualifying", {1: 1, 2: 1, 3: 0}),
        Deal("g1:3", 4, "qualifying", {1: 0, 2: 1, 3: 3}),  # corrected later
        Deal("g1:4", 4, "qualifying", {1: 50, 2: 0, 3: 50}),
        Deal("g1:4", 5, "qualifying", None),  # taken back
        Deal("g1:4", 3, "qualifying", {1: 99, 2: 0, 3: 0}),  # an old copy arriving late
    ]
    lines = standings(players, deals, "qualifying", (TieKey.POINTS, TieKey.GAMES, TieKey.LOT))
    assert [(ln.number, ln.points, ln.games, ln.result) for ln in lines] == [
        (1, 5, 3, Fraction(5, 3)), (2, 11, 3, Fraction(11, 3)), (3, 19, 3, Fraction(19, 3))]
    assert [ln.rank for ln in lines] == [1, 2, 3]
    # in any order, fed any number of times: the same standings
    assert standings(players, list(reversed(deals)) * 3, "qualifying",
                     (TieKey.POINTS, TieKey.LOT)) == lines


def test_the_tie_break_in_its_order_and_the_unranked_last() -> None:
    players = [E(1, 4), E(2, 3), E(3, 2), E(4, 1), E(5, 5, withdrawn=True), E(6, 6)]
    deals = [
        Deal("a", 1, "qualifying", {1: 10, 2: 20, 5: 0}),  # 1: 10/1, 2: 20/2 after "b"
        Deal("b", 1, "qualifying", {2: 0, 3: 10, 4: 10}),  # 3 and 4: 10/1, same lot decides
    ]
    default = (TieKey.POINTS, TieKey.GAMES, TieKey.LOT)
    lines = standings(players, deals, "qualifying", default)
    # results all 10: fewer points first (1, 3, 4 with 10), then more games, then the lot
    assert [ln.number for ln in lines] == [4, 3, 1, 2, 5, 6]
    assert [ln.rank for ln in lines] == [1, 2, 3, 4, None, None]
    by_games = standings(players, deals, "qualifying", (TieKey.GAMES, TieKey.POINTS, TieKey.LOT))
    assert [ln.number for ln in by_games][:4] == [2, 4, 3, 1]
    assert lines[4].withdrawn and lines[5].games == 0


def test_awards_from_the_final_and_the_luckiest_from_qualifying() -> None:
    players = [E(n, n) for n in range(1, 6)]
    q = standings(players, [Deal("q", 1, "qualifying", {1: 5, 2: 1, 3: 9, 4: 2, 5: 0})],
                  "qualifying", (TieKey.LOT,))
    f = standings(players[:4], [Deal("f", 1, "final", {1: 3, 2: 0, 4: 1})], "final",
                  (TieKey.LOT,))
    a = awards(q, f, final_over=True)
    assert [ln.number for ln in a.places] == [2, 4, 1]
    assert a.luckiest is not None and a.luckiest.number == 3  # 9 points, the most
    assert a.luckiest_by is LuckyBy.POINTS


def test_the_luckiest_collected_the_most_points_unless_the_event_reads_it_per_game() -> None:
    """Seed 000: "the participant who collected the most points in the qualifying round".
    Player 1 collected 30 points in 3 games (10 a game), player 2 25 in 1 game (25 a game):
    by the seed's words player 1 is the luckiest; by the per-game reading, player 2."""
    players = [E(n, n) for n in range(1, 4)]
    deals = [Deal("a", 1, "qualifying", {1: 10, 2: 25, 3: 0}),
             Deal("b", 1, "qualifying", {1: 10, 3: 5}),
             Deal("c", 1, "qualifying", {1: 10, 3: 5})]
    q = standings(players, deals, "qualifying", (TieKey.LOT,))
    by_points = awards(q, [], final_over=False)
    assert by_points.luckiest is not None and by_points.luckiest.number == 1
    by_result = awards(q, [], final_over=False, luckiest_by=LuckyBy.RESULT)
    assert by_result.luckiest is not None and by_result.luckiest.number == 2
    assert make(tables=1).luckiest is LuckyBy.POINTS
    assert make(tables=1, luckiest="Result").luckiest is LuckyBy.RESULT
    with pytest.raises(ChampionshipError, match="--luckiest must be points"):
        make(tables=1, luckiest="luck")


def test_settings_refuse_what_makes_no_sense_in_one_sentence() -> None:
    assert make(tables=3).table_size == 7 and make(tables=3).time_up is TimeUp.FINISH
    assert make(tables=3, table_size=5).finalists == 5  # a whole table when tables are small
    assert make(tables=3, seating="Spread").seating is Seating.SPREAD
    assert parse_tie_break("games, points") == (TieKey.GAMES, TieKey.POINTS, TieKey.LOT)
    for bad, words in [({"tables": 0}, "--tables must be a whole number from 1 to 100"),
                       ({"tables": 3, "table_size": 8}, "--table-size"),
                       ({"tables": 3, "finalists": 9}, "--finalists must be"),
                       ({"tables": 3, "table_size": 5, "finalists": 7},
                        "cannot be more than --table-size"),
                       ({"tables": 3, "time_up": "later"}, "--time-up must be finish"),
                       ({"tables": 3, "tie_break": "luck"}, "unknown tie-break 'luck'"),
                       ({"tables": 3, "tie_break": "lot,lot"}, "given twice"),
                       ({"tables": 3, "edition": "poker"}, "unknown edition 'poker'"),
                       ({"tables": 3, "seating": "tight"}, "--seating must be"),
                       ({"tables": True}, "--tables must be")]:
        with pytest.raises(ChampionshipError, match=words) as refused:
            make(**bad)
        assert "\n" not in str(refused.value)


def test_results_read_as_people_and_json_expect() -> None:
    assert fraction_text(Fraction(37, 3)) == "37/3" and fraction_text(Fraction(12)) == "12"
    assert fraction_text(None) is None
    assert [decimal_text(Fraction(n, d)) for n, d in [(37, 3), (1, 8), (5, 2), (0, 1)]] == [
        "12.33", "0.13", "2.50", "0.00"]


def test_a_table_and_the_event_rank_by_one_exact_result() -> None:
    """Points ÷ games has one rule (the championship method's), exact: two results that a
    float would call a tie stay apart at the table and across tables alike."""
    from championship.core.standings import result
    from companion.scoring import Rules
    from companion.scoring.championship import METHOD

    ann, bob = (3 * 2**53 + 3, 3), (3 * 2**53, 3)  # 2**53 + 1 and 2**53 per game
    assert ann[0] / ann[1] == bob[0] / bob[1]  # as floats: a tie
    assert METHOD.result(*ann) == result(*ann) == Fraction(2**53 + 1)
    # At the table (rule 2.1: a game to 500 names no winner) the exact results still rank.
    verdict = METHOD.verdict(Rules.make("championship", 500), {"Ann": ann[0], "Bob": bob[0]},
                             {"Ann": METHOD.result(*ann), "Bob": METHOD.result(*bob)})
    assert verdict.winners == ()
    seated = {n: SimpleNamespace(result=METHOD.result(*p)) for n, p in (("Ann", ann), ("Bob", bob))}
    assert sorted(seated, key=lambda n: METHOD.rank_key(cast(Any, seated[n]))) == ["Bob", "Ann"]
    lines = standings([Entrant(1, "Ann", lot=1), Entrant(2, "Bob", lot=2)],
                      [Deal(f"a{i}", 1, "qualifying", {1: ann[0] // 3, 2: bob[0] // 3})
                       for i in range(3)], "qualifying", (TieKey.POINTS, TieKey.LOT))
    assert [ln.name for ln in lines] == ["Bob", "Ann"]
