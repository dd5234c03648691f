"""Where a rule on a sheet comes from: a seed's clause, the official sheet, or our inference.

A table reads the sheet to settle a dispute, so every rule says whose word it is. Three
kinds of source, and only three:

* a clause of one of the five source texts (the "seeds": 000 the bar championship's
  regulation, 001 classic UNO, 002 UNO Showdown, 003 UNO Teams, 004 UNO Mario Kart),
  named by its number where the seed numbers its rules (000) and by its heading otherwise;
* the official printed sheet of the game, where a seed is silent and the sheet is not;
* our inference, where nobody says: then the source says what we inferred and why, and
  `docs/rule-sources.md` lists every one of them.

Pure: values and translated labels.
"""

from __future__ import annotations

from showdown.contract.i18n import N_, _
from showdown.contract.record import record

#: The seeds by number, for the tests and the docs: what each one is.
SEEDS = {
    "000": N_("the bar championship's regulation"),
    "001": N_("the classic UNO rules"),
    "002": N_("the UNO Showdown rules"),
    "003": N_("the UNO Teams rules"),
    "004": N_("the UNO Mario Kart rules"),
}


@record
class Source:
    """Whose word a rule is. `seed` and `clause` for a seed's clause (a clause is a number,
    shown as is, or a heading, translated); `official` for the game's printed sheet;
    `inference` for our own reading, with why."""

    seed: str | None = None
    clause: str = ""
    official: bool = False
    inference: str | None = None

    @property
    def is_inference(self) -> bool:
        return self.inference is not None

    def label(self) -> str:
        """The source in a few words, translated: "seed 002, Action cards"."""
        if self.inference is not None:
            return _("our inference: {why}").format(why=_(self.inference))
        if self.official:
            return _("the official sheet")
        return _("seed {seed}, {clause}").format(seed=self.seed, clause=_(self.clause))


def seed(number: str, clause: str) -> Source:
    """A seed's clause: `seed("000", "2.4.2")`, `seed("002", N_("Action cards"))`."""
    if number not in SEEDS:
        raise ValueError(f"no seed {number}")
    return Source(seed=number, clause=clause)


def inferred(why: str) -> Source:
    """Our inference, with why (an `N_` string: the seed is silent, and what we chose)."""
    return Source(inference=why)


OFFICIAL = Source(official=True)
