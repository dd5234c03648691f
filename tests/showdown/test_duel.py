"""The duel engine's rules, one test per rule, then properties over any input order."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from showdown.contract.events import (
    GoShown,
    LaunchPart,
    Outcome,
    PaddlePressed,
    Side,
    TiePolicy,
)
from showdown.duel.engine import (
    Abort,
    Announce,
    Contest,
    Duel,
    DuelConfig,
    DuelError,
    FreezeCountdown,
    LaunchCards,
    Load,
    Phase,
    PointArrow,
    ShowGo,
    Start,
    StartCountdown,
    run_to_verdict,
)

L, R = Side.LEFT, Side.RIGHT
P = PaddlePressed  # a paddle's press: P(side, t_us)
GO = 3_001_000  # start at 1 ms, 3 s countdown


def duel_of(*inputs, config: DuelConfig | None = None) -> Duel:
    duel = Duel(config or DuelConfig())
    run_to_verdict(duel, [Load(L, R, 2), Start(1_000, 3_000_000), *inputs])
    return duel


def launches(actions) -> list[tuple[LaunchPart, ...]]:
    return [a.parts for a in actions if isinstance(a, LaunchCards)]


# --- load and start ---------------------------------------------------------


def test_load_rejects_same_side_and_no_cards():
    with pytest.raises(DuelError):
        Load(L, L, 1)
    with pytest.raises(DuelError):
        Load(L, R, 0)


def test_countdown_is_drawn_between_the_bounds_from_the_injected_random_source():
    config = DuelConfig(countdown_min_us=2_000_000, countdown_max_us=2_500_000)
    drawn = set()
    for seed in range(30):
        duel = Duel(config, random.Random(seed))
        duel.handle(Load(L, R))
        (start,) = [a for a in duel.handle(Start(0)) if isinstance(a, StartCountdown)]
        assert 2_000_000 <= start.countdown_us <= 2_500_000
        drawn.add(start.countdown_us)
    assert len(drawn) > 20  # random, so nobody can anticipate go
    again = Duel(config, random.Random(7))
    again.handle(Load(L, R))
    first = Duel(config, random.Random(7))
    first.handle(Load(L, R))
    assert again.handle(Start(0)) == first.handle(Start(0))  # reproducible with a seed


def test_explicit_countdown_sets_go_and_go_is_announced_when_due():
    duel = Duel()
    duel.handle(Load(L, R))
    duel.handle(Start(1_000, 3_000_000))
    assert duel.next_deadline_us == GO
    assert duel.advance(GO - 1) == []
    assert duel.advance(GO) == [ShowGo(GO)]


def test_timer_button_without_cards_does_nothing():
    duel = Duel()
    assert duel.handle(Start(0, 1_000_000)) == []
    assert duel.phase is Phase.IDLE


# --- verdicts -----------------------------------------------------------------


def test_faster_press_wins_and_cards_fly_at_the_slower_player():
    duel = duel_of(P(R, GO + 150_000), P(L, GO + 200_000))
    r = duel.result
    assert (r.outcome, r.winner, r.loser, r.arrow) == (Outcome.FASTER, R, L, None)
    assert r.launch == (LaunchPart(L, 2),)
    # The slower press came after the verdict (150 ms + settle): not in the verdict, which
    # never waits for it, but timed for the players' statistics.
    assert r.reaction_us == {L: None, R: 150_000}
    assert duel.reaction_us() == {L: 200_000, R: 150_000}


def test_press_exactly_at_go_is_valid():
    duel = duel_of(P(L, GO), P(R, GO + 90_000))
    assert duel.result.outcome is Outcome.FASTER
    assert duel.result.winner is L
    assert duel.result.reaction_us[L] == 0


def test_early_press_stops_the_countdown_points_the_arrow_and_loses():
    duel = Duel()
    duel.handle(Load(L, R, 3))
    duel.handle(Start(1_000, 3_000_000))
    acts = duel.handle(P(L, 2_000_000))
    assert acts == [FreezeCountdown(2_000_000, L)]  # at once, before any verdict
    acts = duel.advance(2_000_000 + duel.config.settle_us + duel.config.tie_window_us)
    assert PointArrow(L) in acts
    assert launches(acts) == [(LaunchPart(L, 3),)]
    r = duel.result
    assert (r.outcome, r.loser, r.winner, r.arrow) == (Outcome.EARLY_PRESS, L, R, L)
    assert duel.advance(GO + 10_000_000) == []  # go never comes after a freeze


def test_when_both_press_early_the_earlier_loses():
    duel = duel_of(P(R, 2_500_000), P(L, 2_000_000))
    assert duel.result.outcome is Outcome.EARLY_PRESS
    assert duel.result.loser is L


def test_presses_before_the_countdown_started_are_not_early():
    duel = duel_of(P(L, 500), P(L, GO + 300_000), P(R, GO + 200_000))
    assert duel.result.outcome is Outcome.FASTER
    assert duel.result.winner is R


def test_only_the_first_edge_of_a_paddle_counts():
    # Bounce: R's second edge is earlier than L's press, but R's first was later.
    duel = duel_of(P(R, GO + 160_400), P(L, GO + 150_000), P(R, GO + 160_000))
    assert duel.result.winner is L
    assert duel.reaction_us()[R] == 160_000


def test_presses_within_the_tie_window_are_a_tie_and_rematch_by_default():
    duel = Duel(DuelConfig(tie_window_us=1_000))
    acts = run_to_verdict(
        duel, [Load(L, R, 2), Start(1_000, 3_000_000), P(L, GO + 100_000),
               P(R, GO + 100_999)]
    )
    tie = duel.results[0]
    assert tie.outcome is Outcome.TIE and tie.rematch and tie.launch == ()
    assert launches(acts) == []
    assert duel.phase is Phase.LOADED  # the same duel can be started again
    acts = run_to_verdict(duel, [Start(5_000_000, 3_000_000), P(R, 8_200_000),
                                 P(L, 8_300_000)])
    assert duel.result.outcome is Outcome.FASTER and duel.result.winner is R
    assert launches(acts) == [(LaunchPart(L, 2),)]


def test_a_gap_equal_to_the_tie_window_is_decided():
    duel = duel_of(P(L, GO + 100_000), P(R, GO + 101_000),
                   config=DuelConfig(tie_window_us=1_000))
    assert duel.result.outcome is Outcome.FASTER


def test_equal_stamps_are_a_tie_even_with_no_window():
    duel = duel_of(P(L, GO + 100_000), P(R, GO + 100_000),
                   config=DuelConfig(tie_window_us=0))
    assert duel.results[0].outcome is Outcome.TIE


def test_split_tie_divides_the_cards_the_later_presser_taking_the_odd_one():
    config = DuelConfig(tie_window_us=1_000, tie_policy=TiePolicy.SPLIT)
    duel = Duel(config)
    acts = run_to_verdict(duel, [Load(L, R, 3), Start(1_000, 3_000_000),
                                 P(R, GO + 100_500), P(L, GO + 100_000)])
    assert launches(acts) == [(LaunchPart(R, 2), LaunchPart(L, 1))]
    assert duel.result.outcome is Outcome.TIE and duel.phase is Phase.DONE
    assert duel.result.to_json()["launch"] == [{"side": "right", "cards": 2},
                                               {"side": "left", "cards": 1}]


def test_nobody_pressing_is_a_timeout_without_launch():
    duel = Duel()
    acts = run_to_verdict(duel, [Load(L, R, 2), Start(1_000, 3_000_000)])
    assert duel.result.outcome is Outcome.TIMEOUT
    assert launches(acts) == []
    assert duel.result.decided_at_us == (
        GO + duel.config.response_timeout_us + duel.config.settle_us + 1
    )


def test_a_press_after_the_response_timeout_does_not_count():
    config = DuelConfig(response_timeout_us=1_000_000)
    duel = duel_of(P(L, GO + 1_000_001), config=config)
    assert duel.result.outcome is Outcome.TIMEOUT


def test_one_press_alone_wins():
    duel = duel_of(P(R, GO + 400_000))
    assert duel.result.winner is R
    assert duel.result.reaction_us == {L: None, R: 400_000}


def test_late_delivered_early_press_beats_a_faster_looking_press_that_arrived_first():
    """A press stamped before go but delivered after it is still an early press."""
    config = DuelConfig()
    duel = Duel(config)
    duel.handle(Load(L, R, 1))
    duel.handle(Start(1_000, 3_000_000))
    assert duel.advance(GO) == [ShowGo(GO)]
    duel.handle(P(R, GO + 120_000))
    duel.advance(GO + 120_000 + 10_000)  # still settling: no verdict yet
    assert duel.results == []
    duel.handle(P(L, GO - 5_000))  # stamped before go, arrives now
    acts = duel.advance(GO + 121_000 + config.settle_us)
    assert duel.result.outcome is Outcome.EARLY_PRESS and duel.result.loser is L
    assert PointArrow(L) in acts


def test_the_verdict_waits_the_settle_time_after_the_decisive_press():
    config = DuelConfig(settle_us=20_000, tie_window_us=100)
    duel = Duel(config)
    duel.handle(Load(L, R))
    duel.handle(Start(1_000, 3_000_000))
    duel.advance(GO)
    duel.handle(P(L, GO + 200_000))
    assert duel.next_deadline_us == GO + 200_000 + 100 + 20_000
    assert duel.advance(GO + 200_000 + 20_099) == []
    duel.handle(P(R, GO + 190_000))  # earlier stamp, arrived within the settle time
    acts = duel.advance(GO + 200_000 + 20_100)
    assert next(a for a in acts if isinstance(a, Announce)).result.winner is R


def test_go_shown_later_than_planned_moves_the_line():
    """A press after the planned go but before the light came on is early."""
    duel = duel_of(GoShown(GO + 2_000), P(L, GO + 1_000), P(R, GO + 200_000))
    assert duel.result.outcome is Outcome.EARLY_PRESS
    assert duel.result.loser is L


def test_a_go_shown_after_an_early_press_does_not_move_the_line():
    """The press before the planned go froze the countdown there; a go the unit showed anyway
    (it heard of the press late) must not make a press after the planned go early too, or the
    verdict would depend on whether that report arrived before the engine committed."""
    config = DuelConfig(tie_window_us=100)
    duel = duel_of(P(L, GO - 50), P(R, GO + 30), GoShown(GO + 500), config=config)
    assert duel.result.outcome is Outcome.EARLY_PRESS and duel.result.loser is L
    assert duel.result.go_us == GO and duel.result.reaction_us == {L: -50, R: 30}


def test_reactions_are_timed_from_the_go_the_unit_showed():
    duel = duel_of(GoShown(GO + 2_000), P(L, GO + 1_000), P(R, GO + 200_000))
    assert duel.result.go_us == GO + 2_000
    assert duel.reaction_us() == {L: -1_000, R: 198_000}


def test_inputs_after_the_verdict_change_nothing():
    duel = duel_of(P(L, GO + 150_000))
    assert duel.handle(P(R, GO + 400_000)) == []  # the slower player: only timed
    assert duel.handle(Start(9_000_000, 1_000_000)) == []
    assert duel.result.winner is L and duel.contest is None


def test_a_late_press_that_would_have_changed_the_verdict_contests_it():
    duel = duel_of(P(L, GO + 150_000))
    (contest,) = duel.handle(P(R, GO + 140_000))  # earlier stamp, delivered too late
    assert contest == Contest(R, GO + 140_000, Outcome.FASTER, Outcome.FASTER, R)
    assert duel.result.winner is L  # the verdict stands: the cards have flown
    assert duel.contest == contest
    assert duel.handle(P(R, GO - 1_000_000)) == []  # contested once is enough


@pytest.mark.parametrize(("late", "would_be", "would_win"), [
    (P(R, GO - 1_000), Outcome.EARLY_PRESS, L),  # an early press: the other side wins
    (P(R, GO + 150_050), Outcome.TIE, None),  # within the tie window
])
def test_a_contest_names_the_verdict_the_stamps_give(late, would_be, would_win):
    duel = duel_of(P(L, GO + 150_000))
    (contest,) = duel.handle(late)
    assert (contest.would_be, contest.would_win) == (would_be, would_win)


def test_a_press_after_a_timeout_contests_it_only_if_stamped_in_time():
    config = DuelConfig(response_timeout_us=1_000_000)
    duel = duel_of(config=config)
    assert duel.result.outcome is Outcome.TIMEOUT
    assert duel.handle(P(L, GO + 1_000_001)) == []  # too slow anyway
    (contest,) = duel.handle(P(R, GO + 999_000))
    assert contest.would_be is Outcome.FASTER and contest.would_win is R


def test_abort_gives_no_launch_and_nothing_counts_after():
    duel = Duel()
    duel.handle(Load(L, R, 2))
    duel.handle(Start(0, 3_000_000))
    acts = duel.handle(Abort(1_000_000, "link lost"))
    assert duel.result.outcome is Outcome.ABORTED and duel.result.reason == "link lost"
    assert launches(acts) == []
    assert duel.handle(P(L, 3_100_000)) == []
    assert duel.advance(99_000_000) == []


@pytest.mark.parametrize(
    "kwargs",
    [
        {"countdown_min_us": 0},
        {"countdown_min_us": 5_000_000, "countdown_max_us": 4_000_000},
        {"settle_us": -1},
        {"response_timeout_us": 0},
        {"tie_policy": "coin"},
        {"tie_window_us": 99_999_999_999},  # every duel a tie, forever
        {"settle_us": 10**20},  # a verdict that never comes
        {"response_timeout_us": 3.5},
    ],
)
def test_bad_config_is_refused(kwargs):
    with pytest.raises(ValueError):
        DuelConfig(**kwargs)


# --- properties ---------------------------------------------------------------

press_strategy = st.tuples(
    st.integers(min_value=-500_000, max_value=7_000_000),  # stamp relative to the start
    st.sampled_from([L, R]),
)


@st.composite
def duel_inputs(draw):
    config = DuelConfig(
        tie_window_us=draw(st.integers(0, 5_000)),
        tie_policy=draw(st.sampled_from(list(TiePolicy))),
        response_timeout_us=draw(st.integers(100_000, 3_000_000)),
        settle_us=draw(st.integers(0, 50_000)),
    )
    start = draw(st.integers(0, 1_000_000))
    countdown = draw(st.integers(1, 6_000_000))
    presses = [P(side, start + dt) for dt, side in draw(st.lists(press_strategy, max_size=8))]
    extra = []
    if draw(st.booleans()):
        extra.append(GoShown(start + countdown + draw(st.integers(0, 5_000))))
    return config, Start(start, countdown), presses + extra, draw(st.integers(1, 3))


def engine(config: DuelConfig, inputs: list) -> Duel:
    """A duel that waits for the unit's go report when the unit sends one."""
    return Duel(config, await_go_report=any(isinstance(e, GoShown) for e in inputs))


