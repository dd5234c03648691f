"""How long the GPIO unit takes from the decisive paddle edge to the launcher starting.

Runs whole duels through `ShowdownService` on a `GpioUnit` under gpiozero's
MockFactory. For each duel a separate thread (standing in for lgpio's callback
thread) waits for "go", stamps a paddle edge with the factory's ticks and
delivers it, then the other paddle's edge about 1 ms later. Two figures per run:

* edge to launch, less the judging wait: the motor pin turning on, minus the
  edge's stamp, minus `settle_us + tie_window_us` (the time the duel engine
  deliberately waits before it commits). What is left is the cost of the loop.
* edge to delivery: from an edge's stamp to the service reading it. The
  duel's `settle_us` must cover this (with room), or a late, earlier-stamped
  edge could miss the verdict.

With the cores idle, with every core loaded by a busy process of the same
priority, and loaded with the service at Nice=-10 as the systemd unit in
deploy/ runs it (modelled by loading at nice 10: CFS weighs the difference).

    python benchmarks/gpio_latency.py [--duels 1000]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import sys
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPWMPin
from gpiozero.pins.pi import PiPin

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.gpio import GpioUnit
from hardware.pinmap import load_pinmap
from showdown.contract.events import (
    GoShown,
    LaunchFinished,
    PaddlePressed,
    ServiceEvent,
    Side,
    UnitInput,
)
from showdown.duel.engine import DuelConfig
from showdown.service.loop import ShowdownService

SETTLE_US = 5_000  # short, so 1,000 duels run quickly; it is subtracted anyway
TIE_WINDOW_US = 100


class BenchPin(MockPWMPin):
    """A mock pin that delivers edges with a given tick and notes when it is switched on."""

    on_at: list[float]

    def _change_state(self, value: Any) -> bool:
        changed = bool(super()._change_state(value))
        if changed and value:
            self.__dict__.setdefault("on_at", []).append(time.monotonic())
        return changed

    def edge(self, state: bool, ticks: float) -> None:
        if self._change_state(state) and self._when_changed is not None:
            PiPin._call_when_changed(self, ticks, state)


class TimedUnit(GpioUnit):
    """Notes when the service reads each paddle edge."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.delivery_us: list[int] = []

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        items = super().read_inputs(timeout_s)
        if items:
            now = self.now_us()
            self.delivery_us += [now - i.t_us for i in items if isinstance(i, PaddlePressed)]
        return items


def burn(niceness: int) -> None:
    os.nice(niceness)
    while True:
        pass


def run_duels(duels: int) -> tuple[list[float], list[int]]:
    factory = MockFactory(pin_class=BenchPin)
    base = load_pinmap()
    pinmap = replace(base, launcher=replace(base.launcher, base_us=1_000, per_card_us=0,
                                            max_on_us=500_000))
    unit = TimedUnit(pinmap, factory)
    go = threading.Event()
    launched = threading.Event()

    def listen(event: ServiceEvent) -> None:
        if isinstance(event, GoShown):
            go.set()
        elif isinstance(event, LaunchFinished):
            launched.set()

    config = DuelConfig(settle_us=SETTLE_US, tie_window_us=TIE_WINDOW_US)
    service = ShowdownService(unit, config, listeners=(listen,))
    loop = threading.Thread(target=service.run, daemon=True)
    loop.start()
    latencies_ms: list[float] = []
    motor_pins = [unit.launcher.motor.forward_device.pin, unit.launcher.motor.backward_device.pin]
    edges: list[float] = []
    stop = threading.Event()
    ready = threading.Event()

    def edge_source() -> None:  # lgpio's callback thread, in effect
        while not stop.is_set():
            if not go.wait(0.5):
                continue
            go.clear()
            winner = unit.paddles[Side.RIGHT].pin
            stamp = factory.ticks()
            edges.append(stamp)
            winner.edge(False, stamp)
            time.sleep(0.001)  # the slower player, a millisecond behind
            unit.paddles[Side.LEFT].pin.edge(False, factory.ticks())
            ready.set()

    source = threading.Thread(target=edge_source, daemon=True)
    source.start()
    try:
        for _ in range(duels):
            launched.clear()
            ready.clear()
            for paddle in unit.paddles.values():
                paddle.pin.edge(True, factory.ticks())  # released, ready for the next press
            before = sum(len(p.__dict__.get("on_at", [])) for p in motor_pins)
            service.load(Side.LEFT, cards=1)
            service.start(countdown_us=2_000)
            if not launched.wait(5) or not ready.wait(5):
                raise RuntimeError("a duel did not finish; is the machine overloaded?")
            on_times = sorted(t for p in motor_pins for t in p.__dict__.get("on_at", []))
            assert len(on_times) == before + 1
            latencies_ms.append(
                (on_times[-1] - edges[-1]) * 1000 - (SETTLE_US + TIE_WINDOW_US) / 1000)
    finally:
        stop.set()
        go.set()
        service.stop()
        loop.join(5)
        source.join(5)
        unit.close()
    return latencies_ms, unit.delivery_us


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duels", type=int, default=1000)
    args = parser.parse_args()
    rows = []
    cores = multiprocessing.cpu_count()
    conditions = (
        ("idle", 0, 0),
        ("all cores loaded, same priority", cores, 0),
        # Nice=-10 in deploy/uno-showdown.service: the same CFS weights as load at nice 10.
        ("all cores loaded, service at Nice=-10", cores, 10),
    )
    for label, load, niceness in conditions:
        burners = [multiprocessing.Process(target=burn, args=(niceness,), daemon=True)
                   for _ in range(load)]
        for b in burners:
            b.start()
        try:
            latency, delivery = run_duels(args.duels)
        finally:
            for b in burners:
                b.terminate()
                b.join()
        delivery_ms = [d / 1000 for d in delivery]
        rows.append((label, latency, delivery_ms))

    print(f"GPIO unit latency, {args.duels} duels per row, MockFactory, "
          f"{multiprocessing.cpu_count()} cores; ms")
    print(f"(edge->launch less settle_us {SETTLE_US / 1000:g} + tie_window_us "
          f"{TIE_WINDOW_US / 1000:g}; edge->delivery over both paddles' edges)")
    header = ("| load | edge->launch p50 | p99 | max | edge->delivery p50 | p99 | p99.9 | max |")
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for label, latency, delivery in rows:
        print(f"| {label} | {statistics.median(latency):.3f} | {pct(latency, 99):.3f} | "
              f"{max(latency):.3f} | {statistics.median(delivery):.3f} | "
              f"{pct(delivery, 99):.3f} | {pct(delivery, 99.9):.3f} | {max(delivery):.3f} |")


if __name__ == "__main__":
    main()
