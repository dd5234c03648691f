"""Text that does not fit its box: smaller first, then shortened with "…", never spilling."""

from __future__ import annotations

import pygame
import pytest

from companion.touch import theme
from companion.touch.widgets import two_lines


def test_text_shrinks_then_ends_in_an_ellipsis() -> None:
    pygame.font.init()
    assert theme.fit("Ann", 24, 200) == ("Ann", 24)  # room enough: untouched
    shown, size = theme.fit("Alexandra", 24, theme.font(20).size("Alexandra")[0])
    assert shown == "Alexandra" and 20 <= size < 24  # a little smaller, still whole
    shown, size = theme.fit("Maximilian Alexander", 24, 90)
    assert size == theme.MIN_TEXT_PX and shown.endswith("…")
    assert "Maximilian Alexander".startswith(shown[:-1].rstrip()) and len(shown) > 3
    assert theme.font(size).size(shown)[0] <= 90
    shown, size = theme.fit("Maximilian", 24, 90, min_size=18)  # a floor for names
    assert size == 18 and theme.font(18).size(shown)[0] <= 90
    assert theme.fit("Wide", 12, 3)[0] == ""  # no room at all: nothing, not a stray dot


def test_a_two_word_label_goes_on_two_lines_before_it_is_cut() -> None:
    pygame.font.init()
    assert two_lines("Winner collects", 17, 70) == ("Winner", "collects")
    assert two_lines("Winner collects", 17, 400) is None  # fits on one line
    assert two_lines("Championship", 17, 40) is None  # one word: cut, not split


def test_a_soft_hyphen_does_not_push_a_status_line_onto_two(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A translator's soft hyphen only marks where a word may break: a line that fits on one
    line drawn is one line, and it fits in two."""
    pygame.font.init()
    word = f"Պատմու{theme.SOFT_HYPHEN}թյուն"
    wide = theme.font(20).size(theme.unhyphenated(word))[0] + 10
    assert theme.fits_in_two(word, 20, wide)
    surface = pygame.Surface((wide + 20, 44))
    drawn: list[str] = []
    original = theme.text

    def text(surface: pygame.Surface, content: str, *args: object, **kwargs: object) -> object:
        drawn.append(content)
        return original(surface, content, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(theme, "text", text)
    theme.line_or_two(surface, word, 0, 22, wide, 20)
    assert drawn == [word]
