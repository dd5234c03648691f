"""Shared test set-up: no display or sound card needed, and the hardware-in-the-loop switch."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests import world as worlds

# Property tests: a few hundred examples each in every run; HYPOTHESIS_PROFILE=deep
# (`make test-deep`, run by CI) for a long hunt (tests that pin their own example count keep
# it; tests/profiles.py scales the long runs that are no property test).
settings.register_profile("default", max_examples=300, deadline=None)
settings.register_profile("deep", max_examples=5_000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

# Pygame must never try to open a real window or sound device in the suite.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


# Every test in a world of its own (tests/world.py): whatever it opens or starts by default
# (the games file, the duel log, a table's socket, `uno-showdown duel`'s search) stays in
# it, never in the user's folders or another test's. The run has one too, for what a
# module's or the session's fixtures start before any test's world exists.
@pytest.fixture(scope="session", autouse=True)
def _run_world() -> Iterator[worlds.World]:
    with pytest.MonkeyPatch.context() as patch:
        made = worlds.make_world(patch)
        yield made
    worlds.remove_world(made)


@pytest.fixture(autouse=True)
def world(_run_world: worlds.World, monkeypatch: pytest.MonkeyPatch) -> Iterator[worlds.World]:
    """This test's folders: $XDG_RUNTIME_DIR, $XDG_DATA_HOME, $XDG_CONFIG_HOME and
    $UNO_SHOWDOWN_SOCKET_ROOT point into it, $RUNTIME_DIRECTORY is unset."""
    made = worlds.make_world(monkeypatch)
    yield made
    worlds.remove_world(made)


#: The user's places and what was in them when the run began (kept by the process that
#: runs the session: pytest-xdist's controller, or the only process).
_PLACES = pytest.StashKey[list[Path]]()
_BEFORE = pytest.StashKey[dict[Path, worlds.Entry]]()


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session: pytest.Session) -> None:
    if hasattr(session.config, "workerinput"):  # a pytest-xdist worker: its controller checks
        return
    places = worlds.user_places()
    session.config.stash[_PLACES] = places
    session.config.stash[_BEFORE] = worlds.snapshot(places)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Fail the run if it made, changed or removed anything in the user's places."""
    if hasattr(session.config, "workerinput") or _BEFORE not in session.config.stash:
        return
    done = worlds.changes(session.config.stash[_BEFORE],
                          worlds.snapshot(session.config.stash[_PLACES]))
    if not done:
        return
    session.exitstatus = pytest.ExitCode.TESTS_FAILED
    shown = [*done[:20], *([f"and {len(done) - 20} more"] if len(done) > 20 else [])]
    message = ("the run touched the user's own places (a test must keep to its world, "
               "tests/world.py; the check cannot tell who wrote there, so a table of yours "
               "started, stopped or recording a duel or a round during the run shows here "
               "too):\n  " + "\n  ".join(shown))
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_sep("!", "the user's places", red=True)
        reporter.write_line(message, red=True)
    else:
        print(message)


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("uno-showdown hardware")
    group.addoption(
        "--hil-port",
        default=None,
        metavar="PORT",
        help="run the hardware-in-the-loop suite against a real board on PORT "
        "(default: the virtual microcontroller)",
    )
    group.addoption(
        "--hil-pico-emulator",
        action="store_true",
        default=False,
        help="run the hardware-in-the-loop suite against the emulated Pico (MicroPython's "
        "rp2 image on rp2040js, docs/pico.md) instead of the virtual microcontroller",
    )
    group.addoption(
        "--real-gpio",
        action="store_true",
        default=False,
        help="run the GPIO tests on the Pi's real pins instead of gpiozero's MockFactory",
    )


def hil_port_problem(port: str) -> str | None:
    """Why the board at `port` cannot be tested, in words a person can act on; None if it can.

    Checked once before any test runs, so a missing board is one line, not an error in
    every hardware-in-the-loop test.
    """
    import serial

    try:
        mode = os.stat(port).st_mode
    except FileNotFoundError:
        return ("there is no such port: plug the board in (`ls /dev/ttyACM*` lists the ports), "
                "or leave --hil-port out to test against the virtual board")
    except OSError as exc:
        return f"cannot look at it ({exc.strerror}): check the path"
    if not stat.S_ISCHR(mode):
        return "is not a serial port: give the board's device, e.g. /dev/ttyACM0"
    try:
        serial.Serial(port, 115_200, timeout=0, exclusive=True).close()
    except serial.SerialException as exc:
        cause = exc.__cause__ or exc.__context__ or exc
        errno = getattr(cause, "errno", None) or getattr(exc, "errno", None)
        if errno == 13:
            return ("permission denied: add yourself to the dialout group "
                    "(sudo usermod -aG dialout $USER) and log in again")
        if errno == 25 or "ioctl" in str(exc):
            return "is not a serial port: give the board's device, e.g. /dev/ttyACM0"
        if errno in (11, 16) or "lock" in str(exc).lower():
            return "is in use by another program: stop uno-showdown (or mpremote) first"
        return f"cannot be opened ({exc}): check the cable and the port"
    return None


