"""The score keeper's tables in the games file: games, players, rounds and their hands,
duels, time boxes, tallies and house rules, as the part "games" of `companion.store.schema`.

Before `schema_parts` the version was SQLite's `user_version`, so a file of that time
reads its version there.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from types import MappingProxyType

from companion.store import schema
from companion.store.errors import StoreError
from showdown.contract.i18n import _

_V1 = """
CREATE TABLE games (
    id INTEGER PRIMARY KEY,
    edition TEXT NOT NULL,
    method TEXT NOT NULL,
    target INTEGER,
    modifiers TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL
);
CREATE TABLE players (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    seat INTEGER NOT NULL,
    joined_round INTEGER NOT NULL DEFAULT 0,
    team INTEGER,
    UNIQUE (game_id, name)
);
CREATE TABLE rounds (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    winner_id INTEGER NOT NULL REFERENCES players(id),
    undone INTEGER NOT NULL DEFAULT 0,
    played_at TEXT NOT NULL,
    UNIQUE (game_id, number)
);
CREATE TABLE hands (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    cards TEXT,
    counted INTEGER,
    PRIMARY KEY (round_id, player_id),
    CHECK ((cards IS NULL) <> (counted IS NULL))
);
"""

_V2 = """
CREATE TABLE duels (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    after_round INTEGER NOT NULL,
    challenger_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    opponent_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    cards INTEGER NOT NULL,
    outcome TEXT NOT NULL,
    winner_id INTEGER REFERENCES players(id) ON DELETE CASCADE,
    loser_id INTEGER REFERENCES players(id) ON DELETE CASCADE,
    challenger_reaction_us INTEGER,
    opponent_reaction_us INTEGER,
    recorded_at TEXT NOT NULL
);
CREATE INDEX duels_by_game ON duels (game_id);
"""

_V3 = """
ALTER TABLE games ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
"""

# What the scoring variants record (seed 001): the card a round's winner went out on (H2O),
# and each player's place in a round's finishing order (playing to the last player).
_V4 = """
ALTER TABLE rounds ADD COLUMN out_on TEXT;
CREATE TABLE places (
    round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
    player_id INTEGER NOT NULL REFERENCES players(id) ON DELETE CASCADE,
    place INTEGER NOT NULL,
    PRIMARY KEY (round_id, player_id),
    UNIQUE (round_id, place)
);
"""

_V5 = """
CREATE TABLE time_boxes (
    id INTEGER PRIMARY KEY,
    label TEXT NOT NULL,
    state TEXT NOT NULL
        CHECK (state IN ('waiting', 'open', 'paused', 'finished', 'sealed')),
    ends_at_us INTEGER,
    left_us INTEGER,
    grace_rounds INTEGER NOT NULL DEFAULT 1 CHECK (grace_rounds >= 0),
    late_rounds INTEGER NOT NULL DEFAULT 0 CHECK (late_rounds >= 0),
    play_on INTEGER NOT NULL DEFAULT 1,
    fixed_players INTEGER NOT NULL DEFAULT 1,
    next_box_id INTEGER REFERENCES time_boxes(id) ON DELETE SET NULL
);
CREATE TABLE time_box_games (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    box_id INTEGER NOT NULL REFERENCES time_boxes(id) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    UNIQUE (box_id, seq)
);
"""

# `changed` numbers each game's duel writes, so a screen reads only what is new since it
# last looked; `log_key` names the duel in the duel log (its number there and the instant
# of its verdict), so taking duels back from the log never records one twice. `tallies`
# kept each game's running sums (`companion.table.game.Tally`; an older program still keeps
# them there, this one in `companion.store.tally_rows`) for the revision they are of:
# derived, and trusted only at that revision, so a round is added without reading them all.
# Beside the sums, the state says whether they end the game by its method (key "over", read
# by the games list, `companion.store.game_list`): a key, not a column, so no step was
# needed and an older program still opens the file; a state it wrote lacks the key, and
# the list reads that game whole.
_V6 = """
ALTER TABLE duels ADD COLUMN contested INTEGER NOT NULL DEFAULT 0;
ALTER TABLE duels ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE duels ADD COLUMN log_key TEXT;
UPDATE duels SET changed = id;
CREATE INDEX duels_by_change ON duels (game_id, changed);
CREATE UNIQUE INDEX duels_by_log_key ON duels (game_id, log_key) WHERE log_key IS NOT NULL;
CREATE INDEX rounds_undone ON rounds (game_id, number) WHERE undone = 1;
CREATE TABLE tallies (
    game_id INTEGER PRIMARY KEY REFERENCES games(id) ON DELETE CASCADE,
    revision INTEGER NOT NULL,
    state TEXT NOT NULL
);
"""

# The table's helpers: the house rules a game plays by, who dealt first (by the highest-card
# draw or by hand), the round whose play goes counter-clockwise after a Reverse, and a round
# won by going out on a showdown card (and winning its duel).
_V7 = """
CREATE TABLE house_rules (
    game_id INTEGER NOT NULL REFERENCES games(id) ON DELETE CASCADE,
    rule TEXT NOT NULL,
    PRIMARY KEY (game_id, rule)
);
ALTER TABLE games ADD COLUMN reversed_round INTEGER;
ALTER TABLE players ADD COLUMN deals_first INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rounds ADD COLUMN showdown_out INTEGER NOT NULL DEFAULT 0;
"""

#: Schema scripts in order: MIGRATIONS[i] takes a file from version i to version i + 1.
MIGRATIONS: tuple[str, ...] = (_V1, _V2, _V3, _V4, _V5, _V6, _V7)
SCHEMA_VERSION = len(MIGRATIONS)

#: The tables and columns of a file at `SCHEMA_VERSION`: what `schema.tables_at` finds by
#: running every step in an empty database, written out so that opening a current file
#: (every `game` command) runs none of them; a test holds the two equal.
CURRENT_TABLES: Mapping[str, frozenset[str]] = MappingProxyType({
    "games": frozenset({"created_at", "edition", "id", "method", "modifiers", "reversed_round",
        "revision", "target"}),
    "players": frozenset({"deals_first", "game_id", "id", "joined_round", "name", "seat", "team"}),
    "rounds": frozenset({"game_id", "id", "number", "out_on", "played_at", "showdown_out",
        "undone", "winner_id"}),
    "hands": frozenset({"cards", "counted", "player_id", "round_id"}),
    "duels": frozenset({"after_round", "cards", "challenger_id", "challenger_reaction_us",
        "changed", "contested", "game_id", "id", "log_key", "loser_id", "opponent_id",
        "opponent_reaction_us", "outcome", "recorded_at", "winner_id"}),
    "places": frozenset({"place", "player_id", "round_id"}),
    "time_boxes": frozenset({"ends_at_us", "fixed_players", "grace_rounds", "id", "label",
        "late_rounds", "left_us", "next_box_id", "play_on", "state"}),
    "time_box_games": frozenset({"box_id", "game_id", "seq"}),
    "tallies": frozenset({"game_id", "revision", "state"}),
    "house_rules": frozenset({"game_id", "rule"}),
})


def _newer(path: str, found: int) -> StoreError:
    return StoreError(_("{path} was written by a newer uno-showdown (schema {found}): "
                        "update uno-showdown to open it").format(path=path, found=found))


def _user_version(conn: sqlite3.Connection) -> int:
    """Where the games' version was kept before `schema_parts`."""
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


#: The score keeper's tables: games, players, rounds, duels, time boxes.
PART = schema.register(schema.Part("games", MIGRATIONS, _user_version, _newer))
