"""lgpio's working folder: a writable folder of ours, whatever folder the program starts in.

Why this exists: when lgpio is imported it makes a named pipe, `.lgd-nfy0`, in its working
folder, changes the process's current folder to it and opens the pipe by its relative name.
Its working folder is `LG_WD` when set, else the current folder; started from `/`, from
`/opt/uno-showdown` or any folder the user may not write, the import fails with
"Can't set permissions (436) for …/.lgd-nfy0" (known upstream as gpiozero#1106), which
reads as if lgpio were missing.

So before gpiozero loads lgpio, `lgpio_folder()` points `LG_WD` at a folder of ours,
created with mode 0700 (the pipe carries the pins' events): the service's runtime or state
folder (systemd's `RUNTIME_DIRECTORY`, `STATE_DIRECTORY`), else the user's runtime folder
(`XDG_RUNTIME_DIR`), else the user's cache folder. A `LG_WD` the user set is kept. Once
lgpio is loaded its pipe is open, so the process goes back to the folder it started in:
relative paths on the command line mean what the user meant.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, MutableMapping
from contextlib import contextmanager, suppress
from pathlib import Path

#: The environment variable lgpio reads for its working folder.
LG_WD = "LG_WD"


def candidate_folders(environ: MutableMapping[str, str]) -> list[Path]:
    """Where lgpio's folder may go, best first (see the module docstring)."""
    bases: list[Path] = []
    for name in ("RUNTIME_DIRECTORY", "STATE_DIRECTORY"):
        # systemd sets these for a unit's RuntimeDirectory=/StateDirectory=; several
        # folders are separated by colons, the first is the unit's own.
        value = environ.get(name, "").split(":")[0]
        if value:
            bases.append(Path(value))
    if environ.get("XDG_RUNTIME_DIR"):
        bases.append(Path(environ["XDG_RUNTIME_DIR"]) / "uno-showdown")
    cache = environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    bases.append(Path(cache) / "uno-showdown")
    return [base / "lgpio" for base in bases]


def _usable(folder: Path) -> bool:
    """Make `folder` (mode 0700) if needed; whether this user may make files in it."""
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return False
    return os.access(folder, os.W_OK | os.X_OK)


def choose_folder(environ: MutableMapping[str, str]) -> Path | None:
    """The first usable candidate folder, or None when none is (lgpio then says why)."""
    for folder in candidate_folders(environ):
        if _usable(folder):
            return folder
    return None


@contextmanager
def lgpio_folder(environ: MutableMapping[str, str] | None = None) -> Iterator[Path | None]:
    """Within: `LG_WD` names a writable folder (ours unless the user set one). After: the
    process is back in the folder it was in. Yields the folder lgpio will use."""
    env = os.environ if environ is None else environ
    if env.get(LG_WD):
        folder: Path | None = Path(env[LG_WD])
    else:
        folder = choose_folder(env)
        if folder is not None:
            env[LG_WD] = str(folder)
    try:
        start = os.getcwd()
    except OSError:  # the folder we started in is gone: nothing to go back to
        start = None
    try:
        yield folder
    finally:
        if start is not None:
            with suppress(OSError):
                os.chdir(start)
