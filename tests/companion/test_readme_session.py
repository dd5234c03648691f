"""The score-keeping walkthrough of docs/scoring.md, run command by command on a fresh file.

Each `$ uno-showdown ...` line in its "Keeping score from a terminal" section is run in
order and must print what the page shows under it (a `...` line stands for the rest, and
dates are whatever today is).
"""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

from uno_showdown.commands.cli import main

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"
SECTION = "## Keeping score from a terminal"
DATE = re.compile(r"\d{4}-\d\d-\d\d[ T]\d\d:\d\d(:\d\d\+00:00)?")


def session() -> list[tuple[str, list[str]]]:
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    steps: list[tuple[str, list[str]]] = []
    for block in re.findall(r"```\n(.*?)```", section, re.S):
        current: list[str] | None = None  # a block without a `$` line is not a session
        for line in block.splitlines():
            if line.startswith("$ uno-showdown "):
                current = []
                steps.append((line[2:], current))
            elif current is not None and not line.startswith("$"):
                current.append(line)
    return steps


def matches(expected: list[str], actual: list[str]) -> bool:
    expected = [DATE.sub("DATE", line).rstrip() for line in expected]
    actual = [DATE.sub("DATE", line).rstrip() for line in actual]
    if expected and expected[-1] == "...":
        return actual[: len(expected) - 1] == expected[:-1]
    return actual == expected


def hand_edited(db: Path, capsys) -> None:
    """What the guide's `edited.json` stands for: an export whose first round was
    changed by hand to a winner who is not at the table."""
    main(["game", "export", "--db", str(db)])
    game = json.loads(capsys.readouterr().out)
    game["rounds"][0]["winner"] = "Zed"
    Path("edited.json").write_text(json.dumps(game))


def test_the_walkthrough_prints_what_the_guide_says(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.chdir(tmp_path)
    db = tmp_path / "games.db"
    steps = session()
    assert len(steps) >= 10
    for command, expected in steps:
        argv = shlex.split(command)[1:]
        if argv[0] == "game":
            argv[2:2] = ["--db", str(db)]
        if "edited.json" in argv:
            hand_edited(db, capsys)
        main(argv)
        out, err = capsys.readouterr()
        actual = (out + err).splitlines()
        assert matches(expected, actual), f"{command}\n--- guide\n" + "\n".join(expected) + \
            "\n--- printed\n" + "\n".join(actual)