@given(duel_inputs(), st.randoms(use_true_random=False))
def test_shuffling_arrival_order_never_changes_the_verdict(case, rnd):
    config, start, inputs, cards = case
    shuffled = list(inputs)
    rnd.shuffle(shuffled)
    # The start may also arrive after some presses.
    at = rnd.randint(0, len(shuffled))
    one = engine(config, inputs)
    run_to_verdict(one, [Load(L, R, cards), start, *inputs])
    two = engine(config, inputs)
    run_to_verdict(two, [Load(L, R, cards), *shuffled[:at], start, *shuffled[at:]])
    assert [r.to_json() for r in one.results] == [r.to_json() for r in two.results]


@given(duel_inputs(), st.randoms(use_true_random=False))
def test_delivery_within_the_settle_time_never_changes_the_verdict(case, rnd):
    """Live: each input arrives up to `settle_us` late, with time advancing in between."""
    config, start, inputs, cards = case
    reference = engine(config, inputs)
    run_to_verdict(reference, [Load(L, R, cards), start, *inputs])
    arrivals = sorted(
        ((e.t_us + rnd.randint(0, config.settle_us), i) for i, e in enumerate(inputs)),
    )
    live = engine(config, inputs)
    live.handle(Load(L, R, cards))
    live.handle(start)
    for arrive, i in arrivals:
        while live.next_deadline_us is not None and live.next_deadline_us <= arrive:
            live.advance(live.next_deadline_us)
        live.advance(arrive)
        live.handle(inputs[i])
    run_to_verdict(live, [])
    assert [r.to_json() for r in live.results][:1] == [r.to_json() for r in reference.results][:1]


