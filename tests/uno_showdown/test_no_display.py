"""Without a display, the windowed commands say so in exactly one line.

SDL tries X11, then Wayland, then the rest; where libwayland is installed but no session
runs (an SSH login: no XDG_RUNTIME_DIR), libwayland prints its own complaint on stderr
before the program can explain. Only the program's sentence may reach the user.
(`.ci/run` installs libwayland-client0, so CI provokes that complaint.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("command", "says"), [
    ("companion", "no display to open the screen on"),
    ("emulator", "no display is available for the emulator window"),
])
def test_one_line_and_nothing_from_the_libraries(tmp_path: Path, command: str,
                                                 says: str) -> None:
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "SDL_VIDEODRIVER")}
    env.update(HOME=str(tmp_path), XDG_DATA_HOME=str(tmp_path), SDL_AUDIODRIVER="dummy")
    done = subprocess.run([sys.executable, "-m", "uno_showdown", command, "--db",
                           str(tmp_path / "games.db")], capture_output=True, text=True,
                          env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"uno-showdown {command}: {says}"), (
        done.stderr)

