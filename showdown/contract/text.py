"""Free text a person gives that reaches a terminal, a screen or a sheet: one check for all.

Players' names were already refused with a control, format or invisible character in them;
the other fields a person types (a void's `--why`, `--by`, an event's name, a `--url`) took
them as they came, and a `--why $'\\e]0;pwned\\a\\e[2J'` was stored and written into the
results sheet, where it retitled and cleared the terminal of whoever printed it. Here is the
one rule they all use, the names' own:

* `hidden_char` finds a character of a category nobody types at a table: control (C0, C1,
  DEL: NUL, BEL, ESC…), format (zero-width spaces and joiners, U+202E and the other
  direction overrides), surrogate, private use, unassigned, line and paragraph separators;
* `check_plain` refuses text holding one, naming it as `U+XXXX` since it cannot be seen;
* `shown` writes such characters out as escapes (`\\x1b`, `\\u202e`), for text that came
  from elsewhere (a socket's reply) and must be printed as what it is, never obeyed.
"""

from __future__ import annotations

import unicodedata

from showdown.contract.errors import CompanionError
from showdown.contract.i18n import _

#: Unicode categories no typed text may contain: control, format (zero-width, direction
#: marks), surrogate, private use, unassigned, and line and paragraph separators.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def hidden_char(text: str) -> str | None:
    """The first character of `text` nobody can see or type, or None."""
    for ch in text:
        if unicodedata.category(ch) in HIDDEN_CATEGORIES:
            return ch
    return None


def code_point(ch: str) -> str:
    """An invisible character as a message can show it: U+XXXX."""
    return f"U+{ord(ch):04X}"


def check_plain(text: str, what: str) -> str:
    """`text` as given, or CompanionError naming `what` (an option, e.g. `--why`) and the
    character it may not hold."""
    ch = hidden_char(text)
    if ch is not None:
        raise CompanionError(_("{what} cannot hold the invisible or control character {char}: "
                               "type it again with letters, digits and spaces").format(
            what=what, char=code_point(ch)))
    return text


def shown(text: str) -> str:
    """`text` with every hidden character written as an escape (`\\x1b`, `\\u202e`), so
    printing it shows it and a terminal obeys nothing in it."""
    if hidden_char(text) is None:
        return text
    return "".join(ch if unicodedata.category(ch) not in HIDDEN_CATEGORIES
                   else ascii(ch)[1:-1] for ch in text)
