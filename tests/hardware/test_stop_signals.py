"""One place owns the stop signals: the command that runs the table, and the motor stops first.

SIGTERM (systemctl stop), SIGINT (Ctrl+C) and SIGHUP (a closed terminal, systemctl
reload) all stop the launcher, then the table, then chain to whatever handler was there
before; afterwards the previous handlers are back. Adapters install none.
"""

from __future__ import annotations

import argparse
import os
import signal
import threading

import pytest

from hardware.fake import FakeUnit
from hardware.stop_signals import STOP_SIGNALS, owned_stop_signals
from uno_showdown.commands.cli import main

pytestmark = pytest.mark.skipif(threading.current_thread() is not threading.main_thread(),
                                reason="signal handlers need the main thread")


def handlers() -> dict[signal.Signals, object]:
    return {s: signal.getsignal(s) for s in STOP_SIGNALS}


def test_sighup_is_a_stop_signal_like_sigterm_and_sigint() -> None:
    assert set(STOP_SIGNALS) == {signal.SIGTERM, signal.SIGINT, signal.SIGHUP}


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_each_stop_signal_runs_the_actions_in_order_then_chains(signum) -> None:
    done: list[str] = []
    previous = signal.getsignal(signum)
    signal.signal(signum, lambda s, f: done.append("what was there"))
    try:
        before = handlers()
        with owned_stop_signals(lambda: done.append("motor"),
                                lambda: done.append("table")) as request:
            os.kill(os.getpid(), signum)
            threading.Event().wait(0.5)  # the handler runs here, on the main thread
            assert request.signal == signum
        assert done == ["motor", "table", "what was there"]
        assert handlers() == before  # put back as they were
    finally:
        signal.signal(signum, previous)


def test_a_failing_action_does_not_keep_the_next_from_running() -> None:
    done: list[str] = []

    def broken() -> None:
        raise RuntimeError("the motor driver is gone")

    with owned_stop_signals(broken, lambda: done.append("table")):
        os.kill(os.getpid(), signal.SIGHUP)
        threading.Event().wait(0.5)
    assert done == ["table"]


class HungUpUnit(FakeUnit):
    """A unit whose terminal closes while the table runs: SIGHUP from inside the loop."""

    def read_inputs(self, timeout_s: float) -> list:
        if not self.calls or self.calls[-1].name != "hung up":
            self._record("hung up")
            os.kill(os.getpid(), signal.SIGHUP)
        return super().read_inputs(timeout_s)


def test_run_stops_the_motor_and_the_table_on_sighup(monkeypatch, tmp_path) -> None:
    """`uno-showdown run --headless`, told SIGHUP: the launcher stops, run returns 0."""
    import uno_showdown.commands.run as run_command

    unit = HungUpUnit()

    def hung_up_unit(name: str, args: argparse.Namespace) -> FakeUnit:
        return unit

    monkeypatch.setattr(run_command, "open_unit", hung_up_unit)
    before = handlers()
    status = main(["run", "--device", "gpio", "--headless", "--duel-log",
                   str(tmp_path / "duels.jsonl"), "--db", str(tmp_path / "g.db")])
    assert status == 0
    names = unit.names()
    assert "hung up" in names and "stop_launcher" in names[names.index("hung up"):]
    assert unit.closed
    assert handlers() == before


def test_a_signal_while_the_main_thread_holds_what_the_actions_need_does_not_hang() -> None:
    """The loop is often inside a lock (an Event's, waiting for input) when a signal comes;
    the actions take that lock too. Run on the main thread, they would wait for ever."""
    lock = threading.Lock()
    stopped = threading.Event()

    def stop_the_motor() -> None:
        with lock:
            stopped.set()

    with owned_stop_signals(stop_the_motor), lock:
        os.kill(os.getpid(), signal.SIGTERM)
        for _ in range(10_000):  # the handler runs in here, with the lock held
            pass
    assert stopped.wait(5.0)
