"""The GPIO pin map: which header pin drives which part of the unit, read from TOML.

Why a file: every table is wired a little differently (a spare pin, a second
digit, a card sensor or not), and a wrong pin found at load time costs one
line of text, while one found at the table can run a motor the wrong way.
`load_pinmap` therefore checks everything it can before a pin is touched: an
unknown device or option, a missing required device, a pin used twice, a
number that is not a usable header GPIO, launcher times that do not fit under
the motor's hard maximum on-time. Every error is one line naming the culprit.

Pins are Broadcom (BCM) GPIO numbers, written as `17` or `"GPIO17"`.
The default map, `pins/pi-header.toml`, suits the 40-pin header of a Pi 4 or 5.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, NoReturn

from showdown.contract.events import ConfigError, Side
from showdown.contract.i18n import _

#: The map used when `--pins` is not given.
DEFAULT_PINMAP = Path(__file__).with_name("pins") / "pi-header.toml"

#: GPIO0/1 carry the HAT ID EEPROM; 28 and up are not on the 40-pin header.
USABLE_GPIOS = range(2, 28)

#: The hard limit of the motor's on-time in one launch, whatever the pin map says: 5 s is
#: twenty cards at the default times with room to spare, and short enough that a runaway
#: motor stops before it throws the deck or burns its driver.
MAX_ON_LIMIT_MS = 5_000
#: The largest pin map read: a real one is a few kilobytes; this refuses a device or a
#: disk image given by mistake before it fills the memory.
MAX_PINMAP_BYTES = 1024 * 1024
#: The range of every time in the pin map, in milliseconds: (lowest, highest).
TIME_RANGES_MS = {
    "base_ms": (0, MAX_ON_LIMIT_MS),
    "per_card_ms": (0, MAX_ON_LIMIT_MS),
    "pause_ms": (0, MAX_ON_LIMIT_MS),
    "max_on_ms": (1, MAX_ON_LIMIT_MS),
    "jam_ms": (1, MAX_ON_LIMIT_MS),
    "run_on_ms": (0, 1_000),
}

REQUIRED = ("left_paddle", "right_paddle", "timer_button", "go_light", "left_arrow",
            "right_arrow", "launcher")
OPTIONAL = ("countdown", "buzzer", "card_sensor")


class PinMapError(ConfigError):
    """A pin map that cannot be used; the message names the file and the culprit."""


class CountdownKind(StrEnum):
    DIGIT = "digit"  # one 7-segment digit (LEDCharDisplay)
    DIGITS = "digits"  # multiplexed 7-segment digits (LEDMultiCharDisplay)
    BAR = "bar"  # a row of LEDs (LEDBarGraph)


class BuzzerKind(StrEnum):
    TONAL = "tonal"  # a passive piezo on a PWM pin (TonalBuzzer)
    PLAIN = "plain"  # an active buzzer, on or off (Buzzer)


@dataclass(frozen=True, slots=True)
class InputPin:
    """A switch or sensor: active when pulled low (`active_low`), as a switch to ground is."""

    pin: int
    active_low: bool = True


@dataclass(frozen=True, slots=True)
class CountdownPins:
    kind: CountdownKind
    #: digit(s): segments a..g; bar: the LEDs, first to last.
    pins: tuple[int, ...]
    #: digits: one select (common) pin per digit, left to right.
    selects: tuple[int, ...] = ()
    dp: int | None = None
    active_high: bool = True
    select_active_high: bool = False


@dataclass(frozen=True, slots=True)
class BuzzerPins:
    pin: int
    kind: BuzzerKind = BuzzerKind.TONAL


@dataclass(frozen=True, slots=True)
class LauncherPins:
    """The H-bridge and how long it runs. Times are microseconds."""

    forward: int
    backward: int
    enable: int | None = None
    #: Which side "forward" throws the cards to.
    forward_side: Side = Side.LEFT
    pwm: bool = True
    speed: float = 1.0
    base_us: int = 150_000
    per_card_us: int = 120_000
    #: Motor off between the two parts of a split launch (before reversing).
    pause_us: int = 200_000
    #: The motor never runs longer than this in one launch, whatever happens.
    max_on_us: int = 2_000_000

    def __post_init__(self) -> None:
        # The launcher's watchdog is a timer of this length: it must be one that can run.
        if not 0 < self.max_on_us <= MAX_ON_LIMIT_MS * 1000:
            raise PinMapError(_("the launcher's max_on_ms must be from 1 to {most}, "
                                "not {value}").format(most=MAX_ON_LIMIT_MS,
                                                      value=f"{self.max_on_us / 1000:g}"))

    def side_is_forward(self, side: Side) -> bool:
        return side is self.forward_side


@dataclass(frozen=True, slots=True)
class CardSensorPins:
    pin: int
    active_low: bool = True
    #: The beam blocked this long means a card is stuck.
    jam_us: int = 400_000
    #: Keep the rollers turning this long after the last card is counted.
    run_on_us: int = 40_000


@dataclass(frozen=True, slots=True)
class PinMap:
    left_paddle: InputPin
    right_paddle: InputPin
    timer_button: InputPin
    go_light: int
    left_arrow: int
    right_arrow: int
    launcher: LauncherPins
    countdown: CountdownPins | None = None
    buzzer: BuzzerPins | None = None
    card_sensor: CardSensorPins | None = None
    source: str = "<built in>"

    def paddle(self, side: Side) -> InputPin:
        return self.left_paddle if side is Side.LEFT else self.right_paddle

    def arrow(self, side: Side) -> int:
        return self.left_arrow if side is Side.LEFT else self.right_arrow


# --- reading -------------------------------------------------------------------


class _Section:
    """One device's table, read with errors that name the file, device and option."""

    def __init__(self, where: str, device: str, raw: Any) -> None:
        self.where, self.device = where, device
        if isinstance(raw, (int, str)) and not isinstance(raw, bool):
            raw = {"pin": raw}  # `go_light = 23` is short for `[go_light] pin = 23`
        if not isinstance(raw, dict):
            self.fail(_("should be a table like [{device}] or a pin number").format(
                device=device))
        self.raw: dict[str, Any] = dict(raw)
        self.used: set[str] = set()

    def fail(self, what: str) -> NoReturn:
        # "{where}: launcher needs 'pin'": the device is the file's own key, not translated
        raise PinMapError(_("{where}: {device} {problem}").format(
            where=self.where, device=self.device, problem=what))

    def has(self, key: str) -> bool:
        return key in self.raw

    def _get(self, key: str, default: Any) -> Any:
        self.used.add(key)
        if key not in self.raw:
            if default is _MISSING:
                self.fail(_("needs '{key}'").format(key=key))
            return default
        return self.raw[key]

    def pin(self, key: str = "pin", default: Any = ...) -> Any:
        value = self._get(key, _MISSING if default is ... else default)
        return None if value is None else _gpio(value, lambda m: self.fail(f"{key}: {m}"))

    def pins(self, key: str) -> tuple[int, ...]:
        value = self._get(key, _MISSING)
        if not isinstance(value, list) or not value:
            self.fail(_("{key} should be a list of pins").format(key=key))
        return tuple(_gpio(v, lambda m: self.fail(f"{key}: {m}")) for v in value)

    def flag(self, key: str, default: bool) -> bool:
        value = self._get(key, default)
        if not isinstance(value, bool):
            self.fail(_("{key} should be true or false, not {value}").format(
                key=key, value=repr(value)))
        return bool(value)

    def ms(self, key: str, default_us: int) -> int:
        """A time in milliseconds within its range in `TIME_RANGES_MS` (nan and inf are not)."""
        low, high = TIME_RANGES_MS[key]
        value = self._get(key, default_us / 1000)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not is_number or not low <= value <= high:  # also false for nan
            self.fail(_("{key} should be a number of milliseconds from {low} to {high}, "
                        "not {value}").format(key=key, low=low, high=high, value=repr(value)))
        return round(value * 1000)

    def number(self, key: str, default: float, low: float, high: float) -> float:
        value = self._get(key, default)
        is_number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if not is_number or not low <= value <= high:
            self.fail(_("{key} should be a number from {low} to {high}, not {value}").format(
                key=key, low=low, high=high, value=repr(value)))
        return float(value)

    def choice(self, key: str, kind: type[StrEnum], default: StrEnum) -> Any:
        value = self._get(key, default.value)
        try:
            return kind(value)
        except ValueError:
            choices = ", ".join(repr(k.value) for k in kind)
            self.fail(_("{key} should be one of {choices}, not {value}").format(
                key=key, choices=choices, value=repr(value)))

    def done(self) -> None:
        unknown = sorted(set(self.raw) - self.used)
        if unknown:
            self.fail(_("has an unknown option '{option}'").format(option=unknown[0]))


