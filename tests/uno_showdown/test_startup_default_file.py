"""`uno-showdown game list` typed at the Pi, as the guide has it (the games file found at
its default place, no `--db`), imports no platformdirs: on Linux the default place is
platformdirs' own rule, followed without its import, and still the same place."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import platformdirs
import pytest

from companion.store.games_file import APP_NAME, DB_NAME, default_db_path

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("data_home", [None, "", "   ", "/srv/elsewhere"])
def test_the_default_games_file_is_where_platformdirs_puts_it(data_home: str | None,
                                                              monkeypatch) -> None:
    if data_home is None:
        monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_DATA_HOME", data_home)
    expected = Path(platformdirs.user_data_dir(APP_NAME, appauthor=False)) / DB_NAME
    assert default_db_path() == expected


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the rule is Linux's")
def test_game_list_without_db_imports_no_platformdirs(tmp_path: Path) -> None:
    env = dict(os.environ, XDG_DATA_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    code = ("import sys\nfrom uno_showdown.commands.cli import main\n"
            "status = main(['game', 'list'])\n"
            "print(status, 'platformdirs' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60, check=False)
    assert done.stdout.split()[-2:] == ["0", "False"], done.stdout + done.stderr
    assert (tmp_path / APP_NAME / DB_NAME).exists()  # it did open the default file
