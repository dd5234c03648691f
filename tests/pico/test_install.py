"""`uno-showdown firmware install` and `firmware version` on the real MicroPython image.

The `installed` fixture put the firmware on a freshly booted emulated Pico
with the command a maker types; these tests check what it said, what it left on
the board's flash, and that installing again over a running firmware works
(the board is asked to restart first, so its watchdog is not running).
"""

from __future__ import annotations

import ast
import re

import pytest

from firmware_host.wire import codec
from tests.pico.conftest import (
    Installed,
    boot_to_firmware,
    boot_to_repl,
    cli,
    firmware_version,
    mpremote,
)
from tests.pico.emulated_pico import EmulatedPico

pytestmark = pytest.mark.pico

BOARD_FILES = ["fw_core.mpy", "fw_pico.mpy", "main.py", "protocol.mpy"]


def test_install_says_what_it_did_in_two_lines(installed: Installed) -> None:
    port = re.escape(installed.pico.port)
    assert re.fullmatch(
        rf"copying 4 files to {port} \.\.\.\ninstalled: the board on {port} speaks protocol "
        rf"v{codec.VERSION} \(boot [0-9a-f]{{8}}\)\n", installed.install_out), installed.install_out
    assert installed.install_err == ""
    assert re.fullmatch(rf"{port}: Showdown firmware, protocol v{codec.VERSION} \(this program: "
                        rf"v{codec.VERSION}\), boot [0-9a-f]{{8}}\n", installed.version_out)


def _files_on_flash(pico: EmulatedPico) -> list[str]:
    """The board's files, listed at the REPL of a board started with the timer button held."""
    boot_to_repl(pico)
    try:
        listed = mpremote(pico, "exec", "import os\nprint(sorted(os.listdir('/')))")
    finally:
        boot_to_firmware(pico)
    names: list[str] = ast.literal_eval(listed.strip().splitlines()[-1])
    return names


def test_installing_again_over_a_running_firmware_restarts_it_and_copies_the_files(
    installed: Installed, pico: EmulatedPico
) -> None:
    assert firmware_version(pico).returncode == 0  # armed watchdog
    boots = pico.boot
    again = cli("firmware", "install", "--port", pico.port)
    assert again.returncode == 0, again.stdout + again.stderr
    assert again.stdout.endswith(f"speaks protocol v{codec.VERSION} (boot "
                                 f"{again.stdout.strip()[-9:]}\n")
    # asked to restart (RS) before mpremote went in, then reset by mpremote after the copy
    assert pico.boot >= boots + 2
    assert [b["reason"] for b in pico.boots[boots:]] == ["forced"] * (pico.boot - boots)
    names = _files_on_flash(pico)
    assert [n for n in names if n != "boot.py"] == BOARD_FILES
    assert firmware_version(pico).returncode == 0
