"""Quieting what C libraries print on file descriptor 2 while they probe for a device.

SDL's probes print lines a user cannot act on: alsa-lib's "cannot find card" when the
mixer opens without a sound card, and libwayland's "XDG_RUNTIME_DIR is invalid or not
set" when no display is found and SDL tries Wayland after X11. Each is followed by
the program's own one-line explanation, which is what the user should read. Standard
library only, so every layer may use it, like the contract module.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator


@contextlib.contextmanager
def native_stderr_silenced() -> Iterator[None]:
    """Send what C libraries write to file descriptor 2 to /dev/null while inside.

    Python's own `sys.stderr` is flushed first and works again afterwards; a
    process without a descriptor 2 is left as it is.
    """
    with contextlib.suppress(AttributeError, ValueError, OSError):
        sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:
        yield
        return
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
        finally:
            os.close(devnull)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
