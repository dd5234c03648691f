"""The one piece of `firmware install` that runs on the board itself, run on MicroPython."""

from __future__ import annotations

from firmware_host.host.install import remove_stale_code, stale_sources
from tests.micropython.runner import MicroPython


def test_the_install_step_that_removes_stale_sources_runs_on_micropython(
    micropython: MicroPython,
) -> None:
    """`firmware install` runs this on the board before copying; here on a real MicroPython."""
    micropython.run("import os\nos.chdir('/')\nwith open('fw_core.py', 'w') as f:\n f.write('x')")
    micropython.run(remove_stale_code())  # one present, two absent: no error
    assert not set(stale_sources()) & set(micropython.call("os.listdir('/')"))
