"""The docs' pictures are the program's own: `make screenshots` (tools/screenshots.py) draws
every one the docs show, and every view of the screen has one."""

from __future__ import annotations

import re
from pathlib import Path

from tests.companion.screen.test_every_state import PAGES
from tools import page_screenshots, screenshots

ROOT = Path(__file__).resolve().parent.parent
PICTURE = re.compile(r"!\[[^\]]*\]\((?:docs/)?screenshots/([^)\s]+\.png)\)")


def shown_in_the_docs() -> set[str]:
    pages = [ROOT / "README.md", *(ROOT / "docs").glob("*.md")]
    return {name for page in pages for name in PICTURE.findall(page.read_text("utf-8"))}


def drawn() -> set[str]:
    return ({s.name for s in screenshots.SHOTS} | set(screenshots.EMULATOR_SHOTS)
            | set(screenshots.EMULATOR_LANGUAGE_SHOTS)
            | set(page_screenshots.NAMES))


def test_every_picture_the_docs_show_is_drawn_by_the_project() -> None:
    missing = shown_in_the_docs() - drawn()
    assert not missing, f"pictures no code draws: {sorted(missing)}"


def test_every_picture_drawn_is_in_the_docs_and_in_the_repository() -> None:
    for name in drawn():
        assert name in shown_in_the_docs(), name
        assert (ROOT / "docs" / "screenshots" / name).is_file(), name


def test_every_view_of_the_screen_has_a_picture() -> None:
    pictured = {s.view for s in screenshots.SHOTS}
    bare = {p.name for p in PAGES} - pictured - screenshots.VIEWS_WITHOUT_A_PICTURE
    assert not bare, f"views without a picture: {sorted(bare)}"