_MISSING = object()


def _gpio(value: Any, fail: Any) -> int:
    """A BCM number from `17` or `"GPIO17"`/`"BCM17"`."""
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, str):
        # ASCII digits only: "²".isdigit() is true, and int() refuses it
        found = re.fullmatch(r"(?:GPIO|BCM)([0-9]{1,3})", value.strip().upper())
        if found is not None:
            number = int(found.group(1))
    if number is None:
        fail(_('{value} is not a GPIO number (write 17 or "GPIO17")').format(
            value=repr(value)))
        raise AssertionError("unreachable: fail raises")
    if number not in USABLE_GPIOS:
        fail(_("GPIO{number} is not a usable header pin (use GPIO2 to GPIO27)").format(
            number=number))
    return number


def parse_pinmap(data: dict[str, Any], where: str = "<pin map>") -> PinMap:
    """Build and validate a `PinMap` from parsed TOML."""
    known = set(REQUIRED) | set(OPTIONAL)
    for name in data:
        if name not in known:
            devices = ", ".join(REQUIRED + OPTIONAL)  # the file's own keys: not translated
            raise PinMapError(_("{where}: unknown device '{name}' (known: {known})").format(
                where=where, name=name, known=devices))
    for name in REQUIRED:
        if name not in data:
            raise PinMapError(_("{where}: required device '{name}' is missing").format(
                where=where, name=name))

    def section(name: str) -> _Section:
        return _Section(where, name, data[name])

    def input_pin(name: str) -> InputPin:
        s = section(name)
        result = InputPin(s.pin(), s.flag("active_low", True))
        s.done()
        return result

    def output_pin(name: str) -> int:
        s = section(name)
        result: int = s.pin()
        s.done()
        return result

    s = section("launcher")
    launcher = LauncherPins(
        forward=s.pin("forward"),
        backward=s.pin("backward"),
        enable=s.pin("enable", None),
        forward_side=_side(s),
        pwm=s.flag("pwm", True),
        speed=s.number("speed", 1.0, 0.1, 1.0),
        base_us=s.ms("base_ms", 150_000),
        per_card_us=s.ms("per_card_ms", 120_000),
        pause_us=s.ms("pause_ms", 200_000),
        max_on_us=s.ms("max_on_ms", 2_000_000),
    )
    s.done()
    if launcher.base_us + launcher.per_card_us > launcher.max_on_us:
        s.fail(_("base_ms + per_card_ms is longer than max_on_ms: not even one card could "
                 "launch"))

    countdown = None
    if "countdown" in data:
        s = section("countdown")
        kind = s.choice("kind", CountdownKind, CountdownKind.DIGIT)
        if kind is CountdownKind.BAR:
            countdown = CountdownPins(kind, s.pins("pins"), active_high=s.flag("active_high", True))
        else:
            segments = s.pins("segments")
            if len(segments) != 7:
                s.fail(_("segments should list 7 pins (a to g), not {count}").format(
                    count=len(segments)))
            selects = s.pins("selects") if kind is CountdownKind.DIGITS else ()
            countdown = CountdownPins(
                kind, segments, selects, dp=s.pin("dp", None),
                active_high=s.flag("active_high", True),
                select_active_high=s.flag("select_active_high", False),
            )
        s.done()

    buzzer = None
    if "buzzer" in data:
        s = section("buzzer")
        buzzer = BuzzerPins(s.pin(), s.choice("kind", BuzzerKind, BuzzerKind.TONAL))
        s.done()

    sensor = None
    if "card_sensor" in data:
        s = section("card_sensor")
        sensor = CardSensorPins(
            s.pin(), s.flag("active_low", True),
            jam_us=s.ms("jam_ms", 400_000),
            run_on_us=s.ms("run_on_ms", 40_000),
        )
        s.done()

    pinmap = PinMap(
        left_paddle=input_pin("left_paddle"),
        right_paddle=input_pin("right_paddle"),
        timer_button=input_pin("timer_button"),
        go_light=output_pin("go_light"),
        left_arrow=output_pin("left_arrow"),
        right_arrow=output_pin("right_arrow"),
        launcher=launcher,
        countdown=countdown,
        buzzer=buzzer,
        card_sensor=sensor,
        source=where,
    )
    _check_unique(pinmap, where)
    return pinmap


