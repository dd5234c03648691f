"""JSON in the games file, written and read by SQLite's own JSON functions, not `json`.

A game's tally (`companion.store.games`) is a small JSON object kept beside it, written by
every change and read when a round is added. Importing `json` (its decoder and encoder
compile six regular expressions as they load) cost `game round` more on a Pi than writing
and reading the tally itself; SQLite, open already, writes the text (`json_object`) and
lists it back (`json_tree`). The games list reads the same text with SQLite's functions
(`companion.store.game_list`), so the text is only ever JSON's, never Python's.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

#: typing.TYPE_CHECKING without importing typing, which a `game` command would pay
#: for at start (mypy takes any `TYPE_CHECKING` as true).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

_LITERALS = {None: "json('null')", True: "json('true')", False: "json('false')"}


def sql_of(value: object, params: list[object]) -> str:
    """An SQL expression making `value` as JSON (a mapping with string keys, a sequence, a
    string, an integer, a bool or None), its values appended to `params` in order. No
    float: SQLite would write it with 15 digits, not Python's shortest exact ones."""
    if value is None or isinstance(value, bool):
        return _LITERALS[value]
    if isinstance(value, str) and "\x00" in value:  # SQLite would end the text there
        raise ValueError(f"a NUL in {value!r}: the games file's JSON holds none")
    if isinstance(value, (int, str)):
        params.append(value)
        return "json_quote(?)"  # JSON's number or string (a bare text would be the text)
    if isinstance(value, Mapping):
        items = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"a JSON object's keys are strings, not {key!r}")
            if "\x00" in key:
                raise ValueError(f"a NUL in {key!r}: the games file's JSON holds none")
            params.append(key)  # a label is plain text
            items.append(f"?, {sql_of(item, params)}")
        return f"json_object({', '.join(items)})"
    if isinstance(value, Sequence):
        return f"json_array({', '.join(sql_of(item, params) for item in value)})"
    raise TypeError(f"{type(value).__name__} is not JSON")


def loads(conn: sqlite3.Connection, text: str) -> Any:
    """The value of the JSON `text`, as `json.loads` gives it: objects as dicts (a key given
    twice keeps its last value), arrays as lists. ValueError if `text` is not JSON."""
    try:
        rows = conn.execute("SELECT id, parent, key, type, atom FROM json_tree(?)",
                            (text,)).fetchall()
    except sqlite3.OperationalError as exc:  # malformed JSON
        raise ValueError(str(exc)) from None
    made: dict[int, Any] = {}
    root: Any = None
    for node, parent, key, kind, atom in rows:  # document order: a parent before its items
        value: Any
        if kind == "object":
            value = {}
        elif kind == "array":
            value = []
        elif kind in ("true", "false"):
            value = kind == "true"
        else:  # null, integer, real, text: the atom is the value
            value = atom
        made[node] = value
        if parent is None:
            root = value
        elif isinstance(made[parent], dict):
            made[parent][key] = value
        else:
            made[parent].append(value)
    if not rows:
        raise ValueError("no JSON value")
    return root
