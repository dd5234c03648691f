"""The companion screen's own words, in the gettext domain `companion_screen`.

The screen keeps its strings apart from the main catalog so the two can be translated and
merged independently; its catalogs sit in `companion/locale/<lang>/LC_MESSAGES/
companion_screen.po` (compiled by `make translations`). The language is the one chosen with
`showdown.contract.i18n.set_language`, so both catalogs always speak the same language.
"""

from __future__ import annotations

from showdown.contract.i18n import N_, Domain

DOMAIN = "companion_screen"
_DOMAIN = Domain(DOMAIN, owner="companion")
#: The compiled catalog of a language (read once per process).
_catalog = _DOMAIN.catalog
_ = _DOMAIN.gettext
ngettext = _DOMAIN.ngettext

__all__ = ["DOMAIN", "N_", "_", "_catalog", "ngettext"]
