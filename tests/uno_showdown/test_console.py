"""The installed command's ending (`uno_showdown.commands.console`): the game commands end
without tearing the interpreter down, and a user sees no difference: every line printed
arrives, the exit status is the command's, a full disk is still reported, atexit handlers
still run; a command with a thread of its own still running, or one that drives a unit, a
screen or a network, exits the normal way.

Each case is a whole process (`python -m uno_showdown`, which is the console script's
`run`), with standard output a pipe, so what is printed sits in Python's buffer until the
end and is lost if the ending skips the flush.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from uno_showdown.commands import console

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path: Path, *argv: str, code: str | None = None,
        stdout: int | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    """`uno-showdown ARGV` as a new process (or `code`, with ARGV as its arguments)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env.update(PYTHONPATH=str(ROOT), XDG_DATA_HOME=str(tmp_path), LANG="C.UTF-8")
    start = [sys.executable, "-c", code] if code else [sys.executable, "-m", "uno_showdown"]
    return subprocess.run([*start, *argv], stdout=stdout, stderr=subprocess.PIPE, text=True,
                          env=env, cwd=tmp_path, timeout=120, check=False)


def new_game(tmp_path: Path) -> str:
    db = str(tmp_path / "games.db")
    done = run(tmp_path, "game", "new", "--db", db, "--edition", "showdown", "--method",
               "winner", "--players", "Ann,Bob,Cid")
    assert done.returncode == 0, done.stderr
    return db


def test_what_a_game_command_prints_and_writes_is_all_there(tmp_path: Path) -> None:
    db = new_game(tmp_path)
    for _ in range(3):
        done = run(tmp_path, "game", "round", "--db", db, "--winner", "Ann",
                   "--hand", "Bob: r9 g9", "--hand", "Cid: b1")
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().endswith("starts."), done.stdout
    shown = run(tmp_path, "game", "show", "--db", db)
    assert shown.returncode == 0, shown.stderr
    assert "rounds played: 3." in shown.stdout  # every round committed before the end
    assert shown.stdout.rstrip().splitlines()[-1].startswith("Next round:")  # and flushed
    listed = run(tmp_path, "game", "list", "--db", db)
    assert listed.returncode == 0 and "Ann, Bob, Cid" in listed.stdout, listed


def test_the_exit_status_and_the_refusals_are_the_commands(tmp_path: Path) -> None:
    helped = run(tmp_path, "--help")
    assert helped.returncode == 0 and helped.stdout.startswith("usage: uno-showdown")
    assert run(tmp_path, "--version").stdout.strip() == "uno-showdown 0.1.0"
    refused = run(tmp_path, "game", "show", "--db", str(tmp_path / "none" / "g.db"))
    assert refused.returncode == 2 and "there is no folder" in refused.stderr, refused
    typo = run(tmp_path, "game", "shwo")
    assert typo.returncode == 2 and "did you mean 'show'?" in typo.stderr, typo


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_full_disk_under_the_output_is_still_reported(tmp_path: Path) -> None:
    db = new_game(tmp_path)
    with open("/dev/full", "w") as full:
        done = run(tmp_path, "game", "show", "--db", db, stdout=full.fileno())
    assert done.returncode == 2 and "No space left on device" in done.stderr, done.stderr
    code = ("import sys\nfrom uno_showdown.commands.console import _quick_exit\n"
            "print('standings')\n_quick_exit(0)")
    with open("/dev/full", "w") as full:  # what only the last flush finds
        assert run(tmp_path, code=code, stdout=full.fileno()).returncode == 120


