"""The championship's own words, in the gettext domain `championship`.

Its catalogs sit beside the core's, in `uno_showdown/locale/<lang>/LC_MESSAGES/
championship.po` (compiled by `make translations`), and follow the language chosen with
`contract.i18n.set_language`, so the CLI, the screens and the results sheet of one run speak
one language.
"""

from __future__ import annotations

from uno_showdown.contract.i18n import N_, Domain

DOMAIN = "championship"
_DOMAIN = Domain(DOMAIN)
#: The compiled catalog of a language (read once per process).
_catalog = _DOMAIN.catalog

__all__ = ["DOMAIN", "N_", "_", "_catalog", "ngettext"]


def _(message: str) -> str:
    """Translate one championship string into the current language."""
    return _DOMAIN.gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    return _DOMAIN.ngettext(singular, plural, n)
