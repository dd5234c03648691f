"""No test sees another test's socket, the user's running table or the user's files.

Each test runs in a world of its own (tests/world.py, set up by tests/conftest.py), and the
run fails if it touched the user's places. Both are tried here on a stand-in for the
machine: a "user" whose every place (runtime folder, data and config folders, the systemd
service's folder, /run/uno-showdown, /run/user/UID, /tmp) is a scratch folder, so that
proving the check bites never dirties the real ones.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest

from tests.world import World, user_places
from uno_showdown.headless import duel_socket

ROOT = Path(__file__).resolve().parents[1]
OWN_TABLE = "the user's own table"


def users_environment(folder: Path) -> dict[str, str]:
    """The environment of a user whose places are all in `folder`, as a terminal of theirs
    would start `make test` with (nothing of this run's pytest in it)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_")}
    places = {"XDG_RUNTIME_DIR": "run", "XDG_DATA_HOME": "data", "XDG_CONFIG_HOME": "config",
              "RUNTIME_DIRECTORY": "systemd", duel_socket.ROOT_VARIABLE: "root"}
    for name, sub in places.items():
        env[name] = str(folder / sub)
        (folder / sub).mkdir(mode=0o700, parents=True, exist_ok=True)
    (folder / "root" / "tmp").mkdir(mode=0o700)
    return env


@contextmanager
def users_tables(env: dict[str, str]) -> Iterator[list[Path]]:
    """A live table's socket (answering `OWN_TABLE`) in every place `uno-showdown duel`
    looks when started in `env`, and in the runtime folder's usual place besides."""
    with pytest.MonkeyPatch.context() as patch:
        for name, value in env.items():
            patch.setenv(name, value)
        paths = duel_socket.client_socket_paths()
        paths.append(duel_socket._fixed(Path(f"/run/user/{os.getuid()}")) / "uno-showdown"
                     / duel_socket.SOCKET_NAME)
    with ExitStack() as stack:
        for path in paths:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            stack.enter_context(duel_socket.DuelSocketServer(
                path, lambda request: {"ok": OWN_TABLE}).start())
        yield paths


def run_pytest(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           *args], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=180)


def test_every_place_a_test_may_open_by_default_is_its_own(world: World,
                                                           _run_world: World) -> None:
    assert "RUNTIME_DIRECTORY" not in os.environ
    places = [*user_places(), duel_socket.service_socket_path(),
              *duel_socket.client_socket_paths()]
    assert [p for p in places if not p.is_relative_to(world.base)] == []
    assert world.base != _run_world.base


#: A test that sets nothing up: only its world keeps the user's tables out of its sight.
BARE = '''
from uno_showdown.commands.cli import main


def test_no_service_running_in_the_tests_world(capsys):
    assert main(["duel", "Ann", "Bob"]) == 2
    assert capsys.readouterr().err.startswith(
        "uno-showdown duel: no headless service is running here")
'''


def test_no_service_running_passes_beside_the_users_own_tables(world: World) -> None:
    """The failure of issue 37: a table of the user's own listens in every place the duel
    command looks, and a test that expects none still finds none."""
    env = users_environment(world.base / "user")
    planted = world.base / "planted"
    planted.mkdir()
    (planted / "pytest.ini").write_text("[pytest]\n")
    (planted / "test_bare.py").write_text(BARE)
    with users_tables(env) as paths:
        assert len(paths) == 5
        # outside the tests' worlds, the duel command finds the user's table
        done = subprocess.run([sys.executable, "-m", "uno_showdown", "duel"], env=env,
                              cwd=ROOT, capture_output=True, text=True, timeout=60)
        assert (done.returncode, done.stdout) == (0, f"{OWN_TABLE}\n"), done.stderr
        done = run_pytest(["-n", "1", "tests/uno_showdown/test_duel_command.py::"
                           "test_no_service_running_is_one_line"], env)
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr
        done = run_pytest(["-p", "tests.conftest", str(planted / "test_bare.py")], env)
        assert done.returncode == 0 and "1 passed" in done.stdout, done.stdout + done.stderr


#: Two tests: one writes the games file where it is by default (in its world: harmless),
#: one writes a file of its own into the user's data folder, which it is told of.
PLANTED = '''
import os
from pathlib import Path

from companion.store.games_file import default_db_path


def test_the_games_files_default_is_the_tests_own():
    Path(default_db_path()).parent.mkdir(parents=True)
    Path(default_db_path()).write_text("the test's own")


def test_writes_into_the_users_data_folder():
    target = Path(os.environ["PLANTED_TARGET"])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("planted")
'''


@pytest.mark.parametrize("workers", [[], ["-n", "1"]], ids=["one process", "xdist"])
def test_the_run_fails_if_a_test_wrote_into_the_users_data_folder(world: World,
                                                                  workers: list[str]) -> None:
    """One run of both planted tests: it fails naming the file written into the user's data
    folder (and the folder made for it), and nothing else: not the games file the other
    test wrote where it is by default, in its own world. (That a run which touches nothing
    of the user's passes, the test above shows, in one process and in a worker.)"""
    env = users_environment(world.base / "user")
    folder = Path(env["XDG_DATA_HOME"]) / "uno-showdown"
    target = folder / "planted.txt"
    env["PLANTED_TARGET"] = str(target)
    planted = world.base / "planted"
    planted.mkdir()
    (planted / "pytest.ini").write_text("[pytest]\n")
    (planted / "test_planted.py").write_text(PLANTED)

    done = run_pytest([*workers, "-p", "tests.conftest", str(planted / "test_planted.py")], env)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "2 passed" in done.stdout  # every test passed: the check failed the run
    assert "the run touched the user's own places" in done.stdout
    named = [line.strip() for line in done.stdout.splitlines()
             if line.startswith(("  made ", "  changed ", "  removed "))]
    assert f"made {target}" in named, done.stdout
    assert set(named) <= {f"made {target}", f"made {folder}"}, done.stdout
    assert not (folder / "games.sqlite3").exists()
