"""Whole duels through the firmware core on MicroPython, each scenario written once.

Every scenario runs the same bare board on CPython and on MicroPython, driven
by the same lockstep host (the real duel engine, codec and board clock): the
verdict, the launch and every byte the board wrote must be the same on both,
and each must do what the table expects. Fast, early, tie, a tick-counter wrap
mid-duel, lost and repeated commands, and a host that falls silent mid-launch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from firmware_host.firmware.fw_core import HOST_TIMEOUT_US
from firmware_host.wire import codec
from showdown.contract.events import Outcome, Side, TiePolicy
from tests.micropython.duel_host import FAST, DuelHost
from tests.micropython.runner import BoardDriver

COUNTDOWN_US = 300_000
STEP_US = 1_000  # the bare board's loop turn


def play(board: BoardDriver, presses: list[tuple[int, int]], *, cards: int = 3,
         tie: bool = False, silent_after_launch: bool = False, lose: set[str] | None = None,
         repeat: set[str] | None = None) -> DuelHost:
    """A duel: `presses` are (side, µs after the planned go; negative: before it)."""
    host = DuelHost(board, lose=lose or set(), repeat=repeat or set())
    host.hello()
    host.run_for(100_000)
    config = replace(FAST, tie_policy=TiePolicy.SPLIT) if tie else FAST
    host.start_duel(cards, COUNTDOWN_US, config)
    assert host.duel is not None and host.duel.go_at_us is not None
    go = host.duel.go_at_us
    todo = sorted((go + offset, side) for side, offset in presses)
    for _ in range(2_000):
        while todo and host.now_us() >= todo[0][0]:
            t, side = todo.pop(0)
            board.press(side, host.to_ticks(t))
        if silent_after_launch and any(k == codec.ACK and s == host.seq for k, s, _ in host.replies
                                       ) and host.launched and not host.silent:
            host.silent = True
            host.silent_from_us = host.last_sent_us
        host.turn()
        done = host.results and (not host.results[-1].launch or codec.LAUNCH_DONE in host.kinds())
        if done and not todo:
            break
    host.run_for(20_000)
    return host


def both(boards: Callable[..., dict[str, BoardDriver]], scenario: Callable[[BoardDriver],
         DuelHost], **options: object) -> dict[str, DuelHost]:
    """Run `scenario` on a fresh board on each interpreter; they must agree to the byte."""
    hosts = {name: scenario(board) for name, board in boards(**options).items()}
    cp, mp = hosts["cpython"], hosts["micropython"]
    assert mp.trace == cp.trace, "the board wrote different bytes on MicroPython"
    assert mp.results == cp.results
    assert mp.board.state() == cp.board.state()
    return hosts


def _launched_once(host: DuelHost, parts: int = 1) -> None:
    """One launch command ran, the motor started once and served `parts` sides, then stopped."""
    state = host.board.state()
    assert state["launches"] == 1 and state["motor_starts"] == 1 and state["motor"] == 0
    directions = [d for _, d in state["motor_switches"]]
    assert len(directions) == parts + 1 and directions[-1] == 0 and 0 not in directions[:-1]
    assert state["irq_alloc_failures"] == 0 and state["frame_failures"] == 0
    done = host.event(codec.LAUNCH_DONE)
    assert done is not None and done[1] == 0 and done[3] == codec.END_FINISHED  # whole, finished


def test_a_fast_duel(boards: Callable[..., dict[str, BoardDriver]]) -> None:
    hosts = both(boards, lambda b: play(b, [(codec.RIGHT, 150_000), (codec.LEFT, 220_000)]))
    for host in hosts.values():
        result = host.results[-1]
        assert result.outcome is Outcome.FASTER and result.winner is Side.RIGHT
        right = result.reaction_us[Side.RIGHT]
        assert right is not None and 150_000 - STEP_US < right <= 150_000  # go lit on a turn
        assert host.launched == [result.launch] and host.event(codec.LAUNCH_DONE)[0] == 3  # type: ignore[index]
        _launched_once(host)


def test_an_early_press_freezes_the_countdown_on_the_board(
    boards: Callable[..., dict[str, BoardDriver]],
) -> None:
    hosts = both(boards, lambda b: play(b, [(codec.LEFT, -100_000)]))
    for host in hosts.values():
        result = host.results[-1]
        assert result.outcome is Outcome.EARLY_PRESS
        state = host.board.state()
        assert codec.GO_SHOWN not in host.kinds() and state["go_led"] == 0  # go never lit
        assert state["leds"] == [0, 0, 0, 0] or state["frozen"] == 1
        if result.launch:
            _launched_once(host)


def test_a_tie_splits_the_cards(boards: Callable[..., dict[str, BoardDriver]]) -> None:
    hosts = both(boards, lambda b: play(b, [(codec.LEFT, 120_000), (codec.RIGHT, 120_000)], cards=5,
                                        tie=True))
    for host in hosts.values():
        result = host.results[-1]
        assert result.outcome is Outcome.TIE and len(result.launch) == 2
        assert sum(part.cards for part in result.launch) == 5
        _launched_once(host, parts=2)  # one launch command, the motor turning around once
        first = {1: codec.LEFT, 2: codec.RIGHT}[host.board.state()["motor_switches"][0][1]]
        assert first == (codec.LEFT if result.launch[0].side is Side.LEFT else codec.RIGHT)
        assert host.event(codec.LAUNCH_DONE)[0] == 5  # type: ignore[index]


def test_a_tick_wrap_mid_duel_changes_nothing(
    boards: Callable[..., dict[str, BoardDriver]],
) -> None:
    near_wrap = codec.TICKS_PERIOD - 250_000  # the 2^30 wrap falls inside the countdown
    hosts = both(boards, lambda b: play(b, [(codec.RIGHT, 150_000), (codec.LEFT, 220_000)]),
                 start_ticks=near_wrap)
    plain = play(BoardDriver.cpython(), [(codec.RIGHT, 150_000), (codec.LEFT, 220_000)])
    for host in hosts.values():
        assert host.board.state()["ticks"] < near_wrap  # the counter did wrap
        result = host.results[-1]
        assert result.outcome is Outcome.FASTER and result.winner is Side.RIGHT
        assert result.reaction_us == plain.results[-1].reaction_us
        _launched_once(host)


def test_lost_and_repeated_commands_run_once(
    boards: Callable[..., dict[str, BoardDriver]],
) -> None:
    lossy = {codec.COUNTDOWN, codec.LAUNCH, codec.ARROW}
    hosts = both(boards, lambda b: play(b, [(codec.RIGHT, 150_000)], lose=lossy, repeat=lossy))
    for host in hosts.values():
        result = host.results[-1]
        assert result.outcome is Outcome.FASTER and result.winner is Side.RIGHT
        duplicates = [r for r in host.replies if r[0] == codec.ACK and r[2] == codec.ACK_DUPLICATE]
        assert duplicates, "the repeated frames were not answered as duplicates"
        assert not [r for r in host.replies if r[0] == codec.NAK]
        _launched_once(host)  # lost first, then sent twice: run exactly once


def test_a_host_that_falls_silent_mid_launch_stops_the_motor(
    boards: Callable[..., dict[str, BoardDriver]],
) -> None:
    hosts = both(boards, lambda b: play(b, [(codec.RIGHT, 150_000)], cards=20,
                                        silent_after_launch=True), card_period_us=100_000)
    for host in hosts.values():
        state = host.board.state()
        assert state["motor"] == 0 and state["launches"] == 1
        done = host.event(codec.LAUNCH_DONE)
        assert done is not None and done[1] == 1 and done[3] == codec.END_HOST_SILENT
        fault = host.event(codec.FAULT)
        assert fault is not None and fault[0] == codec.FAULT_HOST_SILENT
        off_tick = state["motor_switches"][-1][0]
        # the motor went off on the very turn 500 ms after the board last heard the host
        assert codec.ticks_diff(off_tick, state["last_host_t"]) == HOST_TIMEOUT_US
        assert host.last_sent_us >= host.silent_from_us > 0


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_every_scenario_leaves_the_heap_lock_untouched(
    boards: Callable[..., dict[str, BoardDriver]], interpreter: str
) -> None:
    board = boards()[interpreter]
    host = play(board, [(codec.LEFT, 100_000), (codec.RIGHT, 101_000)], cards=4)
    state = board.state()
    assert state["irqs"] >= 2 + 4  # two presses, four cards past the sensor
    assert state["irq_alloc_failures"] == 0 and host.results
