"""Two paddles pressed at one instant are stamped as a tie on the real MicroPython image.

The RP2040 runs the paddles' hard IRQs one after the other (MicroPython's gpio_irq, pin by
pin), so the second stamp used to come one handler later (73-77 µs, the left always first):
a table with `--tie-window-us` below 80 called every simultaneous press for left. Each
handler now also reads the raw interrupt byte that holds the other paddle's edge and stamps
both with one time. The runner drives both paddles at one emulated instant, 50 times; the
two stamps must be at most 5 µs apart, neither side first more often, each within the
level's stamp error of the edge; presses 300 µs apart keep their order and a lone press is
its paddle's alone. The gaps and stamp errors go to the run's summary.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Iterator

import pytest

from firmware_host.wire import codec
from tests.hil.conftest import RawHost
from tests.pico.conftest import WAIT_S, emulated_wait_s
from tests.pico.emulated_pico import PINS, EmulatedPico

pytestmark = pytest.mark.pico

TRIALS = 50
EVERY_US = 20_000  # one trial every 20 ms of board time (past the 5 ms debounce)
HOLD_US = 8_000
MAX_TIE_GAP_US = 5
MAX_STAMP_ERROR_US = 100
TITLE = "emulated Pico: both paddles at one instant, 50 trials (emulated µs)"


@pytest.fixture
def host(pico: EmulatedPico) -> Iterator[RawHost]:
    raw = RawHost(pico.port)
    try:
        assert raw.hello(timeout_s=WAIT_S) is not None, "the board did not answer the hello"
        yield raw
    finally:
        raw.close()


def _press_at(at_us: float, pins: list[tuple[str, int]], tag: str) -> list[dict[str, object]]:
    """Steps for the runner: each (pin, offset µs) low at `at_us + offset`, let go later."""
    steps: list[dict[str, object]] = []
    for pin, offset in pins:
        steps.append({"gpio": PINS[pin], "level": 0, "at_us": at_us + offset,
                      "tag": f"{tag}:{pin}"})
        steps.append({"gpio": PINS[pin], "level": None, "at_us": at_us + offset + HOLD_US})
    return steps


def _reports(pico: EmulatedPico, host: RawHost, count: int, until_us: float
             ) -> list[tuple[int, int]]:
    """The board's paddle reports (side, raw stamp), each once, acknowledged as a host does;
    read until `count` came or the board's clock is well past `until_us`."""
    got: dict[int, tuple[int, int]] = {}
    deadline_s = emulated_wait_s(until_us - pico.now_us() + 500_000)
    waited = 0.0
    while len(got) < count:
        frame = host.expect(lambda f: f[1] == codec.PADDLE, 0.5)
        if frame is None:
            waited += 0.5
            if pico.now_us() > until_us + 500_000 or waited > deadline_s:
                break
            continue
        host.send(0, codec.EVACK, (frame[0],))
        got.setdefault(frame[0], (frame[2][0], frame[2][1]))
    return [got[seq] for seq in sorted(got)]


def _error(stamp: int, driven_us: float) -> float:
    return (codec.ticks_diff(stamp, int(driven_us) % codec.TICKS_PERIOD)
            - (driven_us - int(driven_us)))


def test_fifty_presses_at_one_instant_are_stamped_as_ties(
    pico: EmulatedPico, host: RawHost, summary: Callable[[str, str], None]
) -> None:
    driven = len(pico.driven)
    base = pico.now_us() + 50_000
    steps: list[dict[str, object]] = []
    for i in range(TRIALS):
        # the runner drives the two edges in list order at one instant: alternate it
        pair = [("paddle_left", 0), ("paddle_right", 0)]
        steps += _press_at(base + i * EVERY_US, pair if i % 2 else pair[::-1], f"tie{i}")
    pico.request("at", steps=steps)
    last = base + TRIALS * EVERY_US
    reports = _reports(pico, host, 2 * TRIALS, last)
    assert len(reports) == 2 * TRIALS, f"{len(reports)} reports of {2 * TRIALS}"
    edges = {d["tag"]: d["t_us"] for d in pico.driven[driven:]}
    gaps: list[int] = []
    errors: list[float] = []
    for i in range(TRIALS):
        stamps = dict(reports[2 * i: 2 * i + 2])
        assert set(stamps) == {codec.LEFT, codec.RIGHT}, reports[2 * i: 2 * i + 2]
        gaps.append(codec.ticks_diff(stamps[codec.RIGHT], stamps[codec.LEFT]))
        errors += [_error(stamps[codec.LEFT], edges[f"tie{i}:paddle_left"]),
                   _error(stamps[codec.RIGHT], edges[f"tie{i}:paddle_right"])]
    left_first, right_first = sum(g > 0 for g in gaps), sum(g < 0 for g in gaps)
    summary(TITLE, f"{'gap right - left':<26} min {min(gaps):5d}  median "
                   f"{statistics.median(gaps):6.1f}  max {max(gaps):5d}")
    summary(TITLE, f"{'left first / tie / right':<26} {left_first} / "
                   f"{TRIALS - left_first - right_first} / {right_first}")
    summary(TITLE, f"{'edge to stamp':<26} min {min(errors):5.1f}  median "
                   f"{statistics.median(errors):6.1f}  max {max(errors):5.1f}")
    assert max(abs(g) for g in gaps) <= MAX_TIE_GAP_US, gaps
    assert left_first == right_first, (left_first, right_first)
    assert all(0 <= e <= MAX_STAMP_ERROR_US for e in errors), errors


def test_presses_apart_keep_their_gap_and_a_lone_press_stays_alone(
    pico: EmulatedPico, host: RawHost, summary: Callable[[str, str], None]
) -> None:
    driven = len(pico.driven)
    base = pico.now_us() + 50_000
    steps = (_press_at(base, [("paddle_right", 0), ("paddle_left", 300)], "apart")
             + _press_at(base + EVERY_US, [("paddle_left", 0)], "lone")
             + _press_at(base + 2 * EVERY_US, [("paddle_right", 0)], "lone"))
    pico.request("at", steps=steps)
    reports = _reports(pico, host, 5, base + 3 * EVERY_US)
    assert [side for side, _ in reports] == [codec.RIGHT, codec.LEFT, codec.LEFT, codec.RIGHT]
    edges = {d["tag"]: d["t_us"] for d in pico.driven[driven:]}
    gap = codec.ticks_diff(reports[1][1], reports[0][1])
    assert 250 <= gap <= 350, gap
    for (side, stamp), tag in zip(reports[2:], ("lone:paddle_left", "lone:paddle_right"),
                                  strict=True):
        error = _error(stamp, edges[tag])
        summary(TITLE, f"{'lone press ' + tag.split('_')[1]:<26} edge to stamp {error:5.1f}")
        assert 0 <= error <= MAX_STAMP_ERROR_US, (side, error)
