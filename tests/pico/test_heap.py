"""The firmware's heap on the real port: free memory across duels, and IRQs that allocate nothing.

Both run the installed firmware from the REPL of a board started with the timer
button held (tests/pico/heap_probe.py and irq_probe.py), the very modules
`firmware install` put on its flash.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace

import pytest

from showdown.contract.events import CountdownStarted, LaunchFinished
from tests.hil.conftest import FAST, Table, open_table
from tests.pico.conftest import (
    WAIT_S,
    boot_to_firmware,
    boot_to_repl,
    deep,
    link_options,
    mpremote,
)
from tests.pico.emulated_pico import EmulatedPico

pytestmark = pytest.mark.pico

HERE = __import__("pathlib").Path(__file__).resolve().parent
#: duels in a normal run; the deep profile plays 200
DUELS = 200 if deep() else 5
#: the most the free heap may shrink from the first duel's end to the last one's
MAX_GROWTH_BYTES = 1_024
#: printed by test_free_heap_stays_flat_across_duels (run with -s to see it)
HEAP_FIGURES: dict[str, int] = {}


@pytest.fixture
def at_repl(pico: EmulatedPico) -> Iterator[EmulatedPico]:
    boot_to_repl(pico)
    try:
        yield pico
    finally:
        boot_to_firmware(pico)


def _play(table: Table, pico: EmulatedPico, duels: int) -> None:
    """Duels one after the other, the left paddle 10 ms after each go; 1 card each."""
    for n in range(duels):
        pico.press_after("go_led", 1, [("paddle_left", 10_000)], tag=f"heap{n}")
        before = len(table.wait_for(lambda e: isinstance(e, LaunchFinished), 0))
        table.service.load(cards=1)
        table.service.start(200_000)
        assert table.wait_for(lambda e: isinstance(e, CountdownStarted), WAIT_S, n + 1)
        assert len(table.wait_for(lambda e: isinstance(e, LaunchFinished), WAIT_S,
                                  before + 1)) > before, f"duel {n + 1} never launched"


# Five duels with a gc.collect() at every turn of the board's loop: about a minute on a quiet
# machine, several with busy loops beside it (the suite's 120 s limit cut it short).
@pytest.mark.timeout(600)
def test_free_heap_stays_flat_across_duels(at_repl: EmulatedPico,
                                           summary: Callable[[str, str], None]) -> None:
    pico = at_repl
    source = (HERE / "heap_probe.py").read_text().replace("DUELS = 10", f"DUELS = {DUELS}")
    mpremote(pico, "exec", "--no-follow", source)
    config = replace(FAST, response_timeout_us=2_000_000)
    options = link_options(pico, 3)  # a gc.collect() at every turn of the board's loop
    with open_table(pico.port, config, link_options=options, settle_us=100_000) as table:
        _play(table, pico, DUELS)
        assert pico.wait_for(lambda p: any(c.pin == "board_led" and c.level == 1
                                           for c in p.changes), WAIT_S), "no heap figures"
    boot_to_repl(pico)
    text = mpremote(pico, "exec", "print(open('heap.txt').read())\nimport os\n"
                    "os.remove('heap.txt')")
    free = [int(line) for line in text.split()]
    assert len(free) == DUELS + 1, text
    HEAP_FIGURES.update({"free at the hello": free[0], "free after duel 1": free[1],
                         f"free after duel {DUELS}": free[-1],
                         "lowest": min(free), "shrank from duel 1 to the last": free[1] - free[-1]})
    title = f"emulated Pico heap (gc.mem_free() after gc.collect(), bytes), {DUELS} duels:"
    for what, value in HEAP_FIGURES.items():
        summary(title, f"{what:<34} {value:8d}")
    assert free[1] - free[-1] <= MAX_GROWTH_BYTES, free
    assert min(free) > 100_000  # a Pico's ~190 KB heap, the firmware well inside it


def test_the_edge_handlers_allocate_nothing_on_the_real_port(at_repl: EmulatedPico) -> None:
    pico = at_repl
    # both paddles at one instant: the left handler also stamps the right's pending edge
    # (reading the raw interrupt byte), and the right handler's own stamp is debounced
    pico.press_after("go_led", 1, [("paddle_left", 1_000), ("paddle_right", 1_000),
                                   ("timer_button", 3_000), ("card_sensor", 25_000)],
                       tag="irq")
    out = mpremote(pico, "exec", (HERE / "irq_probe.py").read_text())
    assert "edges 3 overflow 0 kinds 0 1 2 cards 1" in out, out
    assert "Traceback" not in out and "MemoryError" not in out and "IRQ" not in out, out