def _side(s: _Section) -> Side:
    value = s._get("forward_side", Side.LEFT.value)
    try:
        return Side.parse(str(value))
    except ValueError:
        s.fail(_("forward_side should be 'left' or 'right', not {value}").format(
            value=repr(value)))


def pin_uses(pinmap: PinMap) -> list[tuple[str, int]]:
    """Every pin the map claims, with a name for it, in map order."""
    uses: list[tuple[str, int]] = [
        ("left_paddle", pinmap.left_paddle.pin),
        ("right_paddle", pinmap.right_paddle.pin),
        ("timer_button", pinmap.timer_button.pin),
        ("go_light", pinmap.go_light),
        ("left_arrow", pinmap.left_arrow),
        ("right_arrow", pinmap.right_arrow),
        ("launcher.forward", pinmap.launcher.forward),
        ("launcher.backward", pinmap.launcher.backward),
    ]
    if pinmap.launcher.enable is not None:
        uses.append(("launcher.enable", pinmap.launcher.enable))
    if (c := pinmap.countdown) is not None:
        key = "pins" if c.kind is CountdownKind.BAR else "segments"
        uses += [(f"countdown.{key}", p) for p in c.pins]
        uses += [("countdown.selects", p) for p in c.selects]
        if c.dp is not None:
            uses.append(("countdown.dp", c.dp))
    if pinmap.buzzer is not None:
        uses.append(("buzzer", pinmap.buzzer.pin))
    if pinmap.card_sensor is not None:
        uses.append(("card_sensor", pinmap.card_sensor.pin))
    return uses


