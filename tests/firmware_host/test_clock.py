"""The host's board clock: unwraps 2^30 ticks exactly, never runs backwards, survives resets."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware_host.wire.board_clock import BoardClock
from firmware_host.wire.codec import TICKS_PERIOD


@given(st.integers(0, TICKS_PERIOD - 1),
       st.lists(st.integers(0, TICKS_PERIOD // 2 - 1), min_size=1, max_size=50))
def test_stamps_unwrap_to_true_differences_across_many_wraps(start: int, gaps: list[int]) -> None:
    clock = BoardClock()
    base = clock.start_session(start, 0)
    true = start
    for gap in gaps:
        true += gap
        assert clock.unwrap(true % TICKS_PERIOD) - base == true - start


def test_a_slightly_older_stamp_unwraps_before_the_reference_even_over_the_wrap() -> None:
    clock = BoardClock()
    base = clock.start_session(5, 0)  # just after a wrap
    assert clock.unwrap(TICKS_PERIOD - 10) == base - 15


@given(st.lists(st.tuples(st.integers(0, TICKS_PERIOD - 1), st.integers(0, 10**7)), max_size=30))
def test_now_never_runs_backwards_even_across_board_resets(sessions) -> None:  # type: ignore[no-untyped-def]
    clock = BoardClock()
    host = 0
    last = clock.now_us(host)
    for raw, dt in sessions:
        host += dt
        clock.start_session(raw, host)  # the board restarted with its clock at `raw`
        now = clock.now_us(host)
        assert now > last or (now == last and dt == 0)
        last = now
        assert clock.now_us(host + 1000) >= now + 1000 - 1


def test_now_follows_heartbeats_and_maps_back_to_board_ticks() -> None:
    clock = BoardClock()
    clock.start_session(1000, 50)
    at = clock.observe(TICKS_PERIOD + 200_000 - TICKS_PERIOD, 200_000)  # 199 ms later
    assert clock.now_us(210_000) == at + 10_000
    assert clock.to_raw(at + 10_000) == 210_000


def test_the_estimate_stays_near_a_board_whose_clock_runs_slow() -> None:
    """An emulated board on a loaded machine: its clock runs at a twentieth of the host's and
    its heartbeat replies come a second apart. The engine's deadlines follow the estimate, so
    it must not race ahead of the board (it did, by seconds): at most 250 ms past it."""
    clock = BoardClock()
    base = clock.start_session(0, 0)
    board = 0
    worst = 0
    for beat in range(1, 11):  # 10 s of host time
        host = beat * 1_000_000
        for between in range(0, 1_000_000, 50_000):  # the engine asks in between
            worst = max(worst, clock.now_us(host - 1_000_000 + between) - (base + board))
        board += 50_000  # the board's clock moved 50 ms meanwhile
        clock.observe(board, host)
    assert worst <= 250_000, worst


def test_an_event_stamp_lifts_the_cap_but_never_moves_the_estimate_past_the_host_clock() -> None:
    """A press stamped 400 ms into the session, no heartbeat since the hello: "now" is not
    held 150 ms behind the press, and the press (an edge's time, maybe retried late) never
    makes the clock run faster than the host's."""
    clock = BoardClock()
    base = clock.start_session(0, 0)
    pressed = clock.unwrap(400_000)
    assert pressed == base + 400_000
    assert clock.now_us(410_000) == base + 410_000
    late = BoardClock()
    base = late.start_session(0, 0)
    late.unwrap(400_000)  # a retried event's stamp, heard long after
    assert late.now_us(300_000) == base + 300_000  # the host's clock, not the stamp's
