"""Every word a user reads is in English, Russian, Ukrainian and Armenian: every string the
code marks is in its domain's catalog, translated with the same placeholders, and the
committed `.mo` files are what Babel compiles from the `.po` files (`make translations`)."""

from __future__ import annotations

import gettext
import io
import re
import string

import pytest

from tools import translations as tr

#: The brand name of the card stays as printed.
UNTRANSLATED = {"Showdown"}
STRINGS = {domain: tr.strings(domain) for domain in tr.DOMAINS}
CATALOGS = list(tr.catalogs())


def fields(text: str) -> set[str]:
    return {f for _, f, _s, _c in string.Formatter().parse(text) if f is not None}


def test_each_domain_has_its_sources() -> None:
    """Sanity: the domains are found from the imports (a rename would silently empty one)."""
    assert {d: len(s) > 40 for d, s in STRINGS.items()} == dict.fromkeys(tr.DOMAINS, True)


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_every_marked_string_is_in_the_catalog(lang: str, domain: str) -> None:
    catalog = tr.read(lang, domain)
    missing = [m for m in STRINGS[domain] if m not in catalog]
    assert missing == [], f"run `make translations` and translate: {missing}"


@pytest.mark.parametrize(("lang", "domain"), [c for c in CATALOGS if c[0] != "en"])
def test_every_string_is_translated_with_its_placeholders(lang: str, domain: str) -> None:
    catalog = tr.read(lang, domain)
    forms = catalog.num_plurals
    for message in STRINGS[domain]:
        text = catalog[message].string
        if isinstance(message, tuple):
            assert isinstance(text, tuple) and len(text) == forms and all(text), (lang, message)
            assert all(fields(t) <= fields(message[1]) for t in text), (lang, message)
            continue
        assert text, (lang, message)
        assert fields(text) == fields(message), (lang, message)
        words = re.sub(r"{\w+(!r)?}", "", message)  # placeholders are not words to translate
        assert text != message or message in UNTRANSLATED or not re.search(r"[a-z]{4}", words), \
            (lang, message)


@pytest.mark.parametrize(("lang", "domain"), CATALOGS)
def test_the_committed_mo_is_what_babel_compiles(lang: str, domain: str) -> None:
    committed = tr.po_path(lang, domain).with_suffix(".mo").read_bytes()
    assert tr.messages(committed) == tr.messages(tr.compiled(lang, domain)), \
        "run `make translations` after editing a .po file"


def test_the_english_catalog_says_each_message_as_written() -> None:
    """...so the core does not read it (`showdown.contract.i18n._catalog`): English reads the same
    without it, plurals included."""
    catalog = tr.read("en", "uno_showdown")
    for message in STRINGS["uno_showdown"]:
        text = catalog[message].string  # empty: not translated, so written as is too
        written = message if isinstance(message, str) else tuple(message)
        assert text in (written, "", ("", "")), message


def test_an_untranslated_plural_falls_back_to_english() -> None:
    catalog = gettext.GNUTranslations(io.BytesIO(tr.compiled("en", "companion_screen")))
    assert [catalog.ngettext("{n} win", "{n} wins", n) for n in (1, 2)] == ["{n} win", "{n} wins"]


def test_plural_forms_follow_each_language() -> None:
    catalog = gettext.GNUTranslations(io.BytesIO(tr.compiled("ru", "companion_screen")))
    assert [catalog.ngettext("{n} win", "{n} wins", n) for n in (1, 3, 5, 21)] == [
        "{n} победа", "{n} победы", "{n} побед", "{n} победа"]


@pytest.mark.parametrize(("lang", "domain"), [c for c in CATALOGS if c[0] != "en"])
def test_the_screens_font_has_every_letter(lang: str, domain: str) -> None:
    import pygame

    from companion.touch import theme

    pygame.font.init()
    catalog = tr.read(lang, domain)
    chars = {ch for m in list(catalog)[1:] for t in ((m.string,) if isinstance(m.string, str)
                                                      else m.string) for ch in t if ch != "\n"}
    for bold in (False, True):
        font = theme.font(20, bold)
        assert [ch for ch in sorted(chars) if font.metrics(ch)[0] is None] == []
