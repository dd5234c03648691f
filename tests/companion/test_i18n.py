"""Choosing the language: `--lang`, the system locale, and a language with no catalog (the
catalogs themselves are checked in tests/test_translations.py)."""

from __future__ import annotations

import gettext

import pytest

from showdown.contract import i18n


def test_gettext_reads_the_catalogs_and_lang_switches_them():
    try:
        assert i18n.set_language("uk") == "uk"
        assert i18n._("Round {n} saved.").format(n=2) == "Раунд 2 збережено."
        assert i18n.set_language("hy-AM") == "hy"
        assert i18n._("Game over.") == "Խաղն ավարտված է։"
        with pytest.raises(i18n.LanguageError):
            i18n.set_language("fr")
        translation = gettext.translation(i18n.DOMAIN, i18n.LOCALE_DIR, languages=["ru"])
        assert translation.gettext("team") == "команда"
    finally:
        i18n.set_language("en")


def test_the_system_locale_chooses_the_language(monkeypatch):
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("LANG", "ru_RU.UTF-8")
    try:
        assert i18n.set_language(None) == "ru"
        monkeypatch.setenv("LANG", "de_DE.UTF-8")
        assert i18n.set_language(None) == "en"
    finally:
        i18n.set_language("en")
