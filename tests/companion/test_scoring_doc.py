"""docs/scoring.md's command-line examples, run in order on a fresh file, print what it shows."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

from uno_showdown.commands.cli import main

DOC = Path(__file__).resolve().parents[2] / "docs" / "scoring.md"


def session(doc: Path = DOC, section: str | None = None) -> list[tuple[str, list[str]]]:
    """The page's `$ uno-showdown ...` commands with the lines each prints (plain ``` blocks;
    a ```text block is an excerpt, not run), from the `## section` only when one is named."""
    steps: list[tuple[str, list[str]]] = []
    text = doc.read_text(encoding="utf-8")
    if section is not None:
        text = text.split(f"\n## {section}", 1)[1].split("\n## ", 1)[0]
    fences = re.findall(r"^```(\w*)\n(.*?)^```", text, re.S | re.M)
    for block in (body for kind, body in fences if not kind):
        current: list[str] | None = None
        for line in block.splitlines():
            if line.startswith("$ uno-showdown "):
                current = []
                steps.append((line[2:], current))
            elif current is not None:
                current.append(line)
    return steps


def run_session(doc: Path, tmp_path: Path, capsys, monkeypatch,
                section: str | None = None) -> int:
    """Run a page's commands in order on a fresh games file, each against what it shows;
    returns how many ran."""
    monkeypatch.setenv("LANGUAGE", "en")
    db = tmp_path / "games.db"
    steps = session(doc, section)
    for command, expected in steps:
        argv = shlex.split(command)[1:]
        argv[2:2] = ["--db", str(db)]
        main(argv)
        out, err = capsys.readouterr()
        actual = [line.rstrip() for line in (out + err).splitlines()]
        assert actual == [line.rstrip() for line in expected], (
            f"{command}\n--- docs\n" + "\n".join(expected) + "\n--- printed\n"
            + "\n".join(actual))
    return len(steps)


def test_the_scoring_page_prints_what_it_says(tmp_path, capsys, monkeypatch):
    # The variants; the terminal walkthrough further down is test_readme_session.py's.
    assert run_session(DOC, tmp_path, capsys, monkeypatch, "Variants") >= 8


def test_every_points_example_of_the_docs_prints_what_it_shows(capsys, monkeypatch):
    """`uno-showdown points` needs no games file, so its examples run wherever they are,
    in any section of any page (a blank's line under the total among them)."""
    monkeypatch.setenv("LANGUAGE", "en")
    ran = 0
    for doc in sorted(DOC.parent.glob("*.md")):
        for command, expected in session(doc):
            if not command.startswith("uno-showdown points "):
                continue
            main(shlex.split(command)[1:])
            out, err = capsys.readouterr()
            assert [line.rstrip() for line in (out + err).splitlines()] == [
                line.rstrip() for line in expected], (doc.name, command, out + err)
            ran += 1
    assert ran >= 2
