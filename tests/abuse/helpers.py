"""What the hostile tests share: run the CLI in-process, and look at a games file byte by byte."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from uno_showdown.commands.cli import main


def cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """`uno-showdown ARGV` in this process: exit status, standard output, standard error."""
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def refused(result: tuple[int, str, str], *words: str) -> str:
    """Assert bad input was refused as the CLI promises: exit 2, one line, no traceback."""
    status, _out, err = result
    assert status == 2, result
    assert err.count("\n") == 1 and err.endswith("\n"), err
    assert "Traceback" not in err
    for word in words:
        assert word in err, err
    return err


def dump(db: Path) -> str:
    """Everything in a games file, as SQL: equal dumps mean nothing was written."""
    conn = sqlite3.connect(db)
    try:
        return "\n".join(conn.iterdump())
    finally:
        conn.close()
