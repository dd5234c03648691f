"""The Raspberry Pi Showdown Unit: paddles, lights, buzzer and launcher on GPIO, via gpiozero.

Why it looks like this:

* Fairness. A paddle edge is stamped with the tick the pin factory hands to
  `when_changed(ticks, state)` (under lgpio the kernel's own CLOCK_MONOTONIC
  stamp of the edge), converted by `TickClock`, which also serves `now_us()`
  and the "go" stamp, so every time the duel compares is on one clock. No
  pin-level debounce on the paddles: lgpio's debounce reports an edge only
  after the bounce, moving its stamp; the duel counts each paddle's first edge.
  Under a factory that stamps edges in software (RPi.GPIO, native) the unit
  says so through `stamps_edges`, and the service logs one warning.
* Callbacks to queue. Pin callbacks run on the factory's thread; they only put
  stamped inputs on the unit's input queue (`showdown.contract.unit.InputQueue`), and
  `read_inputs` waits on it, so the service thread is the only one that touches
  the duel.
* The launcher (`hardware.launcher`) stops by itself after its hard maximum
  on-time, and the unit stops it on `close()`. The unit installs no signal
  handler: the command that runs the table owns SIGTERM, SIGINT and SIGHUP
  (`hardware.stop_signals`) and stops the motor first.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import warnings
from collections.abc import Callable
from typing import Any

from gpiozero import (
    LED,
    PWMLED,
    Buzzer,
    Device,
    DigitalInputDevice,
    GPIOZeroError,
    Motor,
    PinFactoryFallback,
    TonalBuzzer,
)

from hardware.gpio_clock import TickClock, factory_clock
from hardware.gpio_display import CountdownDisplay
from hardware.gpio_sound import Beeper
from hardware.gpio_workdir import lgpio_folder
from hardware.launcher import Launcher
from hardware.pinmap import BuzzerKind, InputPin, PinMap, load_pinmap
from showdown.contract.events import (
    Beep,
    ConfigError,
    LaunchPart,
    PaddlePressed,
    Side,
    TimerPressed,
    UnitInput,
)
from showdown.contract.i18n import N_, _
from showdown.contract.unit import ShowdownUnit

log = logging.getLogger(__name__)

#: Pin factories whose `when_changed` ticks are the edge's own time.
EDGE_STAMPING_FACTORIES = frozenset({"LGPIOFactory", "PiGPIOFactory", "MockFactory"})
#: Pin factories that read a clock when the callback runs instead.
SOFTWARE_STAMPING_FACTORIES = frozenset({"RPiGPIOFactory", "NativeFactory"})

#: A second timer-button edge this soon after the first is switch bounce.
TIMER_HOLDOFF_US = 200_000
#: Arrow blink, seconds on and off.
ARROW_BLINK_S = 0.25
#: The names of the devices of a side, for the error that says one cannot open (`_open`).
_PADDLES = {Side.LEFT: N_("the left paddle"), Side.RIGHT: N_("the right paddle")}
_ARROWS = {Side.LEFT: N_("the left arrow"), Side.RIGHT: N_("the right arrow")}


def factory_stamps_edges(factory: object) -> bool:
    """Whether a gpiozero pin factory reports the time of the edge itself.

    Decided by the nearest known class in the factory's ancestry, so a subclass
    of a known factory inherits its verdict; an unknown factory is trusted
    neither way and counts as software-stamped.
    """
    for cls in type(factory).__mro__:
        if cls.__name__ in SOFTWARE_STAMPING_FACTORIES:
            return False
        if cls.__name__ in EDGE_STAMPING_FACTORIES:
            return True
    return False


class StampedInput(DigitalInputDevice):
    """A `DigitalInputDevice` that also hands each edge's (ticks, active) to `on_edge`.

    gpiozero keeps only a weak reference to a pin's `when_changed`; the device
    is its owner here, and the unit keeps the device (and so `on_edge`) alive.
    """

    def __init__(self, pin: int, on_edge: Callable[[Any, bool], None], *, active_low: bool,
                 pin_factory: Any) -> None:
        self.on_edge = on_edge
        # bounce_time=None on purpose: see the module docstring.
        super().__init__(pin, pull_up=active_low, bounce_time=None, pin_factory=pin_factory)

    def _pin_changed(self, ticks: Any, state: Any) -> None:
        super()._pin_changed(ticks, state)
        self.on_edge(ticks, bool(self._state_to_value(state)))


class GpioUnit(ShowdownUnit):
    """A Showdown Unit on the Pi's header, wired as `pinmap` says."""

    name = "gpio"
    runs_own_countdown = False
    # How long the verdict waits for a late, earlier-stamped edge: edge-to-delivery measured
    # by benchmarks/gpio_latency.py (MockFactory, 2 cores, both busy, the service at
    # Nice=-10 as deployed) reached a p99.9 of 17-23 ms; 25 ms covers that, and nobody sees
    # 25 ms between a slap and the launch. An edge later still contests the verdict (never
    # silently). The trade-off is in docs/fairness.md; re-measure on the Pi itself.
    settle_us = 25_000

    def __init__(self, pinmap: PinMap, pin_factory: Any | None = None) -> None:
        super().__init__()
        if pin_factory is None:
            Device.ensure_pin_factory()
            pin_factory = Device.pin_factory
        factory = pin_factory
        self.pinmap = pinmap
        self.factory = factory
        self.stamps_edges = factory_stamps_edges(factory)
        self.clock: TickClock = factory_clock(factory)
        self._devices: list[Any] = []
        self._last_timer_us: int | None = None
        self._frozen = False
        self._closed = False
        try:
            self._open_devices(pinmap, factory)
        except BaseException:
            self._close_devices()
            raise

    def _open(self, what: str, make: Callable[[], Any]) -> Any:
        """Open a device; `what` names it (an `N_` message, translated if it cannot open)."""
        try:
            device = make()
        except GPIOZeroError as exc:
            why = str(exc) or type(exc).__name__  # some gpiozero errors carry no message
            raise ConfigError(
                _("cannot open {device} on its pin ({why}): check the pin map and that no other "
                  "program uses that GPIO").format(device=_(what), why=why)) from None
        self._devices.append(device)
        return device

    def _open_devices(self, pinmap: PinMap, factory: Any) -> None:
        def stamped(name: str, spec: InputPin, on_edge: Callable[[Any, bool], None]) -> Any:
            return self._open(name, lambda: StampedInput(
                spec.pin, on_edge, active_low=spec.active_low, pin_factory=factory))

        self.paddles = {
            side: stamped(_PADDLES[side], pinmap.paddle(side), self._paddle_edge(side))
            for side in Side
        }
        self.timer_button = stamped(N_("the timer button"), pinmap.timer_button, self._timer_edge)
        self.go_light = self._open(N_("the go light"), lambda: LED(pinmap.go_light,
                                                                    pin_factory=factory))
        def arrow(side: Side) -> Any:
            return self._open(_ARROWS[side],
                              lambda: PWMLED(pinmap.arrow(side), pin_factory=factory))

        self.arrows = {side: arrow(side) for side in Side}
        self.countdown: CountdownDisplay | None = None
        if pinmap.countdown is not None:
            spec = pinmap.countdown
            self.countdown = self._open(N_("the countdown display"),
                                        lambda: CountdownDisplay(spec, factory))
        self.buzzer: Any = None
        self.beeper: Beeper | None = None
        if (b := pinmap.buzzer) is not None:
            if b.kind is BuzzerKind.TONAL:
                self.buzzer = self._open(N_("the buzzer"), lambda: TonalBuzzer(
                    b.pin, pin_factory=factory))
            else:
                self.buzzer = self._open(N_("the buzzer"), lambda: Buzzer(
                    b.pin, pin_factory=factory))
            self.beeper = Beeper(self._sound)
        lp = pinmap.launcher
        motor = self._open(N_("the launcher motor"), lambda: Motor(
            lp.forward, lp.backward, enable=lp.enable, pwm=lp.pwm, pin_factory=factory))
        self._devices.remove(motor)  # the launcher owns and closes it
        self.launcher = Launcher(motor, lp, self.clock.now_us, self._put, pinmap.card_sensor)
        self.card_sensor: Any = None
        if (cs := pinmap.card_sensor) is not None:
            self.card_sensor = self._open(N_("the card sensor"), lambda: StampedInput(
                cs.pin, self._card_edge, active_low=cs.active_low, pin_factory=factory))

    # -- edges (pin factory threads) --

    def _put(self, item: UnitInput) -> None:
        self.inputs.put(item)

    def _paddle_edge(self, side: Side) -> Callable[[Any, bool], None]:
        def on_edge(ticks: Any, active: bool) -> None:
            if active:
                self.inputs.put(PaddlePressed(side, self.clock.edge_us(ticks)))
        return on_edge

    def _timer_edge(self, ticks: Any, active: bool) -> None:
        if not active:
            return
        t_us = self.clock.edge_us(ticks)
        last = self._last_timer_us
        if last is not None and 0 <= t_us - last < TIMER_HOLDOFF_US:
            return
        self._last_timer_us = t_us
        self.inputs.put(TimerPressed(t_us))

    def _card_edge(self, ticks: Any, active: bool) -> None:
        self.launcher.card_edge(self.clock.edge_us(ticks), active)

    # -- clock and inputs --

    def now_us(self) -> int:
        return self.clock.now_us()

    def read_inputs(self, timeout_s: float) -> list[UnitInput]:
        self.launcher.check()
        out = self.inputs.take(timeout_s)
        self.launcher.check()
        return out

    # -- display and sound --

    def show_idle(self) -> None:
        self._frozen = False
        self.go_light.off()
        self.set_arrow(None)
        if self.countdown is not None:
            self.countdown.blank()

    def show_loaded(self, cards: int) -> None:
        self._frozen = False
        self.go_light.off()
        if self.countdown is not None:
            self.countdown.show_count(cards)

    def start_countdown(self, countdown_us: int) -> None:
        self._frozen = False
        self.go_light.off()
        self.show_countdown(countdown_us, countdown_us)

    def show_countdown(self, remaining_us: int, total_us: int) -> None:
        if self._frozen or self.countdown is None:
            return
        if self.countdown.countdown(remaining_us, total_us) and remaining_us > 0:
            self.beep(Beep.TICK)

    def show_go(self) -> int:
        stamp = self.clock.now_us()  # before the light: nobody who saw it is early
        self.go_light.on()
        if self.countdown is not None:
            self.countdown.blank()
        return stamp

    def freeze_countdown(self) -> None:
        self._frozen = True

    def set_arrow(self, side: Side | None) -> None:
        for arrow_side, arrow in self.arrows.items():
            if arrow_side is side:
                arrow.blink(on_time=ARROW_BLINK_S, off_time=ARROW_BLINK_S)
            else:
                arrow.off()

    def beep(self, kind: Beep) -> None:
        if self.beeper is not None:
            self.beeper.beep(kind)

    def _sound(self, frequency: float | None) -> None:
        buzzer = self.buzzer
        if buzzer is None or self._closed:
            return
        try:
            if isinstance(buzzer, TonalBuzzer):
                if frequency is None:
                    buzzer.stop()
                else:
                    buzzer.play(frequency)
            elif frequency is None:
                buzzer.off()
            else:
                buzzer.on()
        except GPIOZeroError:  # closed under the beeper's feet at shutdown
            pass

    # -- the launcher --

    def launch(self, parts: tuple[LaunchPart, ...]) -> None:
        self.launcher.launch(parts)

    def stop_launcher(self) -> None:
        self.launcher.stop()

    def close(self) -> None:
        if self._closed:
            self.launcher.stop()
            return
        try:
            self.launcher.close()
        finally:
            self._closed = True
            if self.beeper is not None:
                self.beeper.close()
            self._close_devices()

    def _close_devices(self) -> None:
        launcher = getattr(self, "launcher", None)
        if launcher is not None:
            # Also reached when opening a later device failed: the motor's pins are
            # released here then, not left claimed.
            try:
                launcher.close()
            except Exception:
                launcher.stop()
                log.exception("closing the launcher failed")
        for device in reversed(self._devices):
            try:
                device.close()
            except Exception:  # closing must go on: the next device may be the dangerous one
                log.exception("closing %r failed", device)
        self._devices.clear()


