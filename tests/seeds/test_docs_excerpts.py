"""The sheets the docs quote are the sheets the program prints: every excerpt of `game rules`
in docs/rule-sources.md and docs/table-helpers.md (a ```text block, lines cut with "...")
is found, line by line and with the same source in brackets, in what `game rules` prints for
that page's game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.seeds.conftest import Cli

DOCS = Path(__file__).resolve().parents[2] / "docs"

#: Each page's excerpt and the game it shows (the page says which deck and house rules).
PAGES = {
    "rule-sources.md": ("--edition", "showdown", "--method", "winner", "--players", "Ann,Bob"),
    "table-helpers.md": ("--edition", "showdown", "--method", "winner", "--players",
                         "Ann,Bob,Cid,Dan", "--house-rule", "jump-in", "--house-rule",
                         "stacking"),
}


def excerpt(page: str) -> list[str]:
    text = (DOCS / page).read_text(encoding="utf-8")
    blocks = re.findall(r"^```text\n\$ uno-showdown game rules\n(.*?)^```", text, re.S | re.M)
    assert len(blocks) == 1, page
    return [line for line in blocks[0].splitlines() if line.strip() not in ("", "...")]


@pytest.mark.parametrize("page", sorted(PAGES))
def test_every_line_of_the_sheets_excerpt_is_printed_with_its_source(cli: Cli,
                                                                     page: str) -> None:
    cli.ok("game", "new", *PAGES[page])
    printed = cli.ok("game", "rules").splitlines()
    for line in excerpt(page):
        head, cut, tail = line.partition(" ... ")
        if not cut:  # a whole line, or one cut at its end ("Not in force: A, B, ...")
            head, tail = line.removesuffix("...").rstrip(), ""
            if not line.endswith("..."):
                assert line in printed, (page, line)
                continue
        assert any(p.startswith(head) and p.endswith(tail) for p in printed), (page, line)
