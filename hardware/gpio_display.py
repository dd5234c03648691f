"""The countdown lights of the GPIO unit: one 7-segment digit, several, or a row of LEDs.

Why split out: what the countdown shows is a pure function of the time left
(`countdown_face`), so it is tested without pins, and the service may refresh
every 20 ms while the display (and the tick beep) changes only when the face
does.
"""

from __future__ import annotations

from typing import Any

from gpiozero import LEDBarGraph, LEDCharDisplay, LEDMultiCharDisplay

from hardware.pinmap import CountdownKind, CountdownPins

Face = str | int  # digits: the text shown; bar: how many LEDs are lit


def countdown_face(remaining_us: int, total_us: int, kind: CountdownKind, size: int) -> Face:
    """What the countdown shows with `remaining_us` left of `total_us`.

    Digits show the whole seconds left, rounded up ("3", "2", "1"), capped at
    what `size` digits can show; a bar of `size` LEDs shows the share of time
    left, rounded up, so the last LED goes out exactly at "go".
    """
    remaining_us = max(0, min(remaining_us, total_us))
    if kind is CountdownKind.BAR:
        if total_us <= 0:
            return 0
        return -(-remaining_us * size // total_us)
    seconds = -(-remaining_us // 1_000_000)
    return str(min(seconds, 10**size - 1)) if seconds > 0 else ""


class CountdownDisplay:
    """Drives the countdown device and remembers what it shows, to skip needless updates."""

    def __init__(self, pins: CountdownPins, pin_factory: Any) -> None:
        self.kind = pins.kind
        self.device: Any
        if pins.kind is CountdownKind.BAR:
            self.device = LEDBarGraph(*pins.pins, active_high=pins.active_high,
                                      pin_factory=pin_factory)
            self.size = len(pins.pins)
        else:
            char = LEDCharDisplay(*pins.pins, dp=pins.dp, active_high=pins.active_high,
                                  pin_factory=pin_factory)
            if pins.kind is CountdownKind.DIGITS:
                try:
                    self.device = LEDMultiCharDisplay(
                        char, *pins.selects, active_high=pins.select_active_high,
                        pin_factory=pin_factory)
                except BaseException:
                    char.close()
                    raise
                self.size = len(pins.selects)
            else:
                self.device = char
                self.size = 1
        self.face: Face | None = None
        self.show("" if self.kind is not CountdownKind.BAR else 0)

    def show(self, face: Face) -> bool:
        """Show `face`; True when that changed what is lit."""
        if face == self.face:
            return False
        self.face = face
        if self.kind is CountdownKind.BAR:
            self.device.value = int(face) / self.size
        else:
            self.device.value = str(face)[-self.size:].rjust(self.size) if self.size > 1 \
                else (str(face)[-1:] or " ")
        return True

    def show_count(self, count: int) -> bool:
        """Show a small number (cards loaded): as digits, or as that many LEDs lit."""
        if self.kind is CountdownKind.BAR:
            return self.show(max(0, min(count, self.size)))
        return self.show(str(min(count, 10**self.size - 1)))

    def blank(self) -> bool:
        return self.show(0 if self.kind is CountdownKind.BAR else "")

    def countdown(self, remaining_us: int, total_us: int) -> bool:
        return self.show(countdown_face(remaining_us, total_us, self.kind, self.size))

    def close(self) -> None:
        self.device.close()
