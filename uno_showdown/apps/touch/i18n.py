"""The screen's own words, in the gettext domain `companion_screen`.

The screen keeps its strings apart from the core's catalog so the two can be
translated and merged independently; its catalogs sit beside the core's, in
`uno_showdown/locale/<lang>/LC_MESSAGES/companion_screen.mo`. The language is
the one the core chose (`contract.i18n.set_language`), so both catalogs
always speak the same language; `_()` looks it up on every call.
"""

from __future__ import annotations

import gettext
from functools import cache

from uno_showdown.contract import i18n as core_i18n

DOMAIN = "companion_screen"


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    return gettext.translation(DOMAIN, core_i18n.LOCALE_DIR, languages=[lang], fallback=True)


def _(message: str) -> str:
    """Translate one screen string into the current language."""
    return _catalog(core_i18n.current_language()).gettext(message)


def N_(message: str) -> str:
    """Mark a string for the catalog where it is defined; `_()` translates it when shown."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _catalog(core_i18n.current_language()).ngettext(singular, plural, n)
