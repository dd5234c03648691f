"""Issue 21, finding 5: `table join --db` pointed at the director's own games file was
accepted (it made a game and sync tables in it), and two agents on one table knocked each
other off the broker every second, silently. A table is one file and one agent."""

from __future__ import annotations

from pathlib import Path

import pytest

from championship.broker.credentials import for_tables, write_credentials
from championship.store.ledger import Ledger
from championship.store.table_file import hold
from companion.store.games import Store
from tests.abuse.helpers import cli, dump, refused
from tests.championship.tables.conftest import make_event


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    db = tmp_path / "cup.db"
    make_event(str(db), 6, 2)
    with Store(db) as store:
        director, tables = Ledger(store).credentials(1, [1, 2])
    creds = tmp_path / "table-1.json"
    write_credentials(creds, for_tables(director, tables)[1])
    return db, creds


def _join(capsys: pytest.CaptureFixture[str], creds: Path, db: Path) -> tuple[int, str, str]:
    return cli(capsys, "table", "join", "--broker", "mqtt://127.0.0.1:1", "--event", "1",
               "--table", "1", "--credentials", str(creds), "--db", str(db), "--lang", "en")


def test_the_directors_file_is_refused(setup: tuple[Path, Path],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    db, creds = setup
    before = dump(db)
    refused(_join(capsys, creds, db), "the director's games file", "--db table1.db")
    assert dump(db) == before


def test_a_file_another_agent_holds_is_refused(setup: tuple[Path, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    _db, creds = setup
    table_db = tmp_path / "table1.db"
    held = hold(table_db)  # as a running `table join` holds it
    assert held is not None
    try:
        refused(_join(capsys, creds, table_db), "another `uno-showdown table join` is running")
        assert table_db.stat().st_size == 0  # nothing was written into it
    finally:
        import os

        os.close(held)


def test_a_missing_folder_is_not_made(setup: tuple[Path, Path], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    _db, creds = setup
    refused(_join(capsys, creds, tmp_path / "no" / "table1.db"), "cannot open the games file")
    assert not (tmp_path / "no").exists()
