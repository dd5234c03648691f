"""Every inference the sheets make is listed, with its clause, on docs/rule-sources.md, and
every rule of every sheet says whose word it is."""

from __future__ import annotations

from pathlib import Path

from companion.table.house_rules import HOUSE_RULES
from companion.table.rule_sources import SEEDS
from companion.table.seed_rules import DECK_RULES, SEED_TABLES, inferences

PAGE = Path(__file__).resolve().parents[2] / "docs" / "rule-sources.md"


def test_every_inference_of_the_sheets_is_in_the_docs() -> None:
    text = PAGE.read_text(encoding="utf-8")
    found = inferences(r.source for r in HOUSE_RULES.values() if r.source.is_inference)
    assert len(found) >= 4
    for source in found:
        assert source.inference is not None and source.inference in text, source.inference


def test_every_rule_of_every_sheet_names_a_seed_or_says_it_is_ours() -> None:
    for table in (*SEED_TABLES.values(), *DECK_RULES.values(), tuple(HOUSE_RULES.values())):
        for rule in table:
            source = rule.source
            assert source.is_inference or source.official or (
                source.seed in SEEDS and source.clause), rule.title


def test_the_blank_cards_worth_in_a_hand_is_listed_as_ours() -> None:
    from companion.table.house_rules import BLANK_WORTH_SOURCE

    assert BLANK_WORTH_SOURCE.inference is not None
    assert BLANK_WORTH_SOURCE.inference in PAGE.read_text(encoding="utf-8")
