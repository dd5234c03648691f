"""Every command an `event` command prints (a hint, a refusal, a held deal's decision) runs
as printed: with the games file and the event it was given, and with the tables it names,
not a placeholder to fill in."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from tests.championship.conftest import SimClock, run
from tests.championship.test_cli import REFUSALS, make_state

#: What no command can know for the organiser: a new event's name and size.
TEMPLATES = {"uno-showdown event new NAME --tables N"}
#: What a command says when it could not even be run as typed.
NOT_RUN = ("usage:", "the following arguments are required", "unrecognized arguments",
           "invalid choice", "there is no games file", "there is no event ")


def printed(text: str) -> list[str]:
    return re.findall(r"`(uno-showdown [^`]*)`", text)


def runs_as_printed(capsys: pytest.CaptureFixture[str], command: str, db: str) -> None:
    """Run a printed command on the file as it is now, then put the file back."""
    saved = {p: p.read_bytes() for p in Path(db).parent.glob(Path(db).name + "*")}
    words = shlex.split(command)
    assert words[0] == "uno-showdown"
    try:
        status, _out, err = run(capsys, *words[1:])
    except SystemExit as done:  # `--help`: printed, and ended as argparse ends it
        status, err = int(done.code or 0), capsys.readouterr().err
    for p, data in saved.items():
        p.write_bytes(data)
    assert status in (0, 2), (command, err)
    assert not any(words in err for words in NOT_RUN), (command, err)


def test_every_command_a_refusal_prints_runs_as_printed(
        tmp_path: Path, clock: SimClock, capsys: pytest.CaptureFixture[str]) -> None:
    seen: set[str] = set()
    states: dict[str, str] = {}
    for state, argv, _words in REFUSALS:
        db = str(tmp_path / f"{state}.db")
        if state not in states:
            make_state(db, clock, state)
            states[state] = db
        _status, out, err = run(capsys, "event", *argv, "--db", db)
        for command in printed(out + err):
            if command.split(" --db ")[0] in TEMPLATES:
                continue
            assert not re.search(r"\b(N|TEXT|ID|PATH)\b", command), command
            assert f"--db {db}" in command, command
            if (state, command) not in seen:
                seen.add((state, command))  # type: ignore[arg-type]
                runs_as_printed(capsys, command, db)
    assert len(seen) >= 8
