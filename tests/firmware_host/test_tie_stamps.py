"""Both paddles pressed at one instant are stamped as a tie on the virtual board.

The board runs the paddles' interrupt handlers one after the other, so the second one
read the clock later and the left paddle (the lower pin) was always first. Each handler now
also reads the chip's raw interrupt byte and stamps the other paddle's pending edge with its
own time. 50 simultaneous presses on the real-time virtual board: the two stamps are at most
5 µs apart and neither side is first more often than the other; presses 300 µs apart keep
their order and their gap, and a lone press is its own paddle's alone.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from firmware_host.virtual.mcu import VirtualMCU
from firmware_host.wire import codec
from tests.hil.conftest import RawHost

TRIALS = 50
MAX_TIE_GAP_US = 5


@pytest.fixture
def board(tmp_path: Path) -> Iterator[tuple[VirtualMCU, RawHost]]:
    mcu = VirtualMCU(tmp_path / "board").start()
    host = RawHost(mcu.port)
    try:
        assert host.hello()
        yield mcu, host
    finally:
        host.close()
        mcu.stop()


def _after(mcu: VirtualMCU, us: int) -> None:
    """Let `us` of board time pass (waited on the board's own loop turns)."""
    since = mcu.ticks_us()
    assert mcu.wait_until(lambda: codec.ticks_diff(mcu.ticks_us(), since) >= us, 3)


def _presses(host: RawHost, count: int, seen: set[int]) -> list[tuple[int, int]]:
    """The next `count` paddle reports as (side, stamp), acknowledged as the host would; a
    report the board sent again (its receipt came late, on a busy machine) counts once."""
    got: list[tuple[int, int]] = []
    while len(got) < count:
        frame = host.expect(lambda f: f[1] == codec.PADDLE, 3)
        assert frame is not None, f"only {len(got)} of {count} presses reported"
        host.send(0, codec.EVACK, (frame[0],))
        if frame[0] not in seen:
            seen.add(frame[0])
            got.append((frame[2][0], frame[2][1]))
    return got


def test_fifty_simultaneous_presses_are_stamped_as_ties(
    board: tuple[VirtualMCU, RawHost],
) -> None:
    mcu, host = board
    gaps: list[int] = []
    seen: set[int] = set()
    for _ in range(TRIALS):
        mcu.press_both()
        stamps = dict(_presses(host, 2, seen))
        assert set(stamps) == {codec.LEFT, codec.RIGHT}
        gaps.append(codec.ticks_diff(stamps[codec.RIGHT], stamps[codec.LEFT]))
        _after(mcu, 6_000)  # past the debounce, as a player's next press would be
    left_first = sum(g > 0 for g in gaps)
    right_first = sum(g < 0 for g in gaps)
    assert max(abs(g) for g in gaps) <= MAX_TIE_GAP_US, gaps
    assert left_first == right_first, (left_first, right_first, gaps)


def test_presses_apart_keep_their_order_and_a_lone_press_stays_alone(
    board: tuple[VirtualMCU, RawHost],
) -> None:
    mcu, host = board
    seen: set[int] = set()
    mcu.press(codec.RIGHT)
    _after(mcu, 300)
    mcu.press(codec.LEFT)
    (right, right_t), (left, left_t) = _presses(host, 2, seen)
    assert (right, left) == (codec.RIGHT, codec.LEFT)
    assert codec.ticks_diff(left_t, right_t) >= 300
    _after(mcu, 6_000)
    mcu.press(codec.LEFT)
    assert _presses(host, 1, seen)[0][0] == codec.LEFT
    phantom = host.expect(lambda f: f[1] == codec.PADDLE and f[0] not in seen, 0.2)
    assert phantom is None  # no right press the left one made up