def open_unit(args: argparse.Namespace) -> GpioUnit:
    """`--device gpio`: the unit on this Pi's header, pins from `--pins` (or the default map).

    Works headless: nothing here needs a display. lgpio is given a working folder of ours
    first (`hardware.gpio_workdir`), so the unit opens whatever folder the program starts in.
    """
    pinmap = load_pinmap(getattr(args, "pins", None))
    with lgpio_folder(), warnings.catch_warnings(record=True) as fallbacks:
        # gpiozero warns once per library it tries; the one line below says it all.
        warnings.simplefilter("always", PinFactoryFallback)
        try:
            Device.ensure_pin_factory()
        except (GPIOZeroError, ImportError, OSError, KeyError, ValueError) as exc:
            raise library_error(exc, [str(w.message) for w in fallbacks
                                      if issubclass(w.category, PinFactoryFallback)]) from None
    return GpioUnit(pinmap, Device.pin_factory)


def library_error(exc: BaseException, fallbacks: list[str]) -> ConfigError:
    """The one line for a pin library that failed: its own reason, and the advice to install
    lgpio only when lgpio is not there.

    `fallbacks` are gpiozero's "Falling back from NAME: REASON" warnings, one per library it
    tried; with `GPIOZERO_PIN_FACTORY` set it tries one and `exc` is that library's reason.
    """
    reasons = dict(line.removeprefix("Falling back from ").split(": ", 1)
                   for line in fallbacks if ": " in line)
    if importlib.util.find_spec("lgpio") is None:
        problem = "; ".join(f"{name}: {why}" for name, why in reasons.items()) or str(exc)
        return ConfigError(
            _("no GPIO library could be loaded ({problem}): on a Raspberry Pi install lgpio "
              "(see docs/raspberry-pi.md)").format(problem=problem))
    why = reasons.get("lgpio") or str(exc) or type(exc).__name__
    return ConfigError(
        _("the GPIO library lgpio is installed but could not start: {why}").format(why=why))