def test_atexit_handlers_run_after_the_output(tmp_path: Path) -> None:
    code = ("import atexit, sys\nfrom uno_showdown.commands.console import run\n"
            "atexit.register(print, 'atexit ran')\n"
            "sys.argv[1:] = ['points', '--edition', 'showdown', 'r5', 'gskip']\nrun()")
    done = run(tmp_path, code=code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "atexit ran", done.stdout


def test_a_thread_still_running_is_waited_for(tmp_path: Path) -> None:
    """A thread the command left running (none does today) finishes its work: the process
    ends the normal way, which waits for it."""
    # The thread starts its work once the command has printed (`main` returned): however
    # slow the machine, its line comes second, and only if the ending waits for it.
    code = ("import sys, threading, time\nfrom uno_showdown.commands import cli\n"
            "from uno_showdown.commands.console import run\n"
            "printed, command = threading.Event(), cli.main\n"
            "def main(*args, **kwargs):\n    status = command(*args, **kwargs)\n"
            "    printed.set()\n    return status\n"
            "cli.main = main\n"
            "def late():\n    printed.wait()\n    time.sleep(0.3)\n"
            "    print('thread done', flush=True)\n"
            "threading.Thread(target=late).start()\n"
            "sys.argv[1:] = ['points', '--edition', 'showdown', 'r5']\nrun()")
    done = run(tmp_path, code=code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "thread done", done.stdout
    assert "5" in done.stdout.splitlines()[-2], done.stdout


def test_which_commands_end_quickly() -> None:
    """The game commands, `points`, and no command at all; never a command that drives a
    unit, a screen, a broker or a board, whose libraries clean up at the normal exit."""
    quick = [["game", "show"], ["--lang", "ru", "game", "list"], ["points", "r5"],
             ["--help"], ["--version"], [], ["gaem"]]
    normal = [["run", "--device", "gpio"], ["companion"], ["emulator"], ["event", "serve"],
              ["table"], ["selftest"], ["firmware"], ["virtual-mcu"], ["duel"],
              ["--lang=ru", "run"]]
    assert all(console._ends_quickly(words) for words in quick)
    assert not any(console._ends_quickly(words) for words in normal)


@pytest.mark.parametrize("closed", ["stdout", "stderr"])
def test_a_stream_closed_at_start_ends_as_python_would(tmp_path: Path, closed: str) -> None:
    """`uno-showdown game round ... 2>&-` in a script: Python starts with that stream None;
    the ending skips it, and the status is the command's (a round saved says 0: a script
    that retried on failure would record it twice)."""
    db = new_game(tmp_path)
    code = (f"import sys\nsys.{closed} = None\n"
            "from uno_showdown.commands.console import run\nrun()")
    done = run(tmp_path, "game", "round", "--db", db, "--winner", "Ann", "--hand", "Bob: r1",
               "--hand", "Cid: r1", code=code)
    assert done.returncode == 0, done.stderr
    assert "rounds played: 1." in run(tmp_path, "game", "show", "--db", db).stdout
    for argv in (["--version"], ["--help"]):
        assert run(tmp_path, *argv, code=code).returncode == 0, argv


@pytest.mark.parametrize(("argv", "thresholds"), [
    (["points", "--edition", "showdown", "r5"], list(console.QUICK_THRESHOLDS)),
    (["replay", "--help"], None),  # a command that exits the normal way: Python's own
])
def test_the_collector_is_on_once_the_command_runs(tmp_path: Path, argv: list[str],
                                                   thresholds: list[int] | None) -> None:
    """Off while the modules load, on for the command: collecting seldom for one that ends
    quickly, as usual for the others (a long-running table must not grow without end)."""
    code = ("import atexit, gc, sys\nfrom uno_showdown.commands.console import run\n"
            "default = list(gc.get_threshold())\n"
            "atexit.register(lambda: print('gc', gc.isenabled(), list(gc.get_threshold()) "
            "== default, list(gc.get_threshold()), gc.get_freeze_count() > 1000))\n"
            f"sys.argv[1:] = {argv!r}\nrun()")
    done = run(tmp_path, code=code)
    assert done.returncode == 0, done.stderr
    line = done.stdout.splitlines()[-1].split(" ", 3)
    assert line[:2] == ["gc", "True"], done.stdout
    if thresholds is None:
        assert line[2] == "True", done.stdout
    else:
        assert line[3].startswith(str(thresholds)), done.stdout
    assert line[3].endswith("True"), done.stdout  # what the start made is frozen
