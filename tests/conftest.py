"""Shared test set-up: no display or sound card needed, and the hardware-in-the-loop switch."""

from __future__ import annotations

import os
import tempfile

import pytest
from hypothesis import settings

# Property tests: a few hundred examples each in every run; HYPOTHESIS_PROFILE=deep for
# a long hunt before a release (tests that pin their own example count keep it).
settings.register_profile("default", max_examples=300, deadline=None)
settings.register_profile("deep", max_examples=20_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Pygame must never try to open a real window or sound device in the suite.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
# Whatever a test opens by default (the games file, the duel log) lands in a scratch
# folder, never in the user's own data directory.
os.environ["XDG_DATA_HOME"] = tempfile.mkdtemp(prefix="uno-showdown-tests-")


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
