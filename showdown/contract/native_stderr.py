"""Quieting what C libraries print: file descriptor 2 pointed at /dev/null for a moment.

SDL probes for a device and its libraries complain on the process's own descriptor 2,
past Python's `sys.stderr`: alsa-lib's "cannot find card '0'" lines when the emulated
unit's mixer opens without a sound card (`hardware.emulated_sound`), libwayland's
complaint when a window is looked for with no display at all (the score keeper's screen,
the table's window). Neither SDL nor pygame has a switch that stops them, so the probe
runs inside `native_stderr_silenced`. Only the standard library: the hardware and the
screens both use it, and neither may import the other.
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
