"""House rules per game: which a table can choose, the checks, and the sheet in force."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.scoring import Rules, RulesError
from companion.table.house_rules import (
    DECK_RULES,
    HOUSE_RULES,
    REGULATION,
    check,
    offered,
    ordered,
    parse_house_rule,
    sheet,
    toggle,
)

#: The optional rules the classic rules list as "special rules, not obligatory" (their
#: scoring ones are scoring options and methods), and the other sources' optional rules.
CLASSIC_OPTIONAL = {"jump_in", "double_play", "seven_zero", "stacking", "silent_twos",
                    "silent_wilds", "swap_on_five", "uno_to_centre", "colour_rotation",
                    "blank_plus_ten", "reverse_bounce", "mistake_penalty"}


def keys(rules) -> set[str]:
    return {r.key for r in rules}


def test_every_optional_rule_of_the_rules_is_offered_to_its_decks() -> None:
    assert keys(offered("classic", "winner")) == CLASSIC_OPTIONAL | {"first_card_action"}
    assert keys(offered("showdown", "own")) == CLASSIC_OPTIONAL - {"blank_plus_ten"} | {
        "first_card_action"}
    assert keys(offered("mario-kart", "winner")) == CLASSIC_OPTIONAL - {"blank_plus_ten"}
    assert keys(offered("teams", "teams")) == (CLASSIC_OPTIONAL - {"blank_plus_ten"}) | {
        "last_draw_off"}
    assert set(HOUSE_RULES) == CLASSIC_OPTIONAL | {"first_card_action", "last_draw_off"}
    # a games file or an export from before the Teams assumption became the deck's rule
    assert check("teams", "teams", ["last_draw_counts"]) == frozenset()


def test_the_championship_regulation_allows_no_other_rule() -> None:
    assert offered("classic", "championship") == ()
    assert check("classic", "championship", []) == frozenset()
    with pytest.raises(RulesError, match=r"allows no other \(rule 2.4.8\): leave out jump_in"):
        check("classic", "championship", ["jump_in"])
    drawn = sheet("classic", "championship", [])
    assert drawn.regulation == REGULATION and not drawn.chosen and not drawn.not_chosen
    assert drawn.deck == ()  # the regulation words the basic rules for itself
    assert REGULATION[0].title.startswith("2.3")


def test_keys_are_typed_loosely_and_checked_strictly() -> None:
    assert parse_house_rule("Jump-In") == "jump_in"
    assert parse_house_rule(" seven zero ") == "seven_zero"
    with pytest.raises(RulesError, match="unknown house rule 'jumping'"):
        parse_house_rule("jumping")
    assert check("classic", "winner", ["stacking", "jump-in", "stacking"]) == {
        "stacking", "jump_in"}
    with pytest.raises(RulesError, match="double_play house rule needs jump_in"):
        check("classic", "winner", ["double_play"])
    with pytest.raises(RulesError, match="silent_twos and silent_wilds cannot both"):
        check("classic", "winner", ["silent_twos", "silent_wilds"])
    with pytest.raises(RulesError, match="blank_plus_ten house rule is not for the showdown "
                                         "deck: it is played with classic"):
        check("showdown", "winner", ["blank_plus_ten"])
    with pytest.raises(RulesError, match="not for the mario-kart deck"):
        check("mario-kart", "winner", ["first_card_action"])
    assert ordered({"stacking", "jump_in"}) == ("jump_in", "stacking")


def test_a_tap_brings_what_a_rule_needs_and_drops_what_it_excludes() -> None:
    chosen = toggle("classic", "winner", set(), "double_play")
    assert chosen == {"double_play", "jump_in"}
    assert toggle("classic", "winner", chosen, "jump_in") == set()  # double play needs it
    assert toggle("classic", "winner", {"silent_twos"}, "silent_wilds") == {"silent_wilds"}
    assert toggle("showdown", "winner", set(), "blank_plus_ten") == set()  # not offered
    assert toggle("classic", "championship", set(), "jump_in") == set()


def test_the_sheet_shows_the_deck_the_chosen_and_the_rest() -> None:
    drawn = sheet("showdown", "winner", ["stacking", "jump_in"])
    titles = [r.title for r in drawn.deck]
    assert titles[:4] == ["Showdown cards", "Wild Showdown", "The duel", "A showdown card last"]
    assert "Draw Two" not in titles  # stacking replaces "Draw Twos do not add up"
    assert [r.key for r in drawn.chosen] == ["jump_in", "stacking"]
    assert "seven_zero" in keys(drawn.not_chosen) and "jump_in" not in keys(drawn.not_chosen)
    plain = sheet("showdown", "winner", [])
    assert "Draw Two" in [r.title for r in plain.deck]
    kart = sheet("mario-kart", "winner", [])
    assert [r.title for r in kart.deck][:6] == [
        "Wild Item Box", "Mushroom (red)", "Banana peel (yellow)", "Green shell (green)",
        "Lightning (blue)", "Bob-omb (wild)"]
    assert set(DECK_RULES) == {"classic", "showdown", "mario-kart", "teams", "h2o"}


@pytest.mark.parametrize("option", ["lone_zero_50", "h2o"])
def test_the_championship_takes_no_scoring_option_either(
        option: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from uno_showdown.commands.cli import main

    db = tmp_path / "g.db"
    status = main(["game", "new", "--db", str(db), "--edition", "h2o", "--method",
                   "championship", "--option", option, "--players", "Ann,Bob"])
    err = capsys.readouterr().err
    assert status == 2 and err.count("\n") == 1
    assert f"allows no other (rule 2.4.8): leave out {option}" in err
    with pytest.raises(RulesError, match=r"rule 2.4.8"):
        Rules.make("championship", None, [option])
