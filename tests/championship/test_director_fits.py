"""No label cut short on the director's screen: every tab, in every state of the
championship, in every language, at the Pi's 800×480, draws every word whole.

As `tests/companion/screen/test_no_cut_labels.py` does for the score keeper: `theme.watching_cuts`
collects every text drawn cut with "…"; a player's name may be cut (it is the player's
own), anything else cut is a label nobody can read. And every touch target there is at
least 44 px, what a finger needs.
"""

from __future__ import annotations

import pygame
import pytest

from championship.desk.operations import Championship
from championship.screen.screen import TABS, DirectorScreen
from companion.touch import theme
from showdown.contract.i18n import set_language
from tests.championship.conftest import SimClock
from tests.championship.test_cli import PLAYERS, make_state
from tests.championship.test_screen import STATES

LANGS = ["en", "ru", "uk", "hy"]
SIZE = (800, 480)


def cuts_in(db: str, clock: SimClock, state: str, lang: str) -> set[tuple[str, str, str]]:
    """Every (state, tab, words) cut in `state`, each tab drawn once at 800×480; a button
    smaller than 44 px counts as a cut too, its size for its words."""
    make_state(db, clock, state)
    set_language(lang)
    found: set[tuple[str, str, str]] = set()
    with Championship.open(db, clock=clock, lang=lang) as champ:
        screen = DirectorScreen(champ, SIZE)
        for name, _label, _key in TABS:
            screen.go(name)
            screen.update(16)
            with theme.watching_cuts() as cut:
                screen.draw(pygame.Surface(SIZE))
            found |= {(state, name, words) for words, _width in cut
                      if words not in PLAYERS}
            found |= {(state, name, f"{b.key} is {b.rect.size}") for b in screen.buttons()
                      if min(b.rect.size) < 44}
    return found


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("state", STATES)
def test_no_director_label_is_cut_nor_target_small_at_800x480(
        state: str, lang: str, db: str, clock: SimClock) -> None:
    pygame.font.init()
    found = cuts_in(db, clock, state, lang)
    assert not found, f"cut labels or small targets ({lang}): {sorted(found)}"
