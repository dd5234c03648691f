"""docs/scoring.md's command-line examples, run in order on a fresh file, print what it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from showdown.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def session() -> list[tuple[str, list[str]]]:
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S):
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith("$ uno-showdown "):
                current = []
                steps.append((line[2:], current))
            elif current is not None:
                current.append(line)
    return steps


def test_the_scoring_page_prints_what_it_says(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "en")
    db = tmp_path / "games.db"
    steps = session()
    assert len(steps) >= 8
    for command, expected in steps:
        argv = shlex.split(command)[1:]
        argv[2:2] = ["--db", str(db)]
        main(argv)
        out, err = capsys.readouterr()
        actual = [line.rstrip() for line in (out + err).splitlines()]
        assert actual == [line.rstrip() for line in expected], (
            f"{command}\n--- docs\n" + "\n".join(expected) + "\n--- printed\n"
            + "\n".join(actual))
