"""Every subcommand, every option and argument, with values a hostile tester types.

Run in-process through `uno_showdown.commands.cli.main` (fast: about two thousand calls), the CLI
must
never let an exception out: it exits 0 (the value was fine) or 2 with exactly one line on
standard error. The few things that would otherwise start a table for good are cut short
right after every option was checked: the headless loop of `run`, the window of
`companion`, the board of `virtual-mcu`, the self-test's minute of blinking, and the duel
count of `simulate`. A handful of subprocess runs check the real exit status and that no
traceback reaches a terminal.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.app import CompanionApp
from tests.championship.tables.conftest import free_port
from uno_showdown.commands import cli
from uno_showdown.commands.cli import build_parser, main

#: What a hostile tester types where a value goes: empty, blank, signs, not-a-number,
#: infinities, absurd sizes, other bases and separators, Unicode digits, NUL and escape
#: sequences, the CLI's own separators, devices and folders for file options, a
#: direction override, and ten thousand characters.
HOSTILE = [
    "", " ", "-1", "0", "nan", "-inf", "1e308", "9" * 40, "0x1F", "1_0", "²", "١٢",
    "\x00", "\x1b[2J", "a:b,c+d", "/dev/zero", "/dev/full", "/dev/null", "/", ".",
    "\u202egnp", "x" * 10_000, "--", "-", "two\nlines",
]

#: Each subcommand with the arguments that make it valid (options, then positionals by
#: name); `{db}` and friends are filled in per test (`{port}`: one nothing listens on, for
#: `event serve --listen`, which checks it is free). A new subcommand belongs here.
COMMANDS: dict[str, tuple[list[str], dict[str, str]]] = {
    "simulate": ([], {}),
    "replay": ([], {"file": "{log}"}),
    "run/gpio": (["--device", "gpio", "--headless", "--db", "{db}", "--duel-log",
                  "{duel_log}"], {}),
    "run/serial": (["--device", "serial", "--headless", "--db", "{db}", "--duel-log",
                    "{duel_log}"], {}),
    "emulator": (["--db", "{db}", "--duel-log", "{duel_log}"], {}),
    "selftest": (["--device", "gpio", "--echo-seconds", "0"], {}),
    "virtual-mcu": ([], {}),
    "duel": (["--socket", "{socket}", "--cards", "2"], {"players": "Ann"}),
    "game new": (["--db", "{db}", "--edition", "classic", "--method", "winner",
                  "--players", "Ann,Bob"], {}),
    "game round": (["--db", "{db}", "--winner", "Ann", "--points", "Bob: 3"], {}),
    "game edit": (["--db", "{db}", "--winner", "Ann", "--points", "Bob: 4"], {"number": "1"}),
    "game show": (["--db", "{db}", "--rounds"], {}),
    "game duels": (["--db", "{db}", "--recover-from", "{log}"], {}),
    "game list": (["--db", "{db}"], {}),
    "game undo": (["--db", "{db}"], {}),
    "game redo": (["--db", "{db}"], {}),
    "game rename": (["--db", "{db}"], {"old": "Bob", "new": "Bob"}),
    "game join": (["--db", "{db}"], {"name": "Dan"}),
    "game export": (["--db", "{db}", "--output", "{export}"], {}),
    "game import": (["--db", "{db}"], {"file": "{game_json}"}),
    "game house-rules": (["--edition", "classic", "--method", "winner"], {}),
    "game rules": (["--db", "{db}"], {}),
    "game direction": (["--db", "{db}"], {"direction": "reverse"}),
    "game first-card": (["--db", "{db}"], {"card": "r5"}),
    "game item": (["--db", "{db}"], {"player": "Ann", "colour": "red"}),
    "points": (["--edition", "classic"], {"cards": "r5"}),
    "companion": (["--db", "{db}"], {}),
    "event new": (["--db", "{db}", "--tables", "2"], {"name": "Cup"}),
    "event set": (["--db", "{db}", "--tables", "3"], {}),
    "event list": (["--db", "{db}"], {}),
    "event show": (["--db", "{db}"], {}),
    "event register": (["--db", "{db}"], {"names": "Zoe"}),
    "event withdraw": (["--db", "{db}"], {"number": "8"}),
    "event draw": (["--db", "{db}", "--seed", "1"], {}),
    "event start": (["--db", "{db}"], {}),
    "event pause": (["--db", "{db}"], {}),
    "event resume": (["--db", "{db}"], {}),
    "event end": (["--db", "{db}"], {}),
    "event done": (["--db", "{db}", "--table", "1"], {}),
    "event standings": (["--db", "{db}"], {}),
    "event final": (["--db", "{db}"], {}),
    "event results": (["--db", "{db}", "--html", "{sheet}"], {}),
    "event screen": (["--db", "{db}"], {}),
    "event cards": (["--db", "{db}", "--html", "{sheet}"], {}),
    "event deals": (["--db", "{db}", "--table", "1"], {}),
    "event void": (["--db", "{db}", "--table", "1", "--deal", "g1:1", "--why", "a miscount"],
                   {}),
    "event restore": (["--db", "{db}", "--table", "1", "--deal", "g1:1", "--why",
                       "counted after all"], {}),
    "event serve": (["--db", "{db}", "--no-web", "--credentials-dir", "{creds}", "--listen",
                     "127.0.0.1:{port}"], {}),
    "table join": (["--db", "{table_db}", "--broker", "mqtt://127.0.0.1:1883", "--event", "1",
                    "--table", "1", "--credentials", "{creds}/table-1.json"], {}),
    "table status": (["--db", "{table_db}"], {}),
    "firmware install": (["--dry-run"], {}),
    "firmware version": ([], {}),
}
#: Event commands whose valid arguments may still be refused (exit 2) by the championship's
#: state at that moment: calling time before a start, a final before the results.
STATEFUL = {"event set", "event register", "event withdraw", "event draw", "event start",
            "event pause", "event resume", "event end", "event done", "event final",
            "event void", "event restore",  # ... or the table has no such deal yet ...
            "table join", "table status",  # ... or the credentials are of a newer event ...
            "firmware version",  # ... or no board is plugged in
            "game item",  # ... or the game's deck has no Wild Item Box
            "duel"}  # ... or no table is running to be told



def leaf_parsers() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand's parser, named as COMMANDS names them (`game round`)."""
    out: dict[str, argparse.ArgumentParser] = {}

    def walk(parser: argparse.ArgumentParser, prefix: str) -> None:
        subs = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
        if not subs:
            out[prefix] = parser
        for action in subs:
            for name, child in action.choices.items():
                walk(child, f"{prefix} {name}".strip())

    for name in cli.COMMANDS:  # the CLI builds only the parser of the command it runs
        top = build_parser([name])
        [subs] = [a for a in top._actions if isinstance(a, argparse._SubParsersAction)]
        walk(subs.choices[name], name)
    return out


