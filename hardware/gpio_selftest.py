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
from showdown.contract.i18n import _, ngettext

Pause = Callable[[float], object]  # e.g. `threading.Event().wait`: wait, maybe cut short


def run_selftest(unit: GpioUnit, out: TextIO, pause: Pause, *, echo_s: float = 30.0,
                 motor: bool = True, step_s: float = 0.8) -> int:
    """Run the checks; returns 0, or 1 when the launcher reported a fault."""
    problems = 0

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    pinmap = unit.pinmap
    say(_("Self-test of the GPIO unit, pin map {source}").format(source=pinmap.source))
    if not unit.stamps_edges:
        say(_("warning: pin factory {factory} stamps edges in software; close duels are "
              "judged less fairly (install lgpio)").format(factory=type(unit.factory).__name__))

    say(_("go light (GPIO{pin}): on").format(pin=pinmap.go_light))
    unit.go_light.on()
    pause(step_s)
    unit.go_light.off()
    for side in Side:
        arrow = (_("left arrow (GPIO{pin}): blinking") if side is Side.LEFT
                 else _("right arrow (GPIO{pin}): blinking"))
        say(arrow.format(pin=pinmap.arrow(side)))
        unit.set_arrow(side)
        pause(step_s)
    unit.set_arrow(None)

    if unit.countdown is not None and pinmap.countdown is not None:
        display = unit.countdown
        if pinmap.countdown.kind is CountdownKind.BAR:
            say(ngettext("countdown bar ({n} LED): filling one by one",
                         "countdown bar ({n} LEDs): filling one by one",
                         display.size).format(n=display.size))
            faces: list[Any] = list(range(1, display.size + 1))
        else:
            say(ngettext("countdown display ({n} digit): all segments, then 3, 2, 1",
                         "countdown display ({n} digits): all segments, then 3, 2, 1",
                         display.size).format(n=display.size))
            faces = ["8" * display.size, "3", "2", "1"]
        for face in faces:
            display.show(face)
            pause(step_s / 2)
        display.blank()
    else:
        say(_("countdown display: none in the pin map"))

    if unit.beeper is not None and pinmap.buzzer is not None:
        say(_("buzzer (GPIO{pin}, {kind}): every sound in turn").format(
            pin=pinmap.buzzer.pin, kind=pinmap.buzzer.kind))
        for kind in Beep:
            say(f"  {kind}")
            unit.beep(kind)
            pause(sum(ms for _, ms in TUNES[kind]) / 1000 + 0.3)
    else:
        say(_("buzzer: none in the pin map"))

    if motor:
        launcher = pinmap.launcher
        say(_("launcher: take the cards out; the rollers turn each way for one card's "
              "time"))
        pause(step_s)
        for side in Side:
            forward = launcher.side_is_forward(side)
            say("  " + _TOWARD[side, forward]().format(
                pin=launcher.forward if forward else launcher.backward))
            unit.launch((LaunchPart(side, 1),))
            problems += _await_launch(unit, say)
            pause(step_s / 2)
    else:
        say(_("launcher: skipped (--no-motor)"))

    _echo(unit, say, echo_s)
    say(_("self-test done: the launcher reported a fault") if problems
        else _("self-test done"))
    return 1 if problems else 0


#: The launcher's line for each side and way (forward or not), translated when said.
_TOWARD: dict[tuple[Side, bool], Callable[[], str]] = {
    (Side.LEFT, True): lambda: _("toward the left (forward, GPIO{pin})"),
    (Side.LEFT, False): lambda: _("toward the left (backward, GPIO{pin})"),
    (Side.RIGHT, True): lambda: _("toward the right (forward, GPIO{pin})"),
    (Side.RIGHT, False): lambda: _("toward the right (backward, GPIO{pin})"),
}


def _await_launch(unit: GpioUnit, say: Callable[[str], None]) -> int:
    limit_us = unit.pinmap.launcher.max_on_us + 1_000_000
    deadline = unit.now_us() + limit_us
    problems = 0
    while (left := deadline - unit.now_us()) > 0:
        for item in unit.read_inputs(left / 1_000_000):
            if isinstance(item, LaunchFinished):
                if item.cards_counted is None:
                    say("  " + _("stopped"))
                elif item.jammed:  # the launcher is empty: a sensor sees no card, calls it a jam
                    say("  " + ngettext("stopped, {n} card seen by the beam (0 and 'jammed' "
                                        "are expected with the launcher empty)",
                                        "stopped, {n} cards seen by the beam (0 and 'jammed' "
                                        "are expected with the launcher empty)",
                                        item.cards_counted).format(n=item.cards_counted))
                else:
                    say("  " + ngettext("stopped, {n} card seen", "stopped, {n} cards seen",
                                        item.cards_counted).format(n=item.cards_counted))
                return problems
            if isinstance(item, UnitFault):
                say("  " + _("problem: {reason}").format(reason=item.reason))
                problems += 1
    unit.stop_launcher()
    say("  " + _("no report from the launcher: stopped it"))
    return problems + 1


def _echoed(t_ms: float, what: str) -> str:
    """One echoed input: when, in milliseconds since the echo began, and what."""
    return "  " + _("{ms} ms").format(ms=f"{t_ms:9.1f}") + "  " + what


def _echo(unit: GpioUnit, say: Callable[[str], None], echo_s: float) -> None:
    start_us = unit.now_us()
    sensor = unit.card_sensor
    original = sensor.on_edge if sensor is not None else None
    if sensor is not None:
        def on_beam(ticks: Any, active: bool) -> None:
            t_ms = (unit.clock.edge_us(ticks) - start_us) / 1000
            say(_echoed(t_ms, _("card beam broken") if active else _("card beam clear")))
        sensor.on_edge = on_beam
    try:
        if sensor is not None:
            text = _("Press each paddle and the timer button and break the card beam; "
                     "echoing inputs for {seconds} s (Ctrl-C ends it)")
        else:
            text = _("Press each paddle and the timer button; echoing inputs for {seconds} s "
                     "(Ctrl-C ends it)")
        say(text.format(seconds=f"{echo_s:g}"))
        deadline = start_us + round(echo_s * 1_000_000)
        while (left := deadline - unit.now_us()) > 0:
            for item in unit.read_inputs(left / 1_000_000):
                t_ms = (item.t_us - start_us) / 1000
                if isinstance(item, PaddlePressed):
                    say(_echoed(t_ms, _("left paddle") if item.side is Side.LEFT
                                else _("right paddle")))
                elif isinstance(item, TimerPressed):
                    say(_echoed(t_ms, _("timer button")))
    finally:
        if sensor is not None:
            sensor.on_edge = original
