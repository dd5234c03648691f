"""Shared test set-up: no display or sound card needed, and the hardware-in-the-loop switch."""

from __future__ import annotations

import os

import pytest

# Pygame must never try to open a real window or sound device in the suite.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("uno-showdown hardware")
    group.addoption(
        "--hil-port",
        default=None,
        metavar="PORT",
        help="run the hardware-in-the-loop suite against a real board on PORT "
        "(default: the virtual microcontroller)",
    )
    group.addoption(
        "--real-gpio",
        action="store_true",
        default=False,
        help="run the GPIO tests on the Pi's real pins instead of gpiozero's MockFactory",
    )