@functools.cache
def _parser_for(command: str) -> argparse.ArgumentParser:
    return build_parser([command] if command else [])


def cached_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """`build_parser`, one per command for the whole test: building it is most of an
    in-process call's time, and parsing does not change it."""
    args = list(sys.argv[1:] if argv is None else argv)
    return _parser_for(args[0] if args and args[0] in cli.COMMANDS else "")


PARSERS = leaf_parsers()


def valued_actions(command: str) -> list[argparse.Action]:
    """The options and positionals of `command` that take a value."""
    parser = PARSERS[command.split("/")[0]]
    return [a for a in parser._actions if a.nargs != 0 and not isinstance(a, argparse._HelpAction)]


#: Options every `game` subcommand shares: the same code opens the file and the game for
#: all of them, so they are fuzzed through a few commands, not through all twelve.
SHARED = {"--db", "--lang", "--game", "--event"}
SHARED_FUZZED_IN = {"game show", "game new", "game import", "points", "run/gpio", "companion",
                    "emulator", "event show", "event register", "event start"}


def target_of(action: argparse.Action) -> str:
    return action.option_strings[0] if action.option_strings else action.dest


CASES = [(command, target_of(action))
         for command in COMMANDS for action in valued_actions(command)
         if target_of(action) not in SHARED or command in SHARED_FUZZED_IN]


def test_every_subcommand_is_fuzzed() -> None:
    fuzzed = {c.split("/")[0] for c in COMMANDS}
    missing = sorted(set(PARSERS) - fuzzed)
    assert not missing, f"add {missing} to COMMANDS in {__file__}, with valid arguments"


class _Started(Exception):
    """Raised where a command that passed every check would start running for good."""


def _refuse_to_serve(self: object, *args: object, **kwargs: object) -> None:
    raise _Started


