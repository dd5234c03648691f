"""What every seed-conformance test needs: the command line as a user types it, a games
file of its own, and a rule of a seed's table found by its title."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.table.seed_rules import SEED_TABLES, SheetRule
from uno_showdown.commands.cli import main


class Cli:
    """`uno-showdown` on one games file; each call gives (status, stdout, stderr)."""

    def __init__(self, db: Path, capsys: pytest.CaptureFixture[str]) -> None:
        self.db = str(db)
        self.capsys = capsys

    def __call__(self, *argv: str) -> tuple[int, str, str]:
        self.capsys.readouterr()
        status = main([argv[0], *argv[1:2], "--db", self.db, *argv[2:]]
                      if argv[0] in ("game", "event") else list(argv))
        out = self.capsys.readouterr()
        return status, out.out, out.err

    def ok(self, *argv: str) -> str:
        status, out, err = self(*argv)
        assert status == 0, err
        return out

    def refused(self, *argv: str) -> str:
        """A refusal: status 2, one line, nothing on standard output."""
        status, out, err = self(*argv)
        assert (status, out) == (2, ""), (status, out, err)
        assert err.count("\n") == 1, err
        return err


@pytest.fixture
def cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Cli:
    return Cli(tmp_path / "games.db", capsys)


def rule(seed: str, title: str) -> SheetRule:
    """The rule of seed `seed`'s table titled `title`."""
    found = [r for r in SEED_TABLES[seed] if r.title == title]
    assert len(found) == 1, (seed, title)
    return found[0]
