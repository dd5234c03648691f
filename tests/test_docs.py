"""The README and the guides under docs/: short where it must be, every link and picture there.

A newcomer follows links: each one must lead to a file (and a heading) that exists, each
screenshot a page shows must be in docs/screenshots/, and every screenshot there must be
shown by some page. The README stays a first page, not a manual.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
GUIDES = ["emulator", "scoring", "companion-screen", "raspberry-pi", "pico", "championship",
          "many-tables", "fairness", "command-line", "troubleshooting", "development"]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return {slug(m) for m in re.findall(r"^#+ (.+)$", text, re.M)}


def links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"`[^`]*`", "", text)
    return LINK.findall(text)


def test_the_readme_is_a_first_page() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    assert text.count("![") == 1  # one picture
    for command in ("make run", "make test"):
        assert command in text
    for guide in GUIDES:
        assert f"docs/{guide}.md" in text
    assert [line for line in text.splitlines() if re.match(r"^\d\. \*\*", line)] != []


def test_every_guide_is_there_and_in_the_index() -> None:
    index = (ROOT / "docs" / "README.md").read_text(encoding="utf-8")
    for guide in GUIDES:
        assert (ROOT / "docs" / f"{guide}.md").is_file()
        assert f"({guide}.md)" in index


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_link_and_picture_leads_somewhere(page: Path) -> None:
    for target in links(page):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        dest = (page.parent / path).resolve() if path else page
        assert dest.exists(), f"{page.name}: {target} does not exist"
        if anchor and dest.suffix == ".md":
            assert anchor in anchors(dest), f"{page.name}: no heading #{anchor} in {dest.name}"


def test_every_screenshot_is_shown_inline_somewhere() -> None:
    shown = {Path(t).name for page in PAGES for t in links(page) if t.endswith(".png")}
    kept = {p.name for p in (ROOT / "docs" / "screenshots").glob("*.png")}
    assert kept - shown == set()
