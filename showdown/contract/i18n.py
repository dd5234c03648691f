"""Every user-facing string goes through a `_()`, so a table reads its own language.

This is the main domain, `uno_showdown`, and the one place the language is chosen; the
screen's words (`companion.touch.i18n`) and the championship's (`championship.core.i18n`) follow
it. This domain's catalogs live in `showdown/locale/<lang>/LC_MESSAGES/uno_showdown.mo` (each
other domain's in the `locale` folder of the part that owns it, `Domain` below), compiled by
Babel from the `.po` beside them (`make translations`). The language is chosen once per process:
`--lang` when given, otherwise the system locale (LANGUAGE, LC_ALL, LC_MESSAGES, LANG), falling
back to English. `_()` looks the current catalog up on every call, so strings are translated
when shown, not when a module is imported.
"""

from __future__ import annotations

import functools
import gettext
import os
import sys

from showdown.contract.errors import CompanionError

DOMAIN = "uno_showdown"
# showdown/locale. os.path, not pathlib: every command imports this module first, and
# pathlib (with fnmatch, urllib.parse and ipaddress behind it) costs a Pi's start-up more
# than all the rest of it.
LOCALE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))),
                          "locale")
#: Languages with a catalog: English, Russian, Ukrainian, Armenian (the languages of the rules).
LANGUAGES = ("en", "ru", "uk", "hy")

_current: gettext.NullTranslations = gettext.NullTranslations()
_current_lang = "en"


class LanguageError(CompanionError):
    """A --lang that has no catalog."""


def _system_language() -> str:
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if not value:
            continue
        for part in value.split(":"):
            code = part.split(".")[0].split("_")[0].lower()
            if code in LANGUAGES:
                return code
        if var != "LANGUAGE":
            break
    return "en"


def set_language(lang: str | None = None) -> str:
    """Use `lang` (or the system's language when None) for `_()`; return the code chosen."""
    global _current, _current_lang
    if lang is None:
        code = _system_language()
    else:
        code = lang.strip().lower().replace("-", "_").split("_")[0]
        if code not in LANGUAGES:
            raise LanguageError(
                gettext_(
                    "unknown language {lang!r}: choose one of {choices}"
                ).format(lang=lang, choices=", ".join(LANGUAGES))
            )
    _current = _catalog(code)
    _current_lang = code
    return code


@functools.cache
def _catalog(code: str) -> gettext.NullTranslations:
    """The compiled catalog of a language in `LANGUAGES`, read once per process. The code is
    already one of ours, so the file is opened by its path: `gettext.translation` would first
    expand the code through the `locale` module and look in a dozen places, on every start.
    English is the source language: its catalog repeats each message (`make translations`
    writes it so, and tests/test_translations.py holds it to that), so it is not read."""
    if code == "en":
        return gettext.NullTranslations()
    try:
        with open(os.path.join(LOCALE_DIR, code, "LC_MESSAGES", f"{DOMAIN}.mo"), "rb") as fp:
            return gettext.GNUTranslations(fp)
    except FileNotFoundError:  # English is the source language: it needs no catalog
        return gettext.NullTranslations()


def current_language() -> str:
    return _current_lang


def gettext_(message: str) -> str:
    """Translate `message` into the current language."""
    return _current.gettext(message)


_ = gettext_


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate a message whose wording follows a number, in the current language's forms."""
    return _current.ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark a string for translation where it is defined; translate it with `_()` when shown."""
    return message


class Domain:
    """Another gettext domain beside the main one (the companion screen's, the championship's):
    its own catalogs in the `locale` folder of the package that owns it, in the language
    chosen with `set_language`, looked up on every call. A part's i18n module is three
    lines, and stays pure (the folder is found here, when a catalog is first read)::

        _DOMAIN = Domain("championship", owner="championship")
        _ = _DOMAIN.gettext
        ngettext = _DOMAIN.ngettext
    """

    def __init__(self, name: str, owner: str) -> None:
        self.name = name
        self.owner = owner
        self.catalog = functools.cache(self._load)

    @property
    def locale_dir(self) -> str:
        """`<owner>/locale`: the owning package is loaded already (its i18n module is in it)."""
        package = sys.modules[self.owner]
        assert package.__file__ is not None, f"{self.owner} is a package with a file"
        return os.path.join(os.path.dirname(os.path.realpath(package.__file__)), "locale")

    def _load(self, lang: str) -> gettext.NullTranslations:
        return gettext.translation(self.name, self.locale_dir, languages=[lang], fallback=True)

    def gettext(self, message: str) -> str:
        """Translate one string of this domain into the current language."""
        return self.catalog(_current_lang).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self.catalog(_current_lang).ngettext(singular, plural, n)
