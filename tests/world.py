"""Every test in a world of its own, and the check that the suite kept to its worlds.

A world is a scratch folder holding everything a test may open by default: the runtime
folder (where a table listens for `uno-showdown duel`), the data and config folders (the
games file, the duel log) and a stand-in for the machine's fixed places (/run/uno-showdown,
/run/user/UID, /tmp: `$UNO_SHOWDOWN_SOCKET_ROOT`, see `uno_showdown.headless.duel_socket`).
`tests/conftest.py` gives the run one world, then each test one of its own, in `os.environ`,
so whatever a test starts in a subprocess lives in it too.

The user's own places (`user_places`, as the environment the suite was started in names them)
are listed before the run and after it (`snapshot`); anything the run made, changed or
removed there (`changes`) fails it, whoever's test did it.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from uno_showdown.headless import duel_socket

#: Where each place of a world is.
RUNTIME, DATA, CONFIG, ROOT = "run", "data", "config", "root"


@dataclass(frozen=True)
class World:
    """One test's folders; `base` holds them all and goes with the test."""

    base: Path

    @property
    def runtime(self) -> Path:
        """$XDG_RUNTIME_DIR: a table started in the test listens in its `uno-showdown`."""
        return self.base / RUNTIME

    @property
    def data(self) -> Path:
        """$XDG_DATA_HOME: the default games file and duel log are in its `uno-showdown`."""
        return self.base / DATA

    @property
    def config(self) -> Path:
        """$XDG_CONFIG_HOME."""
        return self.base / CONFIG

    @property
    def root(self) -> Path:
        """$UNO_SHOWDOWN_SOCKET_ROOT: stands in for `/` in the duel socket's fixed places;
        its `tmp` is there (as /tmp is on a machine), its `run/uno-showdown` is not (no
        systemd service runs here)."""
        return self.base / ROOT


def make_world(monkeypatch: pytest.MonkeyPatch) -> World:
    """A fresh world, put in `os.environ` with `monkeypatch` (which puts the old one back).

    Made with `tempfile.mkdtemp`, not in `tmp_path`: a socket's path may be at most 107
    bytes, and a test's tmp_path alone can take 70 of them."""
    world = World(Path(tempfile.mkdtemp(prefix="uno-test-")))
    for folder in (world.runtime, world.data, world.config, world.root / "tmp"):
        folder.mkdir(mode=0o700, parents=True)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(world.runtime))
    monkeypatch.setenv("XDG_DATA_HOME", str(world.data))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(world.config))
    monkeypatch.setenv(duel_socket.ROOT_VARIABLE, str(world.root))
    monkeypatch.delenv("RUNTIME_DIRECTORY", raising=False)  # systemd's, for its service only
    return world


def remove_world(world: World) -> None:
    shutil.rmtree(world.base, ignore_errors=True)


def user_places() -> list[Path]:
    """The folders of the user (and of the machine's service) the program may use, as the
    current environment names them: where `uno-showdown duel` looks for a table and where
    one listens, the runtime folder's even when $XDG_RUNTIME_DIR names another, and the
    data and config folders (the default games file and duel log)."""
    import platformdirs

    from companion.store.games_file import default_db_path
    from uno_showdown.commands.options import default_duel_log

    places = [path.parent for path in duel_socket.client_socket_paths()]
    places.append(duel_socket.service_socket_path().parent)
    places.append(duel_socket._fixed(Path(f"/run/user/{os.getuid()}")) / "uno-showdown")
    places += [Path(default_db_path()).parent, default_duel_log().parent,
               Path(platformdirs.user_data_dir("uno-showdown", appauthor=False)),
               Path(platformdirs.user_config_dir("uno-showdown", appauthor=False))]
    return list(dict.fromkeys(places))


#: What is known of one file: its kind, modification time and size; None for a folder
#: the run may not look into.
Entry = tuple[str, int, int] | None


def _entry(info: os.stat_result) -> Entry:
    kind = ("folder" if stat.S_ISDIR(info.st_mode) else "socket" if stat.S_ISSOCK(info.st_mode)
            else "link" if stat.S_ISLNK(info.st_mode) else "file")
    return kind, info.st_mtime_ns, info.st_size


def snapshot(places: list[Path]) -> dict[Path, Entry]:
    """Every file and folder in `places` (themselves included), without following links.

    A folder's time changes when a file is made in it or removed from it, so a socket a
    test made and took away again still shows."""
    seen: dict[Path, Entry] = {}

    def add(path: Path) -> bool:
        try:
            seen[path] = _entry(path.lstat())
        except FileNotFoundError:
            return False
        except OSError:
            seen[path] = None
            return False
        return True

    for place in places:
        if not add(place) or not place.is_dir() or place.is_symlink():
            continue
        for folder, dirs, files in os.walk(place, onerror=lambda exc: None):
            for name in dirs + files:
                add(Path(folder, name))
    return seen


def changes(before: dict[Path, Entry], after: dict[Path, Entry]) -> list[str]:
    """What happened between two snapshots, one line a file: made, changed or removed."""
    out = []
    for path in sorted(before.keys() | after.keys()):
        if path not in before:
            out.append(f"made {path}")
        elif path not in after:
            out.append(f"removed {path}")
        elif before[path] != after[path]:
            out.append(f"changed {path}")
    return out
