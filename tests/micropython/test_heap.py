"""The firmware's heap on MicroPython: after boot and at its peak during duels, under budget.

A Raspberry Pi Pico gives MicroPython about 190 KB of heap. The firmware must
leave most of it free (for the USB stack's buffers, for fragmentation, and for
growth), so the budget is stated here and asserted: at most BOOT_BUDGET after
boot and PEAK_BUDGET at the peak of any duel, measured with `gc.mem_alloc()`
after a `gc.collect()` on every loop turn, on the wasm32 build (the Pico's
object sizes), with the board code loaded from `.mpy` as `firmware install`
copies it. Figures are also printed by benchmarks/micropython.py.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from firmware_host.wire import codec
from tests.micropython.runner import BoardDriver, MicroPython, MicroPythonUnavailable, boot_heap
from tests.micropython.test_duels import play

PICO_HEAP = 190 * 1024
BOOT_BUDGET = 32 * 1024
PEAK_BUDGET = 40 * 1024


@pytest.fixture(scope="module")
def fresh() -> Iterator[MicroPython]:
    """A MicroPython of its own, where nothing but the firmware has been loaded yet."""
    try:
        mp = MicroPython(load_board=False)
    except MicroPythonUnavailable as exc:
        pytest.skip(f"MicroPython level skipped: {exc}")
    try:
        yield mp
    finally:
        mp.close()


def test_the_firmware_boots_within_its_heap_budget_and_peaks_within_it_in_duels(
    fresh: MicroPython,
) -> None:
    heap = boot_heap(fresh)
    assert 0 < heap["modules"] < heap["boot"] <= BOOT_BUDGET, heap
    peaks = []
    for presses, options in [
        ([(codec.RIGHT, 150_000), (codec.LEFT, 220_000)], {}),
        ([(codec.LEFT, 120_000), (codec.RIGHT, 120_000)], {"cards": 20, "tie": True}),
        ([(codec.LEFT, -100_000)], {}),
    ]:
        board = BoardDriver.micropython(fresh)
        board.measure()
        host = play(board, presses, **options)  # type: ignore[arg-type]
        assert host.results
        peaks.append(board.peak_alloc() - heap["base"] - heap["sim"])
        board.close()
    peak = max(peaks)
    assert heap["modules"] < peak <= PEAK_BUDGET, (heap, peaks)
    assert PICO_HEAP - PEAK_BUDGET >= 150 * 1024  # the budget leaves most of a Pico free
    print(f"\nfirmware heap: modules {heap['modules']} B, after boot {heap['boot']} B, "
          f"peak in a duel {peak} B (budget {BOOT_BUDGET} / {PEAK_BUDGET} B of ~{PICO_HEAP} B)")