def pytest_configure(config: pytest.Config) -> None:
    port = config.getoption("--hil-port")
    problem = hil_port_problem(port) if port else None
    if problem is not None:
        raise pytest.UsageError(f"--hil-port {port}: {problem}")


@pytest.fixture
def summary(request: pytest.FixtureRequest) -> Callable[[str, str], None]:
    """`summary(title, line)`: a line for the run's closing summary, under `title`.

    Kept on the test's report rather than printed, so that a figure measured in a worker
    process (pytest-xdist) still reaches the summary the person running the suite reads.
    """

    def say(title: str, line: str) -> None:
        request.node.user_properties.append(("summary", (title, line)))

    return say


#: The levels the summary counts apart, so a run says whether the firmware ran on them or
#: skipped (kept here, not in their folders' conftest files, which a pytest-xdist
#: controller never loads).
LEVELS = {"tests/micropython/": "MicroPython level (MicroPython 1.27, wasm)",
          "tests/pico/": "emulated-Pico level (MicroPython 1.28 rp2 on rp2040js)"}


def _level_counts(terminalreporter: pytest.TerminalReporter, folder: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for outcome in ("passed", "failed", "error", "skipped"):
        for report in terminalreporter.stats.get(outcome, []):
            nodeid = getattr(report, "nodeid", "")
            when = getattr(report, "when", "call")
            if not nodeid.startswith(folder) or when not in ("call", "setup"):
                continue
            if outcome == "passed" and when != "call":
                continue
            counts[outcome] = counts.get(outcome, 0) + 1
    return counts


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say how each firmware level went, then print the lines tests gave `summary`, grouped
    under their titles, in the order of their tests' ids (workers finish in any order)."""
    for folder, level in LEVELS.items():
        counts = _level_counts(terminalreporter, folder)
        if counts:
            text = ", ".join(f"{n} {outcome}" for outcome, n in counts.items())
            terminalreporter.write_line(f"{level}: {text}")
    lines: dict[str, list[tuple[str, str]]] = {}
    for reports in terminalreporter.stats.values():
        for report in reports:
            if getattr(report, "when", None) != "call":
                continue
            for key, value in getattr(report, "user_properties", ()):
                if key == "summary":
                    title, line = value
                    lines.setdefault(title, []).append((report.nodeid, line))
    for title, entries in lines.items():
        terminalreporter.write_line(title)
        for _nodeid, line in sorted(entries, key=lambda e: e[0]):
            terminalreporter.write_line(f"  {line}")


#: The files that take longest, longest first (measured with `--durations` and the
#: per-file totals of `--junitxml`, two whole runs under load). `make test` hands out whole
#: files (pytest-xdist's `--dist loadfile`) in the order collected (`--no-loadscope-reorder`:
#: otherwise files go by how many tests they hold, which put these among the last): so
#: the long files start first, and the many short ones fill in at the end, both workers
#: finishing together instead of one running a 30-second file alone. A file missing from
#: here runs after them (`pytest_collection_modifyitems`); tests/test_suite_order.py checks each
#: name here is a file of the suite.
LONGEST = (
    "tests/championship/tables/test_web_layout.py",
    "tests/test_hermetic.py",
    "tests/abuse/test_broker_restarts.py",
    "tests/championship/tables/test_faults.py",
    "tests/abuse/test_cli_fuzz.py",
    "tests/pico/test_duels.py",
    "tests/championship/tables/test_web.py",
    "tests/championship/test_kill.py",
    "tests/companion/test_kill.py",
    "tests/pico/test_safety.py",
    "tests/abuse/test_wire_decoders.py",
    "tests/championship/tables/test_cli.py",
    "tests/championship/tables/test_web_clock.py",
    "tests/test_layers.py",
    "tests/pico/test_heap.py",
    "tests/companion/screen/test_every_state.py",
    "tests/abuse/test_broker_sessions.py",
    "tests/championship/tables/test_one_agent.py",
    "tests/hil/test_early_press_heard.py",
    "tests/championship/tables/test_table_knows.py",
    "tests/championship/tables/test_security.py",
    "tests/uno_showdown/emulator/test_narrow_panel.py",
    "tests/abuse/test_serve_refusals.py",
    "tests/championship/tables/test_lateness.py",
    "tests/test_benchmarks.py",
    "tests/pico/test_ties.py",
    "tests/pico/test_install.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files of `LONGEST` first, in its order; then the rest as pytest-xdist would order
    them itself, the files with the most tests first. That also keeps apart the files of
    one folder, which collected order would put side by side on both workers at once: the
    virtual board's tests (tests/hil), two at a time beside a busy machine, missed the
    board's answers."""
    rank = {path: n for n, path in enumerate(LONGEST)}
    sizes: dict[str, int] = {}
    for item in items:
        path = item.nodeid.partition("::")[0]
        sizes[path] = sizes.get(path, 0) + 1
    items.sort(key=lambda item: (rank.get(path := item.nodeid.partition("::")[0], len(LONGEST)),
                                 -sizes[path]))
