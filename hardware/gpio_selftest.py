"""`uno-showdown selftest --device gpio`: each output in turn, then every input echoed.

Why: after wiring a table, the quickest check is to watch each light come on,
hear each sound, see the rollers turn each way, and press each switch while
the screen names it. A part that stays dark or silent, or a switch that prints
the wrong name, points straight at its row in docs/wiring.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TextIO

from hardware.gpio import GpioUnit
from hardware.gpio_sound import TUNES
from hardware.pinmap import CountdownKind
from showdown.contract.events import (
    Beep,
    LaunchFinished,
    LaunchPart,
    PaddlePressed,
    Side,
    TimerPressed,
    UnitFault,
)

Pause = Callable[[float], object]  # e.g. `threading.Event().wait`: wait, maybe cut short


def run_selftest(unit: GpioUnit, out: TextIO, pause: Pause, *, echo_s: float = 30.0,
                 motor: bool = True, step_s: float = 0.8) -> int:
    """Run the checks; returns 0, or 1 when the launcher reported a fault."""
    problems = 0

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    pinmap = unit.pinmap
    say(f"Self-test of the GPIO unit, pin map {pinmap.source}")
    if not unit.stamps_edges:
        say(f"warning: pin factory {type(unit.factory).__name__} stamps edges in software; "
            "close duels are judged less fairly (install lgpio)")

    say(f"go light (GPIO{pinmap.go_light}): on")
    unit.go_light.on()
    pause(step_s)
    unit.go_light.off()
    for side in Side:
        say(f"{side} arrow (GPIO{pinmap.arrow(side)}): blinking")
        unit.set_arrow(side)
        pause(step_s)
    unit.set_arrow(None)

    if unit.countdown is not None and pinmap.countdown is not None:
        display = unit.countdown
        if pinmap.countdown.kind is CountdownKind.BAR:
            say(f"countdown bar ({display.size} LEDs): filling one by one")
            faces: list[Any] = list(range(1, display.size + 1))
        else:
            say(f"countdown display ({display.size} digit(s)): all segments, then 3, 2, 1")
            faces = ["8" * display.size, "3", "2", "1"]
        for face in faces:
            display.show(face)
            pause(step_s / 2)
        display.blank()
    else:
        say("countdown display: none in the pin map")

    if unit.beeper is not None and pinmap.buzzer is not None:
        say(f"buzzer (GPIO{pinmap.buzzer.pin}, {pinmap.buzzer.kind}): every sound in turn")
        for kind in Beep:
            say(f"  {kind}")
            unit.beep(kind)
            pause(sum(ms for _, ms in TUNES[kind]) / 1000 + 0.3)
    else:
        say("buzzer: none in the pin map")

    if motor:
        launcher = pinmap.launcher
        say("launcher: take the cards out; the rollers turn each way for one card's time")
        pause(step_s)
        for side in Side:
            way = "forward" if launcher.side_is_forward(side) else "backward"
            say(f"  toward the {side} ({way}, GPIO"
                f"{launcher.forward if way == 'forward' else launcher.backward})")
            unit.launch((LaunchPart(side, 1),))
            problems += _await_launch(unit, say)
            pause(step_s / 2)
    else:
        say("launcher: skipped (--no-motor)")

    _echo(unit, say, echo_s)
    say("self-test done" + (": the launcher reported a fault" if problems else ""))
    return 1 if problems else 0


def _await_launch(unit: GpioUnit, say: Callable[[str], None]) -> int:
    limit_us = unit.pinmap.launcher.max_on_us + 1_000_000
    deadline = unit.now_us() + limit_us
    problems = 0
    while (left := deadline - unit.now_us()) > 0:
        for item in unit.read_inputs(left / 1_000_000):
            if isinstance(item, LaunchFinished):
                if item.cards_counted is None:
                    say("  stopped")
                else:  # the launcher is empty, so a sensor sees no card and calls it a jam
                    say(f"  stopped, {item.cards_counted} card(s) seen by the beam "
                        "(0 and 'jammed' are expected with the launcher empty)"
                        if item.jammed else f"  stopped, {item.cards_counted} card(s) seen")
                return problems
            if isinstance(item, UnitFault):
                say(f"  problem: {item.reason}")
                problems += 1
    unit.stop_launcher()
    say("  no report from the launcher: stopped it")
    return problems + 1


def _echo(unit: GpioUnit, say: Callable[[str], None], echo_s: float) -> None:
    start_us = unit.now_us()
    sensor = unit.card_sensor
    original = sensor.on_edge if sensor is not None else None
    if sensor is not None:
        def on_beam(ticks: Any, active: bool) -> None:
            t_ms = (unit.clock.edge_us(ticks) - start_us) / 1000
            say(f"  {t_ms:9.1f} ms  card beam {'broken' if active else 'clear'}")
        sensor.on_edge = on_beam
    try:
        say(f"Press each paddle and the timer button"
            f"{' and break the card beam' if sensor is not None else ''}; "
            f"echoing inputs for {echo_s:g} s (Ctrl-C ends it)")
        deadline = start_us + round(echo_s * 1_000_000)
        while (left := deadline - unit.now_us()) > 0:
            for item in unit.read_inputs(left / 1_000_000):
                t_ms = (item.t_us - start_us) / 1000
                if isinstance(item, PaddlePressed):
                    say(f"  {t_ms:9.1f} ms  {item.side} paddle")
                elif isinstance(item, TimerPressed):
                    say(f"  {t_ms:9.1f} ms  timer button")
    finally:
        if sensor is not None:
            sensor.on_edge = original
