"""The screen's own words, in the gettext domain `companion_screen`.

The screen keeps its strings apart from the core's catalog so the two can be
translated and merged independently; its catalogs sit beside the core's, in
`uno_showdown/locale/<lang>/LC_MESSAGES/companion_screen.mo`. The language is
the one the core chose (`contract.i18n.set_language`), so both catalogs
always speak the same language; `_()` looks it up on every call.
"""

from __future__ import annotations

from uno_showdown.contract.i18n import N_, Domain

DOMAIN = "companion_screen"
_DOMAIN = Domain(DOMAIN)
#: The compiled catalog of a language (read once per process).
_catalog = _DOMAIN.catalog

__all__ = ["DOMAIN", "N_", "_", "_catalog", "ngettext"]


def _(message: str) -> str:
    """Translate one screen string into the current language."""
    return _DOMAIN.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _DOMAIN.ngettext(singular, plural, n)
