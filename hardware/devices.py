"""Which module of `hardware` serves which `--device` name.

Each module named here provides `open_unit(args) -> ShowdownUnit`, reading the
options `uno-showdown run` defines (`--pins`, `--port`, ...). Modules are
imported only when chosen, so a missing optional library only matters to the
device that needs it: each device's entry is a function that imports its module
(by its own name, so the import is seen like any other) and gives its `open_unit`.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from showdown.contract.unit import ShowdownUnit

    #: A device module's `open_unit`.
    Opener = Callable[[argparse.Namespace], ShowdownUnit]


def _emulator() -> Opener:
    from hardware import emulated

    return emulated.open_unit


def _gpio() -> Opener:
    from hardware import gpio

    return gpio.open_unit


def _serial() -> Opener:
    from hardware import serial_unit

    return serial_unit.open_unit


def _fake() -> Opener:
    from hardware import fake

    return fake.open_unit


#: Each `--device` name, and the function that imports its module and gives its `open_unit`.
DEVICES: dict[str, Callable[[], Opener]] = {
    "emulator": _emulator,
    "gpio": _gpio,
    "serial": _serial,
    "fake": _fake,
}


def open_unit(name: str, args: argparse.Namespace) -> ShowdownUnit:
    if name not in DEVICES:
        raise ValueError(f"unknown device {name!r}: choose one of {', '.join(DEVICES)}")
    return DEVICES[name]()(args)
