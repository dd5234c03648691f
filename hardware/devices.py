"""Which adapter module serves which `--device` name.

Each module named here provides `open_unit(args) -> ShowdownUnit`, reading the
options `uno-showdown run` defines (`--pins`, `--port`, ...). Modules are
imported only when chosen, so a missing optional library only matters to the
device that needs it.
"""

from __future__ import annotations

import argparse
import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from showdown.contract.unit import ShowdownUnit

DEVICES: dict[str, str] = {
    "emulator": "hardware.emulated",
    "gpio": "hardware.gpio",
    "serial": "hardware.serial_unit",
    "fake": "hardware.fake",
}


def open_unit(name: str, args: argparse.Namespace) -> ShowdownUnit:
    if name not in DEVICES:
        raise ValueError(f"unknown device {name!r}: choose one of {', '.join(DEVICES)}")
    module = importlib.import_module(DEVICES[name])
    unit: ShowdownUnit = module.open_unit(args)
    return unit
