"""The championship speaks English, Russian, Ukrainian and Armenian: every string it marks
(the CLI, the director's screen, the results sheet) is in its catalog, translated with the
same placeholders, and the screen's font draws every letter of it."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from championship.i18n import DOMAIN, _catalog
from companion import theme
from companion.msgfmt import parse_po, po_path

PACKAGE = Path(__file__).resolve().parents[2] / "championship"


def marked() -> tuple[list[str], list[tuple[str, str]]]:
    """The strings passed to _() and N_(), and the (singular, plural) pairs to ngettext()."""
    singles: dict[str, None] = {}
    plurals: dict[tuple[str, str], None] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
                continue
            args = [a.value for a in node.args if isinstance(a, ast.Constant)]
            if node.func.id in ("_", "N_") and args:
                singles.setdefault(args[0], None)
            elif node.func.id == "ngettext" and len(args) >= 2:
                plurals.setdefault((args[0], args[1]), None)
    return list(singles), list(plurals)


def fields(text: str) -> set[str]:
    return {f for _, f, _s, _c in string.Formatter().parse(text) if f is not None}


SINGLES, PLURALS = marked()


@pytest.mark.parametrize("lang", ["en", "ru", "uk", "hy"])
def test_every_marked_string_is_in_the_catalog(lang: str) -> None:
    catalog = parse_po(po_path(lang, DOMAIN).read_text("utf-8"))
    assert [s for s in SINGLES if s not in catalog] == []
    assert [p for p in PLURALS if f"{p[0]}\0{p[1]}" not in catalog] == []
    assert len(SINGLES) > 200


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_every_string_is_translated_with_its_placeholders(lang: str) -> None:
    catalog = parse_po(po_path(lang, DOMAIN).read_text("utf-8"))
    for msgid in SINGLES:
        text = catalog[msgid]
        assert text, (lang, msgid)
        assert fields(text) == fields(msgid), (lang, msgid)
        words = re.sub(r"{\w+(!r)?}", "", msgid)  # placeholders are not words to translate
        assert text != msgid or not re.search(r"[a-z]{4}", words), (lang, msgid)
    forms = 2 if lang == "hy" else 3
    for singular, plural in PLURALS:
        translated = catalog[f"{singular}\0{plural}"].split("\0")
        assert len(translated) == forms and all(translated), (lang, singular)
        assert all(fields(t) <= fields(plural) for t in translated), (lang, singular)


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_the_screens_font_has_every_letter(lang: str) -> None:
    import pygame

    pygame.font.init()
    catalog = parse_po(po_path(lang, DOMAIN).read_text("utf-8"))
    chars = {ch for text in catalog.values() for ch in text if ch not in "\0\n"}
    for bold in (False, True):
        font = theme.font(20, bold)
        assert [ch for ch in sorted(chars) if font.metrics(ch)[0] is None] == []


def test_plurals_follow_each_language() -> None:
    ru = _catalog("ru")
    assert [ru.ngettext("{n} deal", "{n} deals", n).format(n=n) for n in (1, 3, 5, 21)] == [
        "1 раздача", "3 раздачи", "5 раздач", "21 раздача"]
