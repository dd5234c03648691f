"""The system libraries SDL loads to draw on the display without a desktop (KMSDRM).

Why: pygame-ce brings its own SDL, but SDL's KMSDRM driver (`SDL_VIDEODRIVER=kmsdrm`, the
touch display on Raspberry Pi OS Lite) loads the system's GBM, EGL, GLES and DRM libraries
when it starts. Raspberry Pi OS Lite (and a minimal Debian) lacks the first three; SDL then
says only "kmsdrm not available", which reads as if there were no display. So before the
screen opens under KMSDRM, each library is loaded the way SDL loads it (by its soname,
through the dynamic loader), and a missing one is named with the apt line that brings it.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Mapping

from showdown.contract.events import ConfigError
from showdown.contract.i18n import ngettext

#: (soname SDL loads, the Debian package that brings it), in the order SDL needs them.
KMSDRM_LIBRARIES: tuple[tuple[str, str], ...] = (
    ("libdrm.so.2", "libdrm2"),
    ("libgbm.so.1", "libgbm1"),
    ("libEGL.so.1", "libegl1"),
    ("libGLESv2.so.2", "libgles2"),
)


def missing_libraries(
        libraries: tuple[tuple[str, str], ...] = KMSDRM_LIBRARIES) -> list[tuple[str, str]]:
    """The (soname, package) pairs whose library the dynamic loader cannot load."""
    missing = []
    for soname, package in libraries:
        try:
            ctypes.CDLL(soname)
        except OSError:
            missing.append((soname, package))
    return missing


def check_kmsdrm(environ: Mapping[str, str] | None = None,
                 libraries: tuple[tuple[str, str], ...] = KMSDRM_LIBRARIES) -> None:
    """Under `SDL_VIDEODRIVER=kmsdrm`, a ConfigError naming each missing library and the
    apt line for all of them; otherwise nothing."""
    env = os.environ if environ is None else environ
    if env.get("SDL_VIDEODRIVER", "").strip().lower() != "kmsdrm":
        return
    missing = missing_libraries(libraries)
    if missing:
        raise ConfigError(
            ngettext("the screen cannot draw on the display without a desktop "
                     "(SDL_VIDEODRIVER=kmsdrm): the system library {libraries} is missing; "
                     "install it with: sudo apt install {packages}",
                     "the screen cannot draw on the display without a desktop "
                     "(SDL_VIDEODRIVER=kmsdrm): the system libraries {libraries} are "
                     "missing; install them with: sudo apt install {packages}",
                     len(missing)).format(
                libraries=", ".join(soname for soname, _package in missing),
                packages=" ".join(package for _soname, package in missing)))