def _check_unique(pinmap: PinMap, where: str) -> None:
    seen: dict[int, str] = {}
    for name, pin in pin_uses(pinmap):
        if pin in seen:
            raise PinMapError(_("{where}: GPIO{pin} is used twice, by {first} and {second}")
                              .format(where=where, pin=pin, first=seen[pin], second=name))
        seen[pin] = name


def load_pinmap(path: str | Path | None = None) -> PinMap:
    """Read and validate a pin map file (the default one when `path` is None)."""
    file = Path(path) if path is not None else DEFAULT_PINMAP
    try:
        with open(file, "rb") as stream:  # read up to the cap: /dev/zero never ends
            raw = stream.read(MAX_PINMAP_BYTES + 1)
    except FileNotFoundError:
        raise PinMapError(_("pin map {file} not found: check the --pins path").format(
            file=file)) from None
    except (OSError, ValueError) as exc:  # ValueError: a path with a NUL in it
        reason = exc.strerror if isinstance(exc, OSError) else exc
        raise PinMapError(_("cannot read pin map {file}: {reason}").format(
            file=file, reason=reason)) from None
    if len(raw) > MAX_PINMAP_BYTES:
        raise PinMapError(_("{file} is larger than {most} KiB, so it is not a pin map: check "
                            "the --pins path").format(file=file, most=MAX_PINMAP_BYTES // 1024))
    try:
        data = tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise PinMapError(_("{file} is not UTF-8 text ({reason} at byte {byte}): save the pin "
                            "map as UTF-8").format(file=file, reason=exc.reason,
                                                   byte=exc.start)) from None
    except tomllib.TOMLDecodeError as exc:
        raise PinMapError(_("{file} is not valid TOML ({problem}): fix the file").format(
            file=file, problem=exc)) from None
    except RecursionError:
        raise PinMapError(_("{file} is not a pin map (its tables or lists are nested too "
                            "deeply): fix the file").format(file=file)) from None
    return parse_pinmap(data, str(file))
