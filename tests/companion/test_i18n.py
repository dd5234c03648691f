"""Catalogs: every core string is translated into Russian, Ukrainian and Armenian, and the
committed `.mo` files are exactly what their `.po` files compile to."""

from __future__ import annotations

import gettext
import io
import re
import string

import pytest

from companion import i18n
from companion.msgfmt import DOMAINS, PACKAGE, SOURCES, compile_mo, extract, parse_po, po_path

STRINGS = extract([PACKAGE / name for name in SOURCES])


def fields(text: str) -> set[str]:
    return {f for _, f, spec, conv in string.Formatter().parse(text) if f is not None}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_committed_mo_is_the_compiled_po(lang, domain):
    po = po_path(lang, domain)
    assert po.with_suffix(".mo").read_bytes() == compile_mo(parse_po(po.read_text("utf-8"))), (
        "run `python -m companion.msgfmt` after editing a .po file"
    )


def test_an_untranslated_plural_falls_back_to_english():
    po = po_path("en", "companion_screen")
    catalog = gettext.GNUTranslations(io.BytesIO(compile_mo(parse_po(po.read_text("utf-8")))))
    assert [catalog.ngettext("{n} win", "{n} wins", n) for n in (1, 2)] == ["{n} win", "{n} wins"]


def test_plural_forms_compile_and_follow_each_language():
    po = po_path("ru", "companion_screen")
    catalog = gettext.GNUTranslations(io.BytesIO(compile_mo(parse_po(po.read_text("utf-8")))))
    assert [catalog.ngettext("{n} win", "{n} wins", n) for n in (1, 3, 5, 21)] == [
        "{n} победа", "{n} победы", "{n} побед", "{n} победа"]


@pytest.mark.parametrize("lang", ["ru", "uk", "hy"])
def test_every_string_is_translated_with_the_same_placeholders(lang):
    catalog = parse_po(po_path(lang).read_text("utf-8"))
    missing = [s for s in STRINGS if not catalog.get(s)]
    assert not missing, f"untranslated in {lang}: {missing}"
    for msgid in STRINGS:
        assert fields(catalog[msgid]) == fields(msgid), (lang, msgid)
        assert catalog[msgid] != msgid or not re.search(r"[a-z]{4}", msgid), (lang, msgid)


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
