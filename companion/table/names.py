"""Players' names and seats: the one check every way in uses (CLI, screen, import, events).

Why one module: a name reaches the games file from the command line, the screen's keyboard,
an imported file and a championship's registration; each once had its own idea of a name,
so `ann` sat beside `Ann`, and `Å` written as one code point beside `Å` written as A plus a
ring, two players nobody at the table could tell apart. Here a name is:

* Unicode NFC (the composed form), so one spelling is stored for what looks the same;
* free of control, format, private-use, unassigned and line/paragraph-separator characters
  (NUL, escape sequences that repaint a terminal, zero-width joiners and spaces, direction
  overrides), which no keyboard at the table types and which hide what a name says;
* free of the separators the CLI and the files use: `:` (`--hand "Bob: r5"`), `,`
  (`--players Ann,Bob`) and `+` (teams, `Ann+Cid`);
* not starting with `-`: the command line would take `--winner -2-3` for an option, so
  such a name could be registered and never named again (a name starting with `=` or `@`
  is kept as typed: only the CSV files mark it, `companion.table.spreadsheet`);
* trimmed, with runs of spaces inside made one space;
* 1 to `MAX_NAME_LENGTH` characters, so it fits the screen's columns;
* unique at its table by `name_key`: case-folded NFC, so `ann`, `ANN` and `Ann` are one
  player, and so are the two ways of writing `Å`.

A seat is a position in the seating order, 0-based inside the model; a seat that does not
exist is refused, never moved to the nearest one that does.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable

from showdown.contract.errors import GameError
from showdown.contract.i18n import _
from showdown.contract.text import HIDDEN_CATEGORIES

#: The longest name, in characters: room for a full name ("Константин Константинович
#: Воскресенский" is 39), none for a paragraph; the screen cuts what its columns cannot show.
MAX_NAME_LENGTH = 40
#: Characters the CLI and the export files use to separate names from what follows them.
SEPARATORS = ":,+"
#: Unicode categories no name may contain: control, format (zero-width, direction marks),
#: surrogate, private use, unassigned, and line and paragraph separators (the one rule of
#: every free text, `showdown.contract.text`).
_FORBIDDEN_CATEGORIES = HIDDEN_CATEGORIES


class PlayerNameError(GameError):
    """A name or a seat the table cannot use; the message says what to write instead."""


def _visible(ch: str) -> str:
    """An invisible character as a message can show it: its code point, U+XXXX."""
    return f"U+{ord(ch):04X}"


def check_name(name: str) -> str:
    """The name as stored: NFC, trimmed, single spaces; `PlayerNameError` says what is wrong."""
    if not isinstance(name, str):
        raise PlayerNameError(_("a player's name must be text, not {value!r}").format(value=name))
    text = unicodedata.normalize("NFC", name).strip()
    for ch in text:
        if unicodedata.category(ch) in _FORBIDDEN_CATEGORIES:
            raise PlayerNameError(
                _("a player's name cannot hold the invisible or control character {char}: "
                  "type the name again with letters, digits and spaces").format(
                      char=_visible(ch))
            )
    clean = " ".join(text.split())
    if not clean:
        raise PlayerNameError(_("a player's name cannot be empty"))
    if any(ch in clean for ch in SEPARATORS):
        raise PlayerNameError(
            _("{name!r} cannot be a player's name: leave out the characters : , +").format(
                name=clean
            )
        )
    if clean.startswith("-"):
        raise PlayerNameError(
            _("{name!r} cannot be a player's name: a name cannot start with -, which the "
              "command line takes for an option").format(name=clean))
    if len(clean) > MAX_NAME_LENGTH:
        raise PlayerNameError(
            _("{name!r} is longer than {max} characters: shorten the name").format(
                name=clean, max=MAX_NAME_LENGTH
            )
        )
    return clean


def name_key(name: str) -> str:
    """What two names must differ in to be two players: case-folded NFC, spaces made single.

    Also how a typed name finds its player (`bob` finds `Bob`). Does not check the name.
    """
    text = " ".join(unicodedata.normalize("NFC", name).split())
    return unicodedata.normalize("NFC", text.casefold())


def check_unique(names: Iterable[str]) -> None:
    """Refuse a list in which two names are one player by `name_key`."""
    seen: set[str] = set()
    for name in names:
        key = name_key(name)
        if key in seen:
            raise PlayerNameError(
                _("{name} is in the list twice: give each player a different name").format(
                    name=name
                )
            )
        seen.add(key)


def check_seat(seat: int, players: int) -> int:
    """A 0-based seat for a newcomer at a table of `players`: 0 (first) to `players` (last).

    The message counts seats from 1, as people at a table do.
    """
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat <= players:
        shown = seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat
        raise PlayerNameError(
            _("there is no seat {seat}: choose a seat from 1 to {last}").format(
                seat=shown, last=players + 1
            )
        )
    return seat
