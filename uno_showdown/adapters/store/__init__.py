"""The games file (SQLite): games and rounds, duels, time boxes, the championship's tables,
each table's outbox and the director's ledger of the sync; a game as a file (JSON, CSV);
the duels taken back from a duel log; the wall clock that stored records are stamped with."""