def _cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """What would run for good is stopped right after every option was checked."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    monkeypatch.setattr("uno_showdown.commands.cli.build_parser", cached_parser)
    monkeypatch.setattr("uno_showdown.commands.run.run_headless", lambda *a, **k: 0)
    monkeypatch.setattr("companion.screen.screen.run_companion", lambda *a, **k: 0)
    monkeypatch.setattr("championship.screen.screen.run_director", lambda *a, **k: 0)
    monkeypatch.setattr("hardware.gpio_selftest.run_selftest", lambda *a, **k: 0)
    for serving in ("championship.desk.serve.Served.start",  # the broker and the web page
                    "championship.desk.table_agent.TableAgent.start",  # a table's link to it
                    "firmware_host.virtual.mcu.VirtualMCU.start"):  # the board's pty
        monkeypatch.setattr(serving, _refuse_to_serve)
    # The broker never starts here, so its password file needs no argon2 hashes (a quarter
    # of a second each, three for every `event serve`).
    monkeypatch.setattr("championship.broker.embedded.amqtt_password_file",
                        lambda users: "")
    # the command imports it when it runs
    import uno_showdown.commands.simulation as simulation

    real = simulation.simulate
    monkeypatch.setattr(simulation, "simulate",
                        lambda duels, *a, **k: real(min(duels, 3), *a, **k))


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Made once: a games file with one game of one round and a drawn championship, the
    tables' credentials, a valid duel log and an exported game."""
    folder = tmp_path_factory.mktemp("place")
    with pytest.MonkeyPatch.context() as monkeypatch:
        _cut_short(monkeypatch)
        db = folder / "games.db"
        with CompanionApp.open(db, lang="en") as app:
            app.new_game("classic", "winner", ["Ann", "Bob", "Cid"])
            app.record_round("Ann", points={"Bob": 1, "Cid": 2})
            (folder / "game.json").write_text(app.export("json"), encoding="utf-8")
        for argv in (["event", "new", "--db", str(db), "--tables", "2", "Cup"],
                     ["event", "register", "--db", str(db), *(f"P{i}" for i in range(8))],
                     ["event", "draw", "--db", str(db), "--seed", "1"]):
            with contextlib.redirect_stdout(io.StringIO()), \
                    contextlib.redirect_stderr(io.StringIO()):
                assert main(argv) == 0
        # `event serve` writes each table's credentials file, then would start the broker
        with contextlib.suppress(_Started), contextlib.redirect_stdout(io.StringIO()):
            main(["event", "serve", "--db", str(db), "--no-web", "--listen",
                  f"127.0.0.1:{free_port()}", "--credentials-dir",
                  str(folder / "credentials")])
    assert (folder / "credentials" / "table-1.json").is_file()
    (folder / "duels.jsonl").write_text(
        '{"t_us": 0, "input": "load", "challenger": "left", "opponent": "right", "cards": 2}\n'
        '{"t_us": 1000, "input": "start", "countdown_us": 3000000}\n'
        '{"t_us": 3150000, "input": "press", "side": "right"}\n', encoding="utf-8")
    return folder


@pytest.fixture
def place(template: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
          ) -> Iterator[dict[str, str]]:
    """A fresh copy of the template as the working directory (relative hostile paths land
    there), the long-running parts cut short, the signal handlers `run` installs put back."""
    folder = tmp_path / "place"
    shutil.copytree(template, folder)
    monkeypatch.chdir(folder)
    _cut_short(monkeypatch)
    factory = MockFactory(pin_class=MockPWMPin)
    monkeypatch.setattr(Device, "pin_factory", factory)
    handlers = {s: signal.getsignal(s) for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)}
    yield {"db": str(folder / "games.db"), "log": str(folder / "duels.jsonl"),
           "duel_log": str(folder / "table.jsonl"), "export": str(folder / "out.json"),
           "game_json": str(folder / "game.json"), "sheet": str(folder / "sheet.html"),
           "creds": str(folder / "credentials"), "table_db": str(folder / "table.db"),
           "socket": str(folder / "no-table.sock"),
           # taken when the test runs, not when the file was collected: by then (a whole
           # file's tests later) a broker of another test may listen there, and `serve`
           # refuses a port in use before it writes anything
           "port": str(free_port())}
    for signum, handler in handlers.items():
        signal.signal(signum, handler)
    factory.reset()


def call(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str]:
    """Run the CLI in-process: its status and standard error; an escaping exception fails."""
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse refusing an option
        status = int(exc.code or 0)
    except _Started:
        status = 0
    return status, capsys.readouterr().err


@pytest.mark.parametrize(("command", "target"), CASES)
def test_hostile_values_get_one_line_and_exit_2_or_are_taken(
        capsys: pytest.CaptureFixture[str], place: dict[str, str], command: str,
        target: str) -> None:
    options, positionals = COMMANDS[command]
    options = [o.format(**place) for o in options]
    for value in HOSTILE:
        argv = command.split("/")[0].split()
        if target.startswith("-"):
            # `--x=value`, so a value that starts with "-" is still this option's value
            argv += [o for i, o in enumerate(options)
                     if o != target and (i == 0 or options[i - 1] != target)]
            argv.append(f"{target}={value}")
            if positionals:  # `--`: a positional that starts with "-" is still one
                argv += ["--", *(v.format(**place) for v in positionals.values())]
        else:
            argv += [*options, "--"]
            argv += [value if name == target else v.format(**place)
                     for name, v in positionals.items()]
        status, err = call(capsys, argv)
        shown = f"{argv[:6]!r}"[:300]
        assert "Traceback" not in err, (shown, err[-2000:])
        assert status in (0, 2), (shown, status, err[-500:])
        if status == 2:
            assert err.count("\n") == 1 and err.endswith("\n"), (shown, err[:2000])


