"""Does a listener that blocks delay the table? Side by side, in one run: no listener, a
listener that sleeps 10 s on its first event, the companion recording duels to a games
file that another process holds locked for 10 s, and the duel log on a file (fsynced) and
on a named pipe whose reader never reads (its buffer fills after a few dozen duels).

Runs whole duels through `ShowdownService` on a `GpioUnit` under gpiozero's MockFactory
(the rig of benchmarks/gpio_latency.py). Per duel:

* go shown: the "go" stamp minus the planned go (how late the loop showed it);
* edge to launch: the motor pin turning on, minus the decisive edge's stamp, minus
  `settle_us + tie_window_us` (the engine's deliberate wait): the cost of the loop.

For the locked games file it also says when the duels were recorded: the recorder tries
again until the lock is gone, then writes them all.

    python benchmarks/blocked_listener.py [--duels 200] [--lock-s 10]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

from gpiozero.pins.mock import MockFactory

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from gpio_latency import BenchPin, TimedUnit, pct

from companion.app import CompanionApp
from hardware.pinmap import load_pinmap
from showdown.contract.events import (
    CountdownStarted,
    GoShown,
    LaunchFinished,
    Listener,
    ServiceEvent,
    Side,
)
from showdown.duel.engine import DuelConfig
from showdown.service.duel_log import DuelLog
from showdown.service.loop import ShowdownService

SETTLE_US = 5_000
TIE_WINDOW_US = 100
PLAYERS = {Side.LEFT: "Ann", Side.RIGHT: "Bob"}
LOCKER = """
import sqlite3, sys, time
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("locked", flush=True)
time.sleep(float(sys.argv[2]))
conn.execute("ROLLBACK")
"""


def run_duels(duels: int, listener: Listener | None,
              duel_log: DuelLog | None = None) -> tuple[list[float], list[float]]:
    """(edge->launch ms, go shown late ms), one per duel."""
    factory = MockFactory(pin_class=BenchPin)
    base = load_pinmap()
    pinmap = replace(base, launcher=replace(base.launcher, base_us=1_000, per_card_us=0,
                                            max_on_us=500_000))
    unit = TimedUnit(pinmap, factory)
    config = DuelConfig(settle_us=SETTLE_US, tie_window_us=TIE_WINDOW_US)
    service = ShowdownService(unit, config, duel_log=duel_log)
    if listener is not None:
        service.add_listener(listener)
    feed = service.subscribe("benchmark")  # the benchmark's own ears: a queue, no thread
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    motor_pins = [unit.launcher.motor.forward_device.pin, unit.launcher.motor.backward_device.pin]
    launch_ms: list[float] = []
    go_ms: list[float] = []

    def wait_for(kind: type, timeout_s: float = 5.0) -> ServiceEvent:
        deadline = time.monotonic() + timeout_s
        while (left := deadline - time.monotonic()) > 0:
            event = feed.get(left)
            if isinstance(event, kind):
                return event
        raise RuntimeError(f"no {kind.__name__} within {timeout_s} s: is the machine overloaded?")

    try:
        for _ in range(duels):
            for paddle in unit.paddles.values():
                paddle.pin.edge(True, factory.ticks())  # released, ready for the next press
            before = sum(len(p.__dict__.get("on_at", [])) for p in motor_pins)
            service.load(Side.LEFT, cards=1, players=PLAYERS)
            service.start(countdown_us=2_000)
            started = wait_for(CountdownStarted)
            go = wait_for(GoShown)
            assert isinstance(started, CountdownStarted) and isinstance(go, GoShown)
            go_ms.append((go.t_us - (started.t_us + started.countdown_us)) / 1000)
            stamp = factory.ticks()
            unit.paddles[Side.RIGHT].pin.edge(False, stamp)
            unit.paddles[Side.LEFT].pin.edge(False, factory.ticks() + 0.001)
            wait_for(LaunchFinished)
            on_times = sorted(t for p in motor_pins for t in p.__dict__.get("on_at", []))
            assert len(on_times) == before + 1
            launch_ms.append((on_times[-1] - stamp) * 1000 - (SETTLE_US + TIE_WINDOW_US) / 1000)
    finally:
        service.stop()
        loop.join(5)
        service.close(flush_timeout_s=0.1)
    return launch_ms, go_ms


def sleeper(seconds: float) -> Callable[[ServiceEvent], None]:
    """A listener that blocks for `seconds` on the first event it hears."""
    slept = threading.Event()

    def listen(event: ServiceEvent) -> None:
        if not slept.is_set():
            slept.set()
            time.sleep(seconds)

    return listen


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=200)
    parser.add_argument("--lock-s", type=float, default=10.0)
    args = parser.parse_args()
    rows: list[tuple[str, list[float], list[float]]] = []
    rows.append(("no listener", *run_duels(args.duels, None)))
    rows.append((f"listener sleeps {args.lock_s:g} s", *run_duels(args.duels,
                                                               sleeper(args.lock_s))))
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "games.db"
        app = CompanionApp.open(db, lang="en")
        app.new_game("classic", "winner", list(PLAYERS.values()))
        locker = subprocess.Popen([sys.executable, "-c", LOCKER, str(db), str(args.lock_s)],
                                  stdout=subprocess.PIPE, text=True)
        assert locker.stdout is not None and locker.stdout.readline().strip() == "locked"
        locked_at = time.monotonic()
        rows.append((f"games file locked {args.lock_s:g} s", *run_duels(
            args.duels, app.on_service_event)))
        during = time.monotonic() - locked_at
        pending_then = len(app.pending_duels())
        locker.wait()
        released = time.monotonic()
        recorded = app.flush_duels(60.0)
        after_s = time.monotonic() - released
        app.refresh()
        stored = len(app.duels())
        app.close()
        path = Path(tmp) / "duels.jsonl"
        rows.append(("duel log on a file", *run_duels(args.duels, None, DuelLog(path))))
        fifo = Path(tmp) / "duels.fifo"
        os.mkfifo(fifo)
        reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # opened, never read
        stalled = DuelLog(fifo, warn=False)
        rows.append(("duel log on a stalled pipe", *run_duels(args.duels, None, stalled)))
        os.close(reader)
        lost = stalled.close(0.1)

    print(f"A blocked listener and the table, {args.duels} duels per row, GPIO unit on "
          "MockFactory; ms")
    print(f"(edge->launch less settle_us {SETTLE_US / 1000:g} + tie_window_us "
          f"{TIE_WINDOW_US / 1000:g}; go shown: its stamp minus the planned go)")
    base_launch, base_go = pct(rows[0][1], 99), pct(rows[0][2], 99)
    header = ("| listener | edge->launch p50 | p99 | p99 ×none | go shown p50 | p99 | "
              "p99 ×none |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for label, launch, go in rows:
        print(f"| {label} | {statistics.median(launch):.3f} | {pct(launch, 99):.3f} | "
              f"{pct(launch, 99) / base_launch:.2f} | {statistics.median(go):.3f} | "
              f"{pct(go, 99):.3f} | {pct(go, 99) / max(base_go, 0.001):.2f} |")
    print(f"games file locked: {args.duels} duels played in {during:.1f} s with the lock held, "
          f"{pending_then} still waiting for the file then; after the lock was released "
          f"{'all were' if recorded else 'NOT all were'} recorded within {after_s:.2f} s "
          f"({stored} stored)")
    print(f"duel log on a stalled pipe: all {args.duels} duels played; at close: {lost}")
    return 0 if recorded and stored == args.duels else 1


if __name__ == "__main__":
    sys.exit(main())
