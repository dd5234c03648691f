"""The championship's own words, in the gettext domain `championship`.

Its catalogs sit beside the core's, in `uno_showdown/locale/<lang>/LC_MESSAGES/
championship.po` (compiled by `make translations`), and follow the language chosen with
`contract.i18n.set_language`, so the CLI, the screens and the results sheet of one run speak
one language.
"""

from __future__ import annotations

import gettext
from functools import cache

from uno_showdown.contract import i18n as core_i18n

DOMAIN = "championship"


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, core_i18n.LOCALE_DIR, languages=[lang], fallback=True)


def _(message: str) -> str:
    """Translate one championship string into the current language."""
    return _catalog(core_i18n.current_language()).gettext(message)


def N_(message: str) -> str:
    """Mark a string for the catalog where it is defined; `_()` translates it when shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog(core_i18n.current_language()).ngettext(singular, plural, n)
