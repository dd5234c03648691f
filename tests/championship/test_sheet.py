"""The results sheet: one self-contained page with the awards, the final, the qualifying
standings with the cut, the seating and the rules; it prints on A4 in a real browser."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from championship.desk.operations import Championship
from championship.desk.sheet import results_sheet
from showdown.contract.i18n import set_language
from tests.championship.conftest import SimClock
from tests.championship.test_cli import PLAYERS, make_state

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def sheet_of(db: str, clock: SimClock, lang: str = "en") -> str:
    with Championship.open(db, clock=clock, lang=lang) as champ:
        return results_sheet(champ.snapshot())


def test_the_sheet_holds_everything_and_needs_nothing_else(db: str, clock: SimClock) -> None:
    make_state(db, clock, "over")
    html = sheet_of(db, clock)
    assert html.startswith("<!DOCTYPE html>") and '<html lang="en">' in html
    assert not re.search(r"<script|<link|src=|url\(|https?://", html)  # self-contained
    for heading in ("Awards", "Final", "Qualifying standings", "Seating", "Rules"):
        assert f"<h2>{heading}</h2>" in html
    for name in PLAYERS:
        assert name in html
    assert html.count('class="cut"') == 0 or html.count('tr class="out cut"') == 0
    assert "Provisional" not in html and "@page { size: A4" in html


def test_a_sheet_before_the_end_says_it_is_provisional(db: str, clock: SimClock) -> None:
    make_state(db, clock, "running")
    html = sheet_of(db, clock)
    assert "Provisional: the final is not over" in html and "<h2>Final</h2>" not in html


def test_the_sheet_speaks_the_chosen_language(db: str, clock: SimClock) -> None:
    make_state(db, clock, "over")
    html = sheet_of(db, clock, "ru")
    set_language("en")
    assert '<html lang="ru">' in html and "Главный везунчик" in html and "Награды" in html


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed: it renders the sheet")
def test_the_sheet_prints_on_a4_in_chromium(db: str, clock: SimClock, tmp_path: Path) -> None:
    make_state(db, clock, "over")
    page = tmp_path / "results.html"
    page.write_text(sheet_of(db, clock), encoding="utf-8")
    pdf = tmp_path / "results.pdf"
    shot = tmp_path / "results.png"
    base = [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
            f"--user-data-dir={tmp_path / 'profile'}"]
    subprocess.run([*base, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", page.as_uri()],
                   check=True, capture_output=True, timeout=90)
    subprocess.run([*base, "--window-size=900,1200", f"--screenshot={shot}", page.as_uri()],
                   check=True, capture_output=True, timeout=90)
    data = pdf.read_bytes()
    pages = re.findall(rb"/Type\s*/Page[^s]", data)
    assert data.startswith(b"%PDF") and 1 <= len(pages) <= 2
    boxes = re.findall(rb"/MediaBox\s*\[0 0 ([\d.]+) ([\d.]+)\]", data)
    assert boxes and all(round(float(w)) == 595 and round(float(h)) == 842 for w, h in boxes)
    import pygame

    image = pygame.image.load(str(shot))
    colours = {image.get_at((x, y))[:3] for x in range(0, 900, 9) for y in range(0, 1200, 12)}
    assert len(colours) > 10  # a page was drawn, not a blank one