any_input = st.one_of(
    st.builds(P, st.sampled_from([L, R]), st.integers(-1_000_000, 20_000_000)),
    st.builds(Start, st.integers(-1_000_000, 20_000_000),
              st.one_of(st.none(), st.integers(1, 6_000_000))),
    st.builds(GoShown, st.integers(-1_000_000, 20_000_000)),
    st.builds(Abort, st.integers(0, 20_000_000)),
    st.builds(Load, st.just(L), st.just(R), st.integers(1, 3)),
    st.integers(0, 30_000_000),  # an advance of the clock
)


@given(st.lists(any_input, max_size=40), st.sampled_from(list(TiePolicy)))
def test_no_input_sequence_launches_twice(sequence, policy):
    duel = Duel(DuelConfig(tie_policy=policy, tie_window_us=2_000), random.Random(0))
    fired = []
    now = 0
    for item in [Load(L, R, 2), *sequence]:
        if isinstance(item, int):
            now = max(now, item)
            acts = duel.advance(now)
        else:
            acts = duel.handle(item)
        fired += launches(acts)
    fired += launches(run_to_verdict(duel, []))
    assert len(fired) <= 1
    aborted = any(r.outcome is Outcome.ABORTED for r in duel.results)
    if aborted:
        assert duel.results[-1].outcome is Outcome.ABORTED or fired


def test_a_go_shown_late_freezes_for_a_press_it_makes_early():
    """A unit that reports its own go showed it 2 ms after the planned instant; a press
    stamped between the two reached the engine first. When the go report arrives that press
    is an early one, and the table hears it then (the freeze), not only in the verdict."""
    duel = Duel(DuelConfig(), await_go_report=True)
    duel.handle(Load(L, R, 2))
    duel.handle(Start(1_000, 3_000_000))
    assert duel.handle(P(L, GO + 500)) == []  # after the planned go: not early yet
    assert duel.handle(GoShown(GO + 2_000)) == [FreezeCountdown(GO + 500, L)]
    assert run_to_verdict(duel, []) and duel.result is not None
    assert duel.result.outcome is Outcome.EARLY_PRESS and duel.result.loser is L
