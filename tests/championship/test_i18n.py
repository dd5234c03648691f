"""The championship's words follow each language's plural forms (the catalogs themselves are
checked with every other domain's in tests/test_translations.py)."""

from __future__ import annotations

from championship.core.i18n import _catalog


def test_plurals_follow_each_language() -> None:
    ru = _catalog("ru")
    assert [ru.ngettext("{n} deal", "{n} deals", n).format(n=n) for n in (1, 3, 5, 21)] == [
        "1 раздача", "3 раздачи", "5 раздач", "21 раздача"]
