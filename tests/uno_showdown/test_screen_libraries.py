"""Drawing on the display without a desktop (KMSDRM) needs the system's GBM, EGL, GLES and
DRM libraries: a missing one is named, with the apt line that brings it, before the screen
tries to open (SDL alone says "kmsdrm not available", and the program pointed to Xvfb).

The library is made missing for real where the tests run as root (as CI does): in a
private mount namespace the file the loader finds for libgbm.so.1 is covered by an empty
one, as on Raspberry Pi OS Lite where it is not installed.
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from showdown.contract.events import ConfigError
from uno_showdown.commands.screen_libraries import KMSDRM_LIBRARIES, check_kmsdrm


def _file_of(soname: str) -> Path | None:
    """The file the dynamic loader loads for `soname`, or None when it loads none."""
    try:
        ctypes.CDLL(soname)
    except OSError:
        return None
    stem = soname.split(".so")[0]
    for line in Path("/proc/self/maps").read_text().splitlines():
        path = line.split()[-1]
        if "/" in path and Path(path).name.startswith(stem + ".so"):
            return Path(path)
    return None


def test_a_missing_library_is_named_with_its_apt_line_under_kmsdrm() -> None:
    table = (("libc.so.6", "libc6"), ("libuno-showdown-absent.so.1", "uno-absent1"))
    with pytest.raises(ConfigError) as caught:
        check_kmsdrm({"SDL_VIDEODRIVER": "kmsdrm"}, table)
    assert str(caught.value) == (
        "the screen cannot draw on the display without a desktop (SDL_VIDEODRIVER=kmsdrm): "
        "the system library libuno-showdown-absent.so.1 is missing; install it with: "
        "sudo apt install uno-absent1")
    check_kmsdrm({"SDL_VIDEODRIVER": "x11"}, table)  # another driver: not its business
    check_kmsdrm({}, table)


def test_the_guide_names_every_library_and_its_package() -> None:
    guide = (Path(__file__).resolve().parents[2] / "docs" / "raspberry-pi.md").read_text()
    for soname, package in KMSDRM_LIBRARIES:
        assert soname in guide and package in guide


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None,
                    reason="hiding a system library needs root and unshare (CI runs as root)")
def test_the_companion_under_kmsdrm_names_the_missing_gbm(tmp_path: Path) -> None:
    gbm = _file_of("libgbm.so.1")
    if gbm is None:
        pytest.skip("libgbm.so.1 is not installed here, so it cannot be hidden")
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    hide = f'mount --bind "{empty}" "{gbm}" && exec "$@"'
    env = dict(os.environ, SDL_VIDEODRIVER="kmsdrm", PYTHONPATH=os.getcwd())
    done = subprocess.run(
        ["unshare", "--mount", "--propagation", "private", "sh", "-c", hide, "sh",
         sys.executable, "-m", "uno_showdown", "companion", "--db", str(tmp_path / "g.db")],
        capture_output=True, text=True, timeout=120, env=env, check=False)
    if "mount" in done.stderr and "uno-showdown" not in done.stderr:
        pytest.skip(f"no private mounts in this sandbox: {done.stderr.strip()}")
    assert done.returncode == 2
    assert "the system library libgbm.so.1 is missing" in done.stderr, done.stderr
    assert "sudo apt install libgbm1" in done.stderr
    assert "Xvfb" not in done.stderr