def test_values_that_cannot_mean_anything_are_refused(
        capsys: pytest.CaptureFixture[str], place: dict[str, str]) -> None:
    """The numbers of every setting: nan, inf, absurd sizes each refused, naming the range."""
    cases = [
        ["simulate", "--jitter-ms=1e308"], ["simulate", "--jitter-ms=nan"],
        ["simulate", "--left-ms=inf"], ["simulate", "--duels=1000001"],
        ["simulate", "--cards=21"], ["simulate", "--early-rate=nan"],
        ["simulate", "--tie-window-us=999999999"], ["replay", "--settle-us=-1", place["log"]],
        ["run", "--device=gpio", "--headless", "--cards=" + "9" * 30],
        ["selftest", "--echo-seconds=nan"], ["virtual-mcu", "--start-ticks=-1"],
        ["game", "new", "--db", place["db"], "--edition=classic", "--method=winner",
         "--players=Ann,Bob", "--target=" + "9" * 30],
        ["game", "join", "--db", place["db"], "Dan", "--seat=0"],
        ["emulator", "--size=99999x99999"], ["companion", "--size=99999x99999"],
    ]
    for argv in cases:
        status, err = call(capsys, argv)
        assert status == 2 and err.count("\n") == 1, (argv, err)


def run_cli(*argv: str, stdout: int | None = subprocess.PIPE, cwd: Path | None = None
            ) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "PYTHONUTF8": "1"}
    return subprocess.run([sys.executable, "-m", "uno_showdown", *argv], stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=60, env=env, cwd=cwd)


def test_the_real_exit_status_is_2_with_one_line_and_no_traceback(tmp_path: Path) -> None:
    """What a shell sees, for the cases that once read without end or printed a traceback."""
    deep = tmp_path / "deep.jsonl"
    deep.write_text("[" * 50_000 + "\n", encoding="utf-8")
    nan_pins = tmp_path / "nan.toml"
    nan_pins.write_text("[launcher]\nforward = 5\nbackward = 6\nmax_on_ms = nan\n")
    corrupt = tmp_path / "corrupt.db"
    corrupt.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    runs = [
        run_cli("game", "import", "--db", str(tmp_path / "g.db"), "/dev/zero"),
        run_cli("replay", "/dev/zero"),
        run_cli("replay", str(deep)),
        run_cli("selftest", "--pins", "/dev/zero"),
        run_cli("selftest", "--pins", str(nan_pins)),
        run_cli("simulate", "--jitter-ms", "1e308"),
        run_cli("game", "list", "--db", str(corrupt)),
        run_cli("simulate", "--duels", "x"),
    ]
    with open("/dev/full", "w") as full:
        assert run_cli("game", "new", "--db", str(tmp_path / "g.db"), "--edition", "classic",
                       "--method", "lazy", "--players", "Ann,Bob").returncode == 0
        runs.append(run_cli("game", "export", "--db", str(tmp_path / "g.db"), stdout=full.fileno()))
    for done in runs:
        assert done.returncode == 2, (done.args, done.stderr)
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr, done.stderr
    assert "No space left on device" in runs[-1].stderr


def test_a_full_disk_mid_command_is_one_line(tmp_path: Path) -> None:
    """`simulate --log /dev/full`: the log cannot be written; said once, exit 2."""
    done = run_cli("simulate", "--duels", "3", "--log", "/dev/full")
    assert done.returncode == 2 and done.stderr.count("\n") == 1
    assert "cannot write the duel log /dev/full" in done.stderr


def test_the_fuzz_reaches_each_command_past_its_parser(
        capsys: pytest.CaptureFixture[str], place: dict[str, str]) -> None:
    """The valid arguments above really are valid: each command runs (exit 0) with them."""
    for command, (options, positionals) in COMMANDS.items():
        if command == "emulator":
            continue  # a window or nothing: without a display it says so (exit 2)
        argv = [*command.split("/")[0].split(), *(o.format(**place) for o in options)]
        if positionals:
            argv += ["--", *(v.format(**place) for v in positionals.values())]
        status, err = call(capsys, argv)
        assert "--help)" not in err, (command, err)  # past the parser: the command ran
        assert status == 0 or command in STATEFUL, (command, err)


def test_what_the_user_typed_cannot_break_the_line_or_the_terminal(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A file name with a newline or an escape sequence is shown escaped in the error."""
    folder = tmp_path / "a\nb\x1b[2J"
    folder.mkdir()
    status, err = call(capsys, ["game", "list", "--db", str(folder)])
    assert status == 2 and err.count("\n") == 1 and "\x1b" not in err
    assert "a\\nb\\x1b[2J" in err
