"""The pure parts of the GPIO unit: the tick clock, the countdown face, the beep tunes."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.gpio_clock import TickClock
from hardware.gpio_display import countdown_face
from hardware.gpio_sound import TUNES
from hardware.pinmap import CountdownKind
from showdown.contract.events import Beep

WRAP = 1 << 32  # pigpio's microsecond tick counter


class WrappingTicks:
    """A 32-bit microsecond counter like pigpio's, moved by hand."""

    def __init__(self, start: int) -> None:
        self.us = start

    def ticks(self) -> int:
        return self.us % WRAP

    @staticmethod
    def ticks_diff(later: int, earlier: int) -> float:
        return ((later - earlier) % WRAP) / 1_000_000


@given(
    start=st.integers(0, WRAP - 1),
    steps=st.lists(st.tuples(st.integers(0, 20 * 60 * 1_000_000), st.integers(0, 50_000)),
                   min_size=1, max_size=30),
)
def test_the_clock_unwraps_a_wrapping_counter_and_stamps_edges_in_the_past(start, steps) -> None:
    """Edges read some time after they happened keep their true spacing across wraps."""
    source = WrappingTicks(start)
    clock = TickClock(source.ticks, source.ticks_diff)
    true_us = 0
    for advance, read_delay in steps:
        true_us += advance
        source.us = start + true_us
        edge_ticks = source.ticks()
        source.us += read_delay  # the callback runs later
        assert clock.edge_us(edge_ticks) == true_us
        assert clock.now_us() == true_us + read_delay
        true_us += read_delay


def test_the_clock_on_float_seconds_never_goes_back() -> None:
    now = [1000.0]
    clock = TickClock(lambda: now[0], lambda a, b: a - b)
    seen = []
    for t in (1000.0000004, 1000.5, 1012.25, 1012.2500004):
        now[0] = t
        seen.append(clock.now_us())
    assert seen == sorted(seen) and seen[-1] == 12_250_000


def test_digits_show_whole_seconds_left_rounded_up() -> None:
    faces = [countdown_face(r, 4_500_000, CountdownKind.DIGIT, 1)
             for r in (4_500_000, 4_000_001, 4_000_000, 1, 0)]
    assert faces == ["5", "5", "4", "1", ""]
    assert countdown_face(12_000_000, 12_000_000, CountdownKind.DIGIT, 1) == "9"
    assert countdown_face(12_000_000, 12_000_000, CountdownKind.DIGITS, 2) == "12"


def test_a_bar_goes_out_led_by_led_and_the_last_at_go() -> None:
    faces = [countdown_face(r, 5_000_000, CountdownKind.BAR, 5)
             for r in (5_000_000, 4_000_001, 4_000_000, 1, 0)]
    assert faces == [5, 5, 4, 1, 0]


def test_every_beep_has_a_tune_a_tonal_buzzer_can_play() -> None:
    assert set(TUNES) == set(Beep)
    for tune in TUNES.values():
        assert all(f is None or 220.0 <= f <= 880.0 for f, _ in tune)
        assert sum(ms for _, ms in tune) <= 600
