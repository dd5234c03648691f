"""GPIO opens whatever folder the program starts in, and a pin library that cannot start
says its own reason.

The real lgpio is imported by the program these tests start (its wheel is in the test
tools): importing it makes its notification pipe in its working folder, which the program
must give it. The program is started from `/proc`, a folder nobody (root included) can make
a pipe in, as a maker starts it from `/` or `/opt/uno-showdown`.
"""

from __future__ import annotations

import importlib.util
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.gpio_workdir import LG_WD, candidate_folders, lgpio_folder

# Looked for, not imported: importing it here would make its pipe in this process's folder,
# the checkout, where two test workers collecting at once race for the same name.
if importlib.util.find_spec("lgpio") is None:
    pytest.skip("lgpio has no wheel for this Python here", allow_module_level=True)


def _selftest_from(cwd: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "uno_showdown", "selftest", "--device", "gpio",
         "--echo-seconds", "0", "--no-motor"],
        cwd=cwd, env=env, capture_output=True, text=True, timeout=60, check=False)


def _clean_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in {LG_WD, "RUNTIME_DIRECTORY", "STATE_DIRECTORY", "XDG_RUNTIME_DIR"}}
    env.update(GPIOZERO_PIN_FACTORY="lgpio", HOME=str(tmp_path / "home"),
               XDG_CACHE_HOME=str(tmp_path / "cache"), PYTHONPATH=os.getcwd(), **extra)
    return env


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="on a Pi lgpio starts for real")
def test_started_from_an_unwritable_folder_lgpio_loads_and_says_its_own_reason(
        tmp_path: Path) -> None:
    run = tmp_path / "run"
    run.mkdir()
    done = _selftest_from("/proc", _clean_env(tmp_path, RUNTIME_DIRECTORY=str(run)))
    assert done.returncode != 0  # no Pi here: lgpio loads, then finds no Pi's GPIO chip
    assert ".lgd-nfy" not in done.stderr, done.stderr
    assert "install lgpio" not in done.stderr, done.stderr
    assert "lgpio is installed but could not start:" in done.stderr
    folder = run / "lgpio"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    pipes = [p for p in folder.iterdir() if p.name.startswith(".lgd-nfy")]
    assert pipes and all(stat.S_ISFIFO(p.stat().st_mode) for p in pipes)


@pytest.mark.skipif(Path("/dev/gpiochip0").exists(), reason="on a Pi lgpio starts for real")
def test_without_a_service_folder_the_users_cache_folder_is_used(tmp_path: Path) -> None:
    done = _selftest_from("/proc", _clean_env(tmp_path))
    assert "lgpio is installed but could not start:" in done.stderr, done.stderr
    assert (tmp_path / "cache" / "uno-showdown" / "lgpio").is_dir()


def test_the_folder_order_and_a_folder_the_user_set(tmp_path: Path, monkeypatch) -> None:
    env = {"RUNTIME_DIRECTORY": "/run/uno-showdown:/run/other",
           "STATE_DIRECTORY": "/var/lib/uno-showdown", "XDG_RUNTIME_DIR": "/run/user/1000",
           "XDG_CACHE_HOME": "/home/ann/.cache"}
    assert candidate_folders(env) == [
        Path("/run/uno-showdown/lgpio"), Path("/var/lib/uno-showdown/lgpio"),
        Path("/run/user/1000/uno-showdown/lgpio"), Path("/home/ann/.cache/uno-showdown/lgpio")]
    mine = {LG_WD: str(tmp_path), "RUNTIME_DIRECTORY": str(tmp_path / "run")}
    with lgpio_folder(mine) as folder:
        assert folder == tmp_path
    assert not (tmp_path / "run").exists()


def test_the_process_returns_to_its_folder_after_lgpio_moved_it(tmp_path: Path,
                                                                monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache")}
    with lgpio_folder(env) as folder:
        assert folder is not None and env[LG_WD] == str(folder)
        os.chdir(folder)  # what lgpio's import does
    assert Path.cwd() == tmp_path
