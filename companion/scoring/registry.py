"""Every scoring method a game can use, in the order the CLI and the screen offer them.

A line names a method by its key, says how its module is loaded and lists the other names
people type for it (the method's own `aliases`, repeated here: a test holds the two equal).
So finding a method by a name (`find`, what opening a game does) loads that method's module
alone, not all seven: a Pi pays for every module a command imports. `METHODS` loads a
method when it is first asked for, and every method when its values are read (its keys,
`len` and `in` load none).

Adding a method: write its module (a `ScoringMethod` subclass and its `METHOD`), add its
loader and one line here, and put its strings in the catalogs.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from types import MappingProxyType

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from companion.scoring.base import ScoringMethod


# Each method's module, imported by a function of its own (by its own name, so the import
# is seen like any other) when the method is first asked for.
def _winner() -> ScoringMethod:
    from companion.scoring import winner

    return winner.METHOD


def _own() -> ScoringMethod:
    from companion.scoring import own

    return own.METHOD


def _championship() -> ScoringMethod:
    from companion.scoring import championship

    return championship.METHOD


def _lazy() -> ScoringMethod:
    from companion.scoring import lazy

    return lazy.METHOD


def _teams() -> ScoringMethod:
    from companion.scoring import teams

    return teams.METHOD


def _last() -> ScoringMethod:
    from companion.scoring import last

    return last.METHOD


def _seven() -> ScoringMethod:
    from companion.scoring import seven

    return seven.METHOD


#: Key -> (the method's loader, its aliases), in the order offered.
LINES: Mapping[str, tuple[Callable[[], ScoringMethod], tuple[str, ...]]] = MappingProxyType({
    "winner": (_winner, ("winner collects", "collect")),
    "own": (_own, ("own hand", "loser200", "loser")),
    "championship": (_championship, ("champ",)),
    "lazy": (_lazy, ()),
    "teams": (_teams, ("team",)),
    "last": (_last, ("to the last", "last player", "play to the last player")),
    "seven": (_seven, ("seven rounds", "7 rounds", "seven-round", "7")),
})


def squash(name: str) -> str:
    """A name as it is compared: any case, spaces and punctuation ignored."""
    return "".join(ch for ch in name.strip().lower() if ch.isalnum())


def find(name: str) -> ScoringMethod | None:
    """The method `name` is the key or an alias of (compared squashed), or None; only that
    method's module is loaded."""
    key = squash(name)
    for method_key, (load, aliases) in LINES.items():
        if key == squash(method_key) or any(key == squash(a) for a in aliases):
            return load()
    return None


class _Methods(Mapping[str, "ScoringMethod"]):
    """The methods by key, in the order of `LINES` (read when asked, so a line added later
    is seen); a method's module is loaded when the method is first looked up."""

    def __getitem__(self, key: str) -> ScoringMethod:
        return LINES[key][0]()

    def __contains__(self, key: object) -> bool:
        return key in LINES  # no module loaded to answer

    def __iter__(self) -> Iterator[str]:
        return iter(LINES)

    def __len__(self) -> int:
        return len(LINES)

    def __repr__(self) -> str:
        return f"<scoring methods {', '.join(LINES)}>"


METHODS: Mapping[str, ScoringMethod] = _Methods()
