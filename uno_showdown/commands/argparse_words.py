"""argparse's own words ("usage:", "options:", "the following arguments are required: %s")
in the table's language, from the main catalog (issue 36).

argparse marks its messages with gettext's module-level functions, looked up in its module
at the moment it shows them (`from gettext import gettext as _, ngettext`): `install` points
them at the main domain's, which use the language `cli.main` chose. `WORDS` and `plurals` list
every message of argparse 3.11 to 3.13 a user can see, as argparse writes it (placeholders
included), so the catalogs' extraction finds them; the messages only a programmer meets (a
parser built wrongly: "conflicting option string", "dest= is required", "%r is not
callable"...) are left in English.
"""

from __future__ import annotations

import argparse

from showdown.contract import i18n
from showdown.contract.i18n import N_, ngettext

#: argparse's messages a user can see, as Python 3.11 to 3.13 write them.
WORDS = (
    # the help
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("subcommands"),
    # the refusals of what was typed
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("%(prog)s: error: %(message)s\n"),
    # Python 3.13's new ones (its "%(heading)s:" too, left out: the same in every language of
    # ours but Armenian, whose headings 3.11 ends with ":" as well)
    N_(" (default: %(default)s)"),
    N_("show program's version number and exit"),
    N_("command '%(parser_name)s' is deprecated"),
    N_("option '%(option)s' is deprecated"),
    N_("argument '%(argument_name)s' is deprecated"),
    N_("%(prog)s: warning: %(message)s\n"),
)


def plurals(n: int) -> list[str]:
    """argparse's messages whose wording follows a number, for `n`, in the current language."""
    return [ngettext("expected %s argument", "expected %s arguments", n)]


def install() -> None:
    """Have argparse show its words through the main catalog, in the current language (looked
    up on every message, so installing once, before the language is chosen, is enough)."""
    argparse._ = i18n.gettext_  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
