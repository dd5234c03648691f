"""The games file's JSON written and read by SQLite (`companion.store.sqlite_json`) is
JSON's: what `json` writes SQLite reads back the same, and what SQLite writes `json` reads."""

from __future__ import annotations

import json
import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.store import sqlite_json

#: Text as a tally holds it: names and keys, which have no control character or lone
#: surrogate (`companion.table.names`); SQLite would end a text at a NUL.
TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"))
VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


@pytest.fixture(scope="module")
def conn():
    connection = sqlite3.connect(":memory:")
    yield connection
    connection.close()


@given(VALUES)
def test_what_json_writes_sqlite_reads_as_json_does(conn, value):
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        assert sqlite_json.loads(conn, text) == json.loads(text)


@given(VALUES)
def test_what_sqlite_writes_json_reads_back_the_same(conn, value):
    params: list[object] = []
    text = conn.execute(f"SELECT {sqlite_json.sql_of(value, params)}", params).fetchone()[0]
    assert json.loads(text) == value


def test_a_key_given_twice_keeps_its_last_value_and_bad_text_is_a_value_error(conn):
    assert sqlite_json.loads(conn, '{"a": 1, "b": [true, null], "a": 2}') == {
        "a": 2, "b": [True, None]}
    for bad in ("", "{", "{'a': 1}", "nope"):
        with pytest.raises(ValueError):
            sqlite_json.loads(conn, bad)
    with pytest.raises(TypeError):
        sqlite_json.sql_of({1: 2}, [])
    with pytest.raises(TypeError):
        sqlite_json.sql_of(0.5, [])
    with pytest.raises(ValueError, match="NUL"):
        sqlite_json.sql_of({"a": "b\x00c"}, [])
