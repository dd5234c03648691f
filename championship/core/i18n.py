"""The championship's own words, in the gettext domain `championship`.

Its catalogs sit in `championship/locale/<lang>/LC_MESSAGES/championship.po` (compiled by
`make translations`), and follow the language chosen with
`showdown.contract.i18n.set_language`, so the CLI, the screens and the results sheet of one
run speak one language.
"""

from __future__ import annotations

from showdown.contract.i18n import N_, Domain

DOMAIN = "championship"
_DOMAIN = Domain(DOMAIN, owner="championship")
#: The compiled catalog of a language (read once per process).
_catalog = _DOMAIN.catalog
_ = _DOMAIN.gettext
ngettext = _DOMAIN.ngettext

__all__ = ["DOMAIN", "N_", "_", "_catalog", "ngettext"]
