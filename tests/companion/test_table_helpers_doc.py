"""docs/table-helpers.md's command-line examples, run in order on a fresh file, print what it
shows; and every screenshot it shows is in the repository."""

from __future__ import annotations

import re
from pathlib import Path

from tests.companion.test_scoring_doc import run_session

DOC = Path(__file__).resolve().parents[2] / "docs" / "table-helpers.md"


def test_the_table_helpers_page_prints_what_it_says(tmp_path, capsys, monkeypatch):
    assert run_session(DOC, tmp_path, capsys, monkeypatch) >= 7


def test_every_screenshot_the_page_shows_exists():
    shown = re.findall(r"!\[[^\]]+\]\((screenshots/[^)]+)\)", DOC.read_text(encoding="utf-8"))
    assert len(shown) >= 9
    assert [s for s in shown if not (DOC.parent / s).is_file()] == []
